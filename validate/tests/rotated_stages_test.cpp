// The stages of a rotated output's validation that are split over the
// workers or share their work give what one thread, one step at a time,
// gave: the least-squares rotation tables (positions split over the
// workers), the pairing fit (each width tried once) and the one pass over a
// float32 output that counts its non-finite entries and tells whether its
// values are bfloat16 ones (rows split over the workers); and OUT and IN
// read at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "../src/rotated_pairing.hpp"
#include "pecheck/npy_tensor.hpp"
#include "pecheck/reference/nearest_rounding.hpp"
#include "pecheck/validate/held_tensor.hpp"
#include "pecheck/validate/rotated_output.hpp"

namespace pecheck::validate {
namespace {

// IN drawn at random, OUT its rotation by p * 10000^(-2i / d) (rotate-half),
// both stored in `storage` and rounded to `values`; rows are (position,
// head) with the positions in a shuffled order, so a position's tokens are
// not adjacent and the rows of one worker's positions are spread out.
struct Subject {
  Table input, output;
  std::vector<std::int64_t> row_position;
};

Subject rotated_subject(std::int64_t length, std::int64_t heads, std::int64_t head_dim, FormatId storage,
                        FormatId values, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(-2.0, 2.0);
  std::vector<std::int64_t> order(static_cast<std::size_t>(length));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  std::shuffle(order.begin(), order.end(), random);
  const std::int64_t rows = length * heads, half = head_dim / 2;
  Subject s{make_table(rows, head_dim, storage), make_table(rows, head_dim, storage), {}};
  const auto round = [&](double x) {  // to the values' format, through float32 then bfloat16's top half
    const float narrow = static_cast<float>(x);
    if (values != FormatId::bfloat16) return static_cast<double>(narrow);
    return static_cast<double>(std::bit_cast<float>(std::bit_cast<std::uint32_t>(narrow) & 0xffff0000U));
  };
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t p = order[static_cast<std::size_t>(r / heads)];
    s.row_position.push_back(p);
    for (std::int64_t i = 0; i < half; ++i) {
      const double x = round(uniform(random)), y = round(uniform(random));
      const double t =
          static_cast<double>(p) * std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(head_dim));
      s.input.set(r, i, x);
      s.input.set(r, i + half, y);
      s.output.set(r, i, round(x * std::cos(t) - y * std::sin(t)));
      s.output.set(r, i + half, round(x * std::sin(t) + y * std::cos(t)));
    }
  }
  return s;
}

void expect_same_bits(const Table& got, const Table& want, const std::string& what) {
  ASSERT_EQ(got.rows, want.rows);
  ASSERT_EQ(got.cols, want.cols);
  for (std::int64_t r = 0; r < got.rows; ++r) {
    for (std::int64_t c = 0; c < got.cols; ++c) {
      ASSERT_EQ(std::bit_cast<std::uint64_t>(got.at(r, c)), std::bit_cast<std::uint64_t>(want.at(r, c)))
          << what << " row " << r << " column " << c << ": " << got.at(r, c) << " against " << want.at(r, c);
    }
  }
}

TEST(RotatedStages, rotationTablesSplitOverWorkersAreTheSerialSumsBitForBit) {
  for (const FormatId storage : {FormatId::float32, FormatId::bfloat16}) {
    const Subject s = rotated_subject(700, 5, 16, storage, FormatId::bfloat16, 7);
    const RotatedValues values{s.input.view(), s.output.view(), s.input.rows, 16};
    for (const RotaryLayout layout : {RotaryLayout::rotate_half, RotaryLayout::interleaved}) {
      // Every position, and a run starting past the first that leaves some rows out.
      for (const auto& [first, count] : {std::pair<std::int64_t, std::int64_t>{0, 700}, {37, 500}}) {
        for (const std::int64_t width : {std::int64_t{16}, std::int64_t{10}}) {
          const std::string what = std::string(format_of(storage).name) + " " + std::string(to_string(layout)) +
                                   " first " + std::to_string(first) + " width " + std::to_string(width);
          // One thread sums every position's tokens in row order, as before the split.
          const RotationTables want = rotation_tables(values, s.row_position, layout, width, first, count, 1);
          for (const int threads : {2, 3, 0}) {
            const RotationTables got = rotation_tables(values, s.row_position, layout, width, first, count, threads);
            expect_same_bits(got.cos, want.cos, what + " cos, threads " + std::to_string(threads));
            expect_same_bits(got.sin, want.sin, what + " sin, threads " + std::to_string(threads));
          }
        }
      }
    }
  }
}

