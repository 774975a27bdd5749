// The rotated norm property (rotated_properties.hpp) computes its pairs'
// deviations and bounds as vector code, rows split over the workers: its
// figures (pairs checked, violations, the worst ratio and where it is) are
// those of the pair-at-a-time loop it replaced, bit for bit, on outputs
// with every kind of pair: rotated within the bound, beyond it, zero, NaN,
// infinite, subnormal, and several pairs at the same worst ratio (the first
// is named).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "pecheck/properties/rotated_properties.hpp"
#include "pecheck/rotary_kernel.hpp"
#include "pecheck/table.hpp"

namespace pecheck::properties {
namespace {

// The loop before the change, one pair at a time on one thread, with its
// bound: (8u + 2^-21) A |in| + 2 s.
RotatedProperty serial_norm_property(const TableView& input, const TableView& output, RotaryLayout layout,
                                     std::int64_t width, FormatId format, double factor) {
  const Format& f = format_of(format);
  const double relative = 8.0 * std::ldexp(1.0, -f.precision) + 0x1p-21;
  const double absolute = 2.0 * std::ldexp(1.0, f.min_exponent - f.precision + 1);
  RotatedProperty p;
  for (std::int64_t r = 0; r < input.rows(); ++r) {
    for (std::int64_t i = 0; i < width / 2; ++i) {
      const auto [a, b] = rotary_pair_columns(layout, width, i);
      const double in = std::sqrt(input.at(r, a) * input.at(r, a) + input.at(r, b) * input.at(r, b));
      const double out = std::sqrt(output.at(r, a) * output.at(r, a) + output.at(r, b) * output.at(r, b));
      const double limit = relative * factor * in + absolute;
      const double deviation = std::fabs(out - factor * in);
      ++p.checked;
      const bool fails = !(deviation <= limit);
      p.violations += fails;
      const double ratio =
          fails && !std::isfinite(deviation) ? std::numeric_limits<double>::infinity() : deviation / limit;
      if (ratio > p.worst_ratio) {
        p.worst_ratio = ratio;
        p.worst_row = r;
        p.worst_pair = i;
      }
    }
  }
  return p;
}

// IN at random and OUT its rotation by random angles, scaled by `factor`,
// `rows` x 16 in `storage` (rounded there once).
struct Output {
  Table input, output;
};

Output rotated_output(std::int64_t rows, FormatId storage, double factor, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(-3.0, 3.0);
  Output o{make_table(rows, 16, storage), make_table(rows, 16, storage)};
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t i = 0; i < 8; ++i) {
      const double x = uniform(random), y = uniform(random), t = uniform(random);
      o.input.set(r, i, x);
      o.input.set(r, i + 8, y);
      o.output.set(r, i, factor * (o.input.at(r, i) * std::cos(t) - o.input.at(r, i + 8) * std::sin(t)));
      o.output.set(r, i + 8, factor * (o.input.at(r, i) * std::sin(t) + o.input.at(r, i + 8) * std::cos(t)));
    }
  }
  return o;
}

void expect_same(const RotatedProperty& got, const RotatedProperty& want, const std::string& what) {
  EXPECT_EQ(got.checked, want.checked) << what;
  EXPECT_EQ(got.violations, want.violations) << what;
  EXPECT_EQ(std::bit_cast<std::uint64_t>(got.worst_ratio), std::bit_cast<std::uint64_t>(want.worst_ratio))
      << what << ": " << got.worst_ratio << " against " << want.worst_ratio;
  EXPECT_EQ(got.worst_row, want.worst_row) << what;
  EXPECT_EQ(got.worst_pair, want.worst_pair) << what;
}

TEST(RotatedNormProperty, vectorPairsSplitOverWorkersGiveThePairAtATimeFigures) {
  constexpr std::int64_t rows = 3001;  // uneven blocks over the workers
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  for (const FormatId storage : {FormatId::float32, FormatId::bfloat16, FormatId::float64}) {
    for (const double factor : {1.0, 1.25}) {
      Output o = rotated_output(rows, storage, factor, 5);
      const std::string name = std::string(format_of(storage).name) + " factor " + std::to_string(factor);
      const FormatId format = storage == FormatId::float64 ? FormatId::float32 : storage;
      // Correct outputs (rounded once: within the bound; bfloat16's pairs may stray past it).
      for (const RotaryLayout layout : {RotaryLayout::rotate_half, RotaryLayout::interleaved}) {
        for (const std::int64_t width : {std::int64_t{16}, std::int64_t{6}}) {
          expect_same(norm_property(o.input.view(), o.output.view(), layout, width, format, factor),
                      serial_norm_property(o.input.view(), o.output.view(), layout, width, format, factor),
                      name + " correct " + std::string(to_string(layout)) + " width " + std::to_string(width));
        }
      }
      // Spoiled pairs: zero, NaN and infinite entries in both workers' rows
      // (several infinite ratios, the worst: the first is named), a subnormal
      // pair, and two pairs scaled alike (the same ratio in both workers).
      o.input.set(10, 0, 0.0), o.input.set(10, 8, 0.0), o.output.set(10, 0, 0.0), o.output.set(10, 8, 0.0);
      o.output.set(20, 1, nan);
      o.output.set(2500, 2, inf);
      o.input.set(2600, 3, inf), o.output.set(2600, 3, inf);
      o.input.set(40, 4, nan);
      o.input.set(50, 5, 0x1p-130), o.input.set(50, 13, 0.0), o.output.set(50, 5, 0.0), o.output.set(50, 13, 0x1p-131);
      for (const std::int64_t r : {std::int64_t{700}, std::int64_t{2900}}) {
        o.input.set(r, 6, 1.0), o.input.set(r, 14, 0.0), o.output.set(r, 6, 2.0 * factor), o.output.set(r, 14, 0.0);
      }
      for (const RotaryLayout layout : {RotaryLayout::rotate_half, RotaryLayout::interleaved}) {
        const RotatedProperty got = norm_property(o.input.view(), o.output.view(), layout, 16, format, factor);
        expect_same(got, serial_norm_property(o.input.view(), o.output.view(), layout, 16, format, factor),
                    name + " spoiled " + std::string(to_string(layout)));
        EXPECT_GT(got.violations, 0) << name;
      }
    }
  }
}

}  // namespace
}  // namespace pecheck::properties
