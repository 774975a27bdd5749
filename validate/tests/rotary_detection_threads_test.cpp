// Rotary detection shared over threads (rotary_detection_run.hpp: the pass
// over every value beside it, on a thread that then helps the frequency fits;
// or the fits on threads of their own, each copying the rows of the group it
// fits) finds what one thread finds,
// bit for bit: the layout, norms, every fitted frequency and its sigma, the
// rule, the row offset and the position steps, on caches of both layouts,
// the complex form, cos and sin swapped, a row offset, positions held in
// bfloat16, 16-bit storage, bfloat16 values stored as float32 and cos and sin
// in different formats; and the whole validation (its JSON document) is the
// same with one thread and with two.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "../src/narrow_format.hpp"
#include "../src/position_steps.hpp"
#include "../src/rotary_cache_scan.hpp"
#include "../src/rotary_detection.hpp"
#include "../src/rotary_detection_run.hpp"
#include "../src/rotary_value_hazards.hpp"
#include "pecheck/npy.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/rotary_cache.hpp"
#include "pecheck/testing/temp_dir.hpp"
#include "pecheck/validate/rotary_read_pass.hpp"
#include "pecheck/validate/rotary_validation.hpp"
#include "pecheck/validate/validation_writers.hpp"

namespace pecheck::validate {
namespace {

struct NamedCache {
  std::string name;
  RotaryCache cache;
};

RotaryConvention preset(const std::string& name, RotaryLayout layout = RotaryLayout::rotate_half) {
  RotaryConvention c = *find_rotary_preset(name);
  c.layout = layout;
  return c;
}

Table converted(const Table& table, FormatId format) {
  Table out = make_table(table.rows, table.cols, format);
  for (std::int64_t r = 0; r < table.rows; ++r) {
    for (std::int64_t c = 0; c < table.cols; ++c) out.set(r, c, table.at(r, c));
  }
  return out;
}

std::vector<NamedCache> caches() {
  std::vector<NamedCache> out;
  const RotaryConvention llama = preset("llama3.1");
  out.push_back({"rotate-half float32", fast_rotary_cache(llama, {0, 3000, FormatId::float32})});
  out.push_back({"interleaved float32",
                 fast_rotary_cache(preset("llama3.1", RotaryLayout::interleaved), {0, 3000, FormatId::float32})});
  out.push_back({"complex float32",
                 fast_rotary_cache(preset("llama2", RotaryLayout::complex_form), {0, 2500, FormatId::float32})});
  out.push_back({"row offset", fast_rotary_cache(preset("qwen2"), {7000, 2100, FormatId::float32})});
  RotaryCache swapped = fast_rotary_cache(llama, {0, 2500, FormatId::float32});
  std::swap(swapped.cos, swapped.sin);
  out.push_back({"cos and sin swapped", std::move(swapped)});
  out.push_back({"bfloat16", fast_rotary_cache(llama, {0, 3000, FormatId::bfloat16})});
  out.push_back({"float16", fast_rotary_cache(preset("mistral"), {0, 2200, FormatId::float16})});
  RotaryCache narrow = fast_rotary_cache(llama, {0, 2300, FormatId::bfloat16});
  out.push_back({"bfloat16 values as float32",
                 {converted(narrow.cos, FormatId::float32), converted(narrow.sin, FormatId::float32)}});
  RotaryCache mixed = fast_rotary_cache(preset("llama2"), {0, 2100, FormatId::float32});
  mixed.sin = converted(mixed.sin, FormatId::float64);
  out.push_back({"cos float32, sin float64", std::move(mixed)});
  // Positions held in bfloat16 (identical successive rows past 256): the
  // computation model, by the reference, without exact values.
  const reference::RotaryReferenceCache held =
      reference::rotary_reference_cache(preset("llama2"), {0, 2400, FormatId::float32},
                                        find_computation_model("hf-bfloat16-positions"), 0, reference::ExactValues::none);
  out.push_back({"positions held in bfloat16", held.rounded});
  return out;
}

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

std::vector<std::uint64_t> bits(const std::vector<double>& xs) {
  std::vector<std::uint64_t> out;
  for (double x : xs) out.push_back(bits(x));
  return out;
}

std::string described(const std::optional<RotaryConvention>& c) { return c ? describe(*c) : "none"; }

// Every field of two detections, doubles by their bits.
void expect_same(const RotaryDetection& a, const RotaryDetection& b, const std::string& name) {
  EXPECT_EQ(a.rotary, b.rotary) << name;
  EXPECT_EQ(a.layout, b.layout) << name;
  EXPECT_EQ(a.frequencies, b.frequencies) << name;
  EXPECT_EQ(bits(a.attention_factor), bits(b.attention_factor)) << name;
  EXPECT_EQ(bits(a.norm_spread), bits(b.norm_spread)) << name;
  EXPECT_EQ(a.swapped, b.swapped) << name;
  EXPECT_EQ(bits(a.inv_freq), bits(b.inv_freq)) << name;
  EXPECT_EQ(bits(a.inv_freq_sigma), bits(b.inv_freq_sigma)) << name;
  EXPECT_EQ(bits(a.fitted_base), bits(b.fitted_base)) << name;
  EXPECT_EQ(described(a.convention), described(b.convention)) << name;
  EXPECT_EQ(a.convention_note, b.convention_note) << name;
  ASSERT_EQ(a.dynamic_ntk_alternatives.size(), b.dynamic_ntk_alternatives.size()) << name;
  for (std::size_t k = 0; k < a.dynamic_ntk_alternatives.size(); ++k) {
    EXPECT_EQ(describe(a.dynamic_ntk_alternatives[k]), describe(b.dynamic_ntk_alternatives[k])) << name;
  }
  EXPECT_EQ(a.first_position, b.first_position) << name;
  EXPECT_EQ(a.placed_position, b.placed_position) << name;
  EXPECT_EQ(a.identical_pairs, b.identical_pairs) << name;
  EXPECT_EQ(a.positions_held_in, b.positions_held_in) << name;
  EXPECT_EQ(a.notes, b.notes) << name;
}

// The format the values carry, as the validation chooses it (the wider of cos's and sin's).
FormatId value_format(const RotaryCache& cache) {
  const FormatId cos = narrowest_format(cache.cos).format;
  const FormatId sin = narrowest_format(cache.sin).format;
  return format_of(cos).precision >= format_of(sin).precision ? cos : sin;
}

// As the validation detects: the scan beside detection on a thread that then
// helps the fits (two threads), or both in turn (one).
RotaryDetection detected(const RotaryCache& cache, int threads, const std::optional<std::int64_t>& first_position) {
  RotaryDetectionRun run(cache.cos, cache.sin, threads);
  return run.detect([&] { return value_format(cache); }, std::nullopt, first_position);
}

// The fits on threads of their own (no helper), cos's successive rows from the scan.
RotaryDetection detected_by_fit_threads(const RotaryCache& cache, int threads) {
  const RotaryCacheScan scan = scan_rotary_cache(cache.cos, cache.sin);
  return detect_rotary(cache.cos, cache.sin, value_format(cache), std::nullopt, std::nullopt, threads, nullptr,
                       [&]() -> const SuccessiveRows& { return scan.successive; });
}

TEST(RotaryDetectionThreads, twoThreadsAndTheMachinesDefaultDetectWhatOneThreadDetects) {
  for (const NamedCache& c : caches()) {
    const RotaryDetection one = detected(c.cache, 1, std::nullopt);
    ASSERT_TRUE(one.rotary) << c.name;
    ASSERT_TRUE(one.convention) << c.name;
    expect_same(one, detected(c.cache, 2, std::nullopt), c.name + ", 2 threads");
    expect_same(one, detected(c.cache, 0, std::nullopt), c.name + ", default threads");
    expect_same(detected(c.cache, 1, std::optional<std::int64_t>(5)), detected(c.cache, 3, std::optional<std::int64_t>(5)),
                c.name + ", 3 threads, offset given");
    expect_same(one, detected_by_fit_threads(c.cache, 2), c.name + ", fits on 2 threads of their own");
    // The public entry (its own pass for the successive rows) agrees too.
    expect_same(one, detect_rotary(c.cache.cos, c.cache.sin, value_format(c.cache), std::nullopt, std::nullopt),
                c.name + ", public");
  }
}

// What the caches are supposed to show, so that the comparison above is
// between detections that found something.
TEST(RotaryDetectionThreads, theCachesShowWhatTheyWereMadeWith) {
  for (const NamedCache& c : caches()) {
    const RotaryDetection d = detected(c.cache, 0, std::nullopt);
    EXPECT_EQ(d.swapped, c.name == "cos and sin swapped") << c.name;
    EXPECT_EQ(d.first_position, c.name == "row offset" ? 7000 : 0) << c.name;
    EXPECT_EQ(d.positions_held_in.has_value(), c.name == "positions held in bfloat16") << c.name;
    const RotaryLayout layout = c.name.starts_with("interleaved") ? RotaryLayout::interleaved
                                : c.name.starts_with("complex")   ? RotaryLayout::complex_form
                                                                  : RotaryLayout::rotate_half;
    EXPECT_EQ(d.layout, layout) << c.name;
  }
}

TEST(RotaryDetectionThreads, theValidationIsTheSameWithOneThreadAndWithTwo) {
  for (const NamedCache& c : caches()) {
    RotaryValidationOptions one;
    one.threads = 1;
    RotaryValidationOptions two;
    two.threads = 2;
    EXPECT_EQ(validation_json(validate_rotary_cache(c.cache.cos, c.cache.sin, one), c.name),
              validation_json(validate_rotary_cache(c.cache.cos, c.cache.sin, two), c.name))
        << c.name;
  }
}

// The one pass's parts are the separate passes' results.
TEST(RotaryDetectionThreads, theCacheScanIsTheExtentsAndTheSuccessiveRows) {
  for (const NamedCache& c : caches()) {
    const RotaryCacheScan scan = scan_rotary_cache(c.cache.cos, c.cache.sin);
    for (const auto& [part, whole] : {std::pair{scan.cos_extent, value_extent(c.cache.cos)},
                                      std::pair{scan.sin_extent, value_extent(c.cache.sin)}}) {
      EXPECT_EQ(part.non_finite, whole.non_finite) << c.name;
      EXPECT_EQ(bits(part.largest), bits(whole.largest)) << c.name;
    }
    const SuccessiveRows rows = successive_rows(c.cache.cos.view());
    EXPECT_EQ(scan.successive.identical, rows.identical) << c.name;
    EXPECT_EQ(scan.successive.identical_pairs, rows.identical_pairs) << c.name;
    EXPECT_EQ(scan.successive.first_identical, rows.first_identical) << c.name;
    // Chunks taken by two threads at once combine to the same (2048-row
    // chunks: these caches have two or more, and the bfloat16 positions'
    // identical rows run across the boundary).
    RotaryCacheScanner scanner(c.cache.cos, c.cache.sin);
    std::thread other([&scanner] {
      while (scanner.scan_next()) {
      }
    });
    const RotaryCacheScan& shared = scanner.finish();
    other.join();
    EXPECT_EQ(shared.successive.identical, rows.identical) << c.name;
    EXPECT_EQ(shared.successive.identical_pairs, rows.identical_pairs) << c.name;
    EXPECT_EQ(shared.successive.first_identical, rows.first_identical) << c.name;
    EXPECT_EQ(shared.cos_extent.non_finite, scan.cos_extent.non_finite) << c.name;
    EXPECT_EQ(bits(shared.cos_extent.largest), bits(scan.cos_extent.largest)) << c.name;
    EXPECT_EQ(bits(shared.sin_extent.largest), bits(scan.sin_extent.largest)) << c.name;
  }
}

// The pass made as the files are read (rotary_read_pass.hpp) is the pass
// made afterwards, and the validation the same with it: the reader's blocks
// (2048 float32 rows of 128) end where the scan's chunks do, so the pair
// across a boundary is the next chunk's (the bfloat16 positions make rows
// 2047 and 2048 identical), and every chunk was scanned by the time the
// reads returned.
TEST(RotaryDetectionThreads, thePassMadeAsTheFilesAreReadIsThePassMadeAfter) {
  std::vector<NamedCache> named = caches();
  named.push_back({"positions held in bfloat16, 5000 rows",
                   reference::rotary_reference_cache(preset("llama2"), {0, 5000, FormatId::float32},
                                                     find_computation_model("hf-bfloat16-positions"), 0,
                                                     reference::ExactValues::none)
                       .rounded});
  pecheck::testing::TempDir dir;
  for (const NamedCache& c : named) {
    write_npy(dir / "cos.npy", c.cache.cos.view());
    write_npy(dir / "sin.npy", c.cache.sin.view());
    RotaryReadPass pass;
    const Table cos = read_npy(dir / "cos.npy", any_table_rows, pass.cos_rows()).table;
    const Table sin = read_npy(dir / "sin.npy", any_table_rows, pass.sin_rows()).table;
    ASSERT_NE(pass.cos_scanner(), nullptr) << c.name;
    ASSERT_NE(pass.sin_scanner(), nullptr) << c.name;
    EXPECT_FALSE(pass.cos_scanner()->scan_next(cos, cos.rows)) << c.name << ": a chunk of cos left after the read";
    EXPECT_FALSE(pass.sin_scanner()->scan_next(sin, sin.rows)) << c.name << ": a chunk of sin left after the read";
    const RotaryCacheScan after = scan_rotary_cache(cos, sin);
    RotaryCacheScanner going_on(cos, sin, pass.cos_scanner(), pass.sin_scanner());
    const RotaryCacheScan& read = going_on.finish();
    EXPECT_EQ(read.successive.identical, after.successive.identical) << c.name;
    EXPECT_EQ(read.successive.identical_pairs, after.successive.identical_pairs) << c.name;
    EXPECT_EQ(read.successive.first_identical, after.successive.first_identical) << c.name;
    for (const auto& [part, whole] :
         {std::pair{read.cos_extent, after.cos_extent}, std::pair{read.sin_extent, after.sin_extent}}) {
      EXPECT_EQ(part.non_finite, whole.non_finite) << c.name;
      EXPECT_EQ(bits(part.largest), bits(whole.largest)) << c.name;
    }
    if (c.name.starts_with("positions held in bfloat16, 5000")) {
      ASSERT_GT(cos.rows, 2048);
      EXPECT_EQ(read.successive.identical[2047], 1) << "rows 2047 and 2048 hold position 2048";
    }
    EXPECT_EQ(validation_json(validate_rotary_cache(cos, sin, {}, &pass), c.name),
              validation_json(validate_rotary_cache(cos, sin), c.name))
        << c.name;
  }
}

}  // namespace
}  // namespace pecheck::validate