TEST(RotatedStages, aWidthListedTwiceFitsAsListedOnce) {
  const Subject s = rotated_subject(300, 4, 16, FormatId::float32, FormatId::bfloat16, 11);
  const RotatedValues values{s.input.view(), s.output.view(), s.input.rows, 16};
  const std::vector<std::vector<std::int64_t>> lists = {{16}, {16, 16, 16}, {8, 16, 8}, {8, 16}, {12, 16, 12, 16}};
  for (const auto& widths : lists) {
    std::vector<std::int64_t> once;
    for (const std::int64_t w : widths) {
      if (std::find(once.begin(), once.end(), w) == once.end()) once.push_back(w);
    }
    const PairingFit got = fit_pairing(values, FormatId::bfloat16, widths);
    const PairingFit want = fit_pairing(values, FormatId::bfloat16, once);
    EXPECT_EQ(got.layout, want.layout);
    EXPECT_EQ(got.width, want.width);
    EXPECT_EQ(got.fraction, want.fraction);
    EXPECT_EQ(got.factor, want.factor);
  }
  // The correct pairing is found: rotate-half over the whole head, every pair keeping its norm.
  const PairingFit fit = fit_pairing(values, FormatId::bfloat16, {16, 16, 16});
  EXPECT_EQ(fit.layout, RotaryLayout::rotate_half);
  EXPECT_EQ(fit.width, 16);
  EXPECT_EQ(fit.fraction, 1.0);
}

// A (1, L, 2, 8) subject whose OUT is stored as float32 (NumPy's bfloat16).
RotatedSubject float32_subject(const Subject& s, std::int64_t length) {
  RotatedSubject subject;
  const std::vector<std::int64_t> shape = {1, length, 2, 8};
  subject.input = owned_tensor(shape, s.input);
  subject.output = owned_tensor(shape, s.output);
  subject.positions.shape = {length};
  subject.positions.dtype = "<i8";
  subject.positions.integer = true;
  for (std::int64_t p = 0; p < length; ++p) subject.positions.integers.push_back(p);
  return subject;
}

Subject ordered_subject(std::int64_t length) {
  // Positions in order (POS is 0..L-1 along the sequence axis).
  Subject s = rotated_subject(length, 2, 8, FormatId::float32, FormatId::bfloat16, 3);
  Subject ordered{make_table(s.input.rows, 8, FormatId::float32), make_table(s.input.rows, 8, FormatId::float32), {}};
  for (std::int64_t r = 0; r < s.input.rows; ++r) {
    const std::int64_t to = s.row_position[static_cast<std::size_t>(r)] * 2 + r % 2;
    for (std::int64_t c = 0; c < 8; ++c) {
      ordered.input.set(to, c, s.input.at(r, c));
      ordered.output.set(to, c, s.output.at(r, c));
    }
  }
  return ordered;
}

std::int64_t counted_non_finite(const Validation& v) {
  for (const Hazard& h : v.hazards) {
    if (h.kind == HazardKind::non_finite) return std::stoll(h.evidence);
  }
  return 0;
}

