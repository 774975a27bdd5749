// Detection's instruction-set variants (detection_kernels.hpp): every variant
// this CPU runs gives the baseline's frequency estimates bit for bit (which
// pairs have one, each frequency index, w and sigma) on the same tables:
// sinusoidal tables in every format, interleaved and in halves, group counts
// that leave the last group of eight part empty, runs from 2 rows to
// thousands and starting past row 0, positions rounded to bfloat16 (the fit
// stops widening lane by lane), non-finite entries (a pair without an
// estimate) and noise (no line at all).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "../src/column_pairs.hpp"
#include "../src/detection_kernels.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/format.hpp"
#include "pecheck/isa.hpp"
#include "pecheck/table.hpp"
#include "pecheck/testing/isa_variants.hpp"

namespace pecheck::validate {
namespace {

using Estimates = std::vector<std::optional<FrequencyEstimate>>;

// Every group of eight pairs through one variant's kernel, as
// estimate_frequencies calls it.
Estimates estimates_of(const DetectionKernels& kernels, const Table& table, const std::vector<std::int64_t>& run,
                       const std::vector<FrequencyColumns>& pairs) {
  const double angle_noise = std::ldexp(1.0, 1 - format_of(table.format).precision);
  Estimates found(pairs.size());
  std::vector<double> angles;
  std::vector<double> buffer;
  for (std::size_t first = 0; first < pairs.size(); first += frequency_lanes) {
    const std::size_t count = std::min(frequency_lanes, pairs.size() - first);
    kernels.estimate_lanes(table, run, pairs, first, angle_noise, std::span(found).subspan(first, count), angles,
                           buffer);
  }
  return found;
}

std::vector<std::int64_t> rows_from(std::int64_t first, std::int64_t count) {
  std::vector<std::int64_t> run;
  for (std::int64_t r = first; r < first + count; ++r) run.push_back(r);
  return run;
}

struct Case {
  std::string name;
  Table table;
  std::vector<FrequencyColumns> pairs;
  std::vector<std::int64_t> run;
};

Table preset_table(const std::string& preset, std::int64_t rows, std::int64_t dim, FormatId format) {
  return fast_table(*find_preset(preset), {rows, dim, 0}, format);
}

std::vector<FrequencyColumns> pairs_of(const std::string& preset, std::int64_t dim) {
  return structure_of(*find_preset(preset), dim).pairs;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const FormatId format : {FormatId::float32, FormatId::float64, FormatId::float16, FormatId::bfloat16}) {
    // 1024 wide: 512 pairs, 64 groups; the whole run, as pecheck validate takes it.
    out.push_back({"vaswani 2048 x 1024 " + std::string(format_of(format).name),
                   preset_table("vaswani", 2048, 1024, format), pairs_of("vaswani", 1024), rows_from(0, 2048)});
  }
  // 13 pairs in halves: the second group holds 5; runs of every short length
  // and one starting past row 0.
  const Table halves = preset_table("tf-tutorial", 600, 26, FormatId::float32);
  for (const std::int64_t rows : {2, 3, 15, 16, 17, 33}) {
    out.push_back({"tf-tutorial 26 wide, " + std::to_string(rows) + " rows", halves, pairs_of("tf-tutorial", 26),
                   rows_from(0, rows)});
  }
  out.push_back({"tf-tutorial 26 wide, rows 100..599", halves, pairs_of("tf-tutorial", 26), rows_from(100, 500)});
  // Positions held in bfloat16: from 256 on they step by 2, 4, ...; the
  // fast lanes' residuals pass 0.1 rad at different windows.
  {
    const std::int64_t rows = 4096;
    const std::int64_t dim = 64;
    Table rounded = make_table(rows, dim, FormatId::float32);
    for (std::int64_t r = 0; r < rows; ++r) {
      const double p = round_to_format(static_cast<double>(r), format_of(FormatId::bfloat16));
      for (std::int64_t i = 0; i < dim / 2; ++i) {
        const double w = std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(dim));
        rounded.set(r, 2 * i, std::sin(p * w));
        rounded.set(r, 2 * i + 1, std::cos(p * w));
      }
    }
    out.push_back({"positions in bfloat16", rounded, pairs_of("vaswani", dim), rows_from(0, rows)});
  }
  // NaN in two pairs (no estimate) and an infinity in a third (atan2 of an
  // infinity is an angle: an estimate, through the library's atan2), and a
  // table of noise.
  {
    Table faulty = preset_table("vaswani", 512, 48, FormatId::float32);
    faulty.set(7, 2 * 3, std::numeric_limits<double>::quiet_NaN());
    faulty.set(300, 2 * 9 + 1, std::numeric_limits<double>::quiet_NaN());
    faulty.set(511, 2 * 20, -std::numeric_limits<double>::infinity());
    out.push_back({"non-finite entries", faulty, pairs_of("vaswani", 48), rows_from(0, 512)});
    std::mt19937_64 random(20261127);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    Table noise = make_table(1000, 40, FormatId::float32);
    for (std::int64_t k = 0; k < noise.rows * noise.cols; ++k) noise.set_flat(k, value(random));
    out.push_back({"noise", noise, pairs_of("vaswani", 40), rows_from(0, 1000)});
  }
  return out;
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

TEST(DetectionVariants, everyVariantGivesTheBaselinesFrequencyEstimatesBitForBit) {
  const std::vector<isa::Variant>& variants = isa::variants();
  std::int64_t compared = 0;
  for (const Case& c : cases()) {
    const Estimates baseline = estimates_of(detection_kernels(0), c.table, c.run, c.pairs);
    for (std::size_t v = 1; v < variants.size(); ++v) {
      if (!variants[v].runs_here) continue;
      const Estimates other = estimates_of(detection_kernels(v), c.table, c.run, c.pairs);
      ASSERT_EQ(other.size(), baseline.size());
      for (std::size_t k = 0; k < baseline.size(); ++k) {
        ASSERT_EQ(other[k].has_value(), baseline[k].has_value()) << variants[v].name << " " << c.name << " pair " << k;
        if (!baseline[k]) continue;
        EXPECT_EQ(other[k]->frequency_index, baseline[k]->frequency_index) << variants[v].name << " " << c.name;
        EXPECT_TRUE(same_bits(other[k]->w, baseline[k]->w))
            << variants[v].name << " " << c.name << " pair " << k << ": w " << other[k]->w << " against "
            << baseline[k]->w;
        EXPECT_TRUE(same_bits(other[k]->sigma, baseline[k]->sigma))
            << variants[v].name << " " << c.name << " pair " << k << ": sigma " << other[k]->sigma << " against "
            << baseline[k]->sigma;
      }
      ++compared;
    }
  }
  testing::expect_compared_if_any_variant_runs(compared);
}

// The cases reach what they are there for (else the comparison above could
// pass on estimates that never took those paths): the clean float32 table's
// frequencies come out as the paper's, the pairs holding a NaN have none, noise
// gives unreliable ones.
TEST(DetectionVariants, theCasesReachTheirPaths) {
  for (const Case& c : cases()) {
    const Estimates found = estimates_of(detection_kernels(0), c.table, c.run, c.pairs);
    if (c.name == "vaswani 2048 x 1024 float32") {
      for (const std::optional<FrequencyEstimate>& e : found) {
        ASSERT_TRUE(e.has_value());
        const double w = std::pow(10000.0, -2.0 * static_cast<double>(e->frequency_index) / 1024.0);
        // Angles within a few ULP of float32's 2^-24 over 2048 rows: the
        // slope is known to far better than 1e-4 relative once w > 1e-3;
        // the slowest frequencies barely turn over the run.
        if (w > 1e-3) {
          EXPECT_NEAR(e->w, w, 1e-4 * w) << "frequency " << e->frequency_index;
        }
      }
    } else if (c.name == "non-finite entries") {
      EXPECT_FALSE(found[3].has_value());
      EXPECT_FALSE(found[9].has_value());
      EXPECT_TRUE(found[20].has_value());
      EXPECT_TRUE(found[4].has_value());
    } else if (c.name == "noise") {
      std::int64_t unreliable = 0;
      for (const std::optional<FrequencyEstimate>& e : found) unreliable += e && !e->reliable() ? 1 : 0;
      EXPECT_GT(unreliable, 0) << "of " << found.size() << " pairs of noise";
    }
  }
}

// The block extent (the pass over every value of a rotary cache): every
// variant gives what a value-by-value reading of the bits gives, on the edge
// values in every position of blocks of every length to 70 (a vector and its
// tail), and on random bits.
TEST(DetectionVariants, everyVariantsBlockExtentIsTheValuesOwn) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> edges = {0.0f,
                                    -0.0f,
                                    1.0f,
                                    -1.0f,
                                    0x1p-149f,
                                    -0x1p-149f,
                                    0x1p-126f,
                                    std::numeric_limits<float>::max(),
                                    -std::numeric_limits<float>::max(),
                                    inf,
                                    -inf,
                                    std::numeric_limits<float>::quiet_NaN(),
                                    -std::numeric_limits<float>::quiet_NaN(),
                                    0.75f,
                                    -2.5f};
  const auto expected = [](const std::vector<float>& v, std::uint32_t& outside, std::uint32_t& largest) {
    outside = 0;
    largest = 0;
    for (const float x : v) {
      if (!std::isfinite(x)) {
        ++outside;
      } else {
        largest = std::max(largest, std::bit_cast<std::uint32_t>(std::fabs(x)));
      }
    }
  };
  std::mt19937_64 random(31);
  std::vector<std::vector<float>> blocks;
  for (std::size_t n = 0; n <= 70; ++n) {
    for (std::size_t at = 0; at < std::max<std::size_t>(n, 1); at += 7) {
      for (const float edge : edges) {
        std::vector<float> v(n, 0.5f);
        if (at < n) v[at] = edge;
        blocks.push_back(v);
      }
    }
    std::vector<float> bits(n);
    for (float& x : bits) x = std::bit_cast<float>(static_cast<std::uint32_t>(random()));
    blocks.push_back(bits);
  }
  const std::vector<isa::Variant>& variants = isa::variants();
  std::int64_t compared = 0;
  for (std::size_t v = 0; v < variants.size(); ++v) {
    if (!variants[v].runs_here) continue;
    for (const std::vector<float>& block : blocks) {
      std::uint32_t want_outside = 0, want_largest = 0, outside = 7, largest = 7;
      expected(block, want_outside, want_largest);
      detection_kernels(v).float_block_extent(block.data(), block.size(), outside, largest);
      ASSERT_EQ(outside, want_outside) << variants[v].name << ", " << block.size() << " values";
      ASSERT_EQ(largest, want_largest) << variants[v].name << ", " << block.size() << " values";
    }
    if (v > 0) ++compared;
  }
  testing::expect_compared_if_any_variant_runs(compared);
}

}  // namespace
}  // namespace pecheck::validate