TEST(RotatedStages, oneScanOfAFloat32OutputCountsItsNonFiniteEntriesAndTellsItsFormat) {
  constexpr std::int64_t length = 512;  // 1024 rows: the scan's rows split over every worker
  Subject s = ordered_subject(length);
  const RotatedOptions options;  // no convention: the scan comes before detection
  // bfloat16 values stored as float32, and non-finite entries in both halves
  // of the rows, one a NaN whose low 16 bits are not zero (no finite value:
  // it says nothing of the format).
  const std::vector<std::pair<std::int64_t, float>> specials = {{3, std::numeric_limits<float>::infinity()},
                                                                {400, -std::numeric_limits<float>::infinity()},
                                                                {700, std::numeric_limits<float>::quiet_NaN()},
                                                                {1023, std::bit_cast<float>(0x7fc01234U)}};
  for (const auto& [row, value] : specials) s.output.set(row, 5, value);
  Validation v = validate_rotated_output(float32_subject(s, length), options);
  EXPECT_EQ(v.rotated().format, FormatId::bfloat16);
  EXPECT_EQ(counted_non_finite(v), static_cast<std::int64_t>(specials.size()));

  // One finite value of the last row with low bits set: not bfloat16; float16
  // when that holds every finite value (as one thread read them, entry by entry).
  s.output.set(1023, 2, 1.0 + 0x1p-10);
  bool float16_values = true;
  for (std::int64_t r = 0; r < s.output.rows; ++r) {
    for (std::int64_t c = 0; c < 8; ++c) {
      const double x = s.output.at(r, c);
      float16_values = float16_values && (!std::isfinite(x) || reference::holds_value(x, format_of(FormatId::float16)));
    }
  }
  v = validate_rotated_output(float32_subject(s, length), options);
  EXPECT_EQ(v.rotated().format, float16_values ? FormatId::float16 : FormatId::float32);
  EXPECT_EQ(counted_non_finite(v), static_cast<std::int64_t>(specials.size()));

  // One that no float16 holds either: compared as float32.
  s.output.set(0, 1, 1.0 + 0x1p-20);
  v = validate_rotated_output(float32_subject(s, length), options);
  EXPECT_EQ(v.rotated().format, FormatId::float32);
}

// OUT and IN are read on two threads at once: what they hold is what was
// written, and with two bad files the error names OUT, as when IN was read
// after it.
TEST(RotatedStages, outAndInReadAtOnceHoldTheirFilesAndTheFirstErrorIsOuts) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "rotated-stages-read";
  std::filesystem::create_directories(dir);
  const Subject s = ordered_subject(64);
  const std::vector<std::int64_t> shape = {1, 64, 2, 8};
  write_npy_tensor(dir / "out.npy", s.output.view(), shape);
  write_npy_tensor(dir / "in.npy", s.input.view(), shape);
  std::vector<std::int64_t> positions(64);
  std::iota(positions.begin(), positions.end(), std::int64_t{0});
  write_npy_positions(dir / "pos.npy", positions);
  {
    std::ofstream bad(dir / "bad.npy");
    bad << "not an npy file";
  }
  const RotatedSubject read = read_rotated_subject(dir / "out.npy", dir / "in.npy", dir / "pos.npy");
  EXPECT_EQ(read.output.shape, shape);
  EXPECT_EQ(read.input.shape, shape);
  for (std::int64_t r = 0; r < s.input.rows; ++r) {
    for (std::int64_t c = 0; c < 8; ++c) {
      ASSERT_EQ(read.output.values.at(r, c), s.output.at(r, c)) << r << ", " << c;
      ASSERT_EQ(read.input.values.at(r, c), s.input.at(r, c)) << r << ", " << c;
    }
  }
  const auto error_of = [&](const std::string& out, const std::string& in) -> std::string {
    try {
      (void)read_rotated_subject(dir / out, dir / in, dir / "pos.npy");
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };
  const std::string both = error_of("bad.npy", "missing.npy");
  EXPECT_NE(both.find("bad.npy"), std::string::npos) << both;
  EXPECT_EQ(both.find("missing.npy"), std::string::npos) << both;
  const std::string second = error_of("out.npy", "missing.npy");
  EXPECT_NE(second.find("missing.npy"), std::string::npos) << second;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pecheck::validate
