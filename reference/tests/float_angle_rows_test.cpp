// The float-angle tier's loops (reference/src/float_angle_tier.cpp), written
// for the vectoriser (the float32 rounding on the bits, the quadrant chosen on
// the bits, each verdict taken before the quadrant places the value, a factor
// of 1 left out), against the plain form of the same arithmetic for one entry
// (the conversion to float, ?:, each verdict on the value where it lands),
// bit for bit: every value, every verdict and FloatAngleRows::row's, for
// every preset's model frequencies over many positions, at row lengths that
// leave tails of every size, at tolerances that keep some entries and refuse
// others, and at the inputs the tier refuses (angles beyond 2^24, products
// below float32's normal range or not exact in double).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "enclosure_decision.hpp"
#include "float_angle_tier.hpp"
#include "pecheck/format.hpp"
#include "pecheck/reference/nearest_rounding.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/rotary_convention.hpp"
#include "rotary_entry.hpp"
#include "rotary_model_rows.hpp"

namespace pecheck::reference {
namespace {

struct PlainEntry {
  double angle = 0.0, cos_value = 0.0, sin_value = 0.0;
  bool fits = false, ok = false;  // ok: the values' verdict, whether or not the angle fits
};

// One entry as float_angle_tier.cpp derives it, without its loops' devices.
PlainEntry plain_entry(double p, double w, double factor, double tolerance) {
  PlainEntry out;
  const double hi = p * w;
  const double lo = std::fma(p, w, -hi);
  const double rounded = static_cast<double>(static_cast<float>(hi));
  out.fits = (lo == 0.0) && (std::fabs(hi) >= 0x1p-126 || hi == 0.0) && std::fabs(rounded) <= float_angle_max;
  const double a = out.angle = out.fits ? rounded : 0.0;

  const double shifted = a * 0x1.45f306dc9c883p-1 + 0x1.8p52;
  const double k = shifted - 0x1.8p52;
  const double r1 = std::fma(-k, float_angle_pi_half[0], a);
  const double b = k * float_angle_pi_half[1];
  const double h = r1 - b;
  const double r1_part = h + b;
  const double l = (r1 - r1_part) + ((r1_part - h) - b);
  const double t3 = k * float_angle_pi_half[2];
  const double e = l - t3;
  const double y = h + e;
  const double reduction_error = 0x1p-53 * (std::fabs(y) + std::fabs(e) + std::fabs(t3)) + std::fabs(k) * 0x1p-114;
  const double z = y * y;
  // Taylor coefficients, from 1/17! and 1/16! down.
  const double sin_terms[] = {1.0 / 355687428096000.0, -1.0 / 1307674368000.0, 1.0 / 6227020800.0,
                              -1.0 / 39916800.0,       1.0 / 362880.0,         -1.0 / 5040.0,
                              1.0 / 120.0,             -1.0 / 6.0};
  const double cos_terms[] = {1.0 / 20922789888000.0, -1.0 / 87178291200.0, 1.0 / 479001600.0, -1.0 / 3628800.0,
                              1.0 / 40320.0,          -1.0 / 720.0,         1.0 / 24.0,        -0.5};
  double sp = sin_terms[0], cq = cos_terms[0];
  for (int i = 1; i < 8; ++i) {
    sp = std::fma(z, sp, sin_terms[i]);
    cq = std::fma(z, cq, cos_terms[i]);
  }
  const double s = std::fma(y, z * sp, y);
  const double c = std::fma(z, cq, 1.0);
  const double s_error = 0x1p-51 * std::fabs(s) + reduction_error;
  const double c_error = 0x1p-50 * std::fabs(c) + reduction_error;

  const auto quadrant = std::bit_cast<std::uint64_t>(shifted) & 3U;
  const bool swap = (quadrant & 1U) != 0;
  out.sin_value = (swap ? c : s) * ((quadrant & 2U) != 0 ? -1.0 : 1.0) * factor;
  out.cos_value = (swap ? s : c) * (((quadrant + 1U) & 2U) != 0 ? -1.0 : 1.0) * factor;
  const double margin = 1.0 + 0x1p-50;
  const double sin_error =
      (std::fabs(factor) * (swap ? c_error : s_error) + 0x1p-53 * std::fabs(out.sin_value)) * margin;
  const double cos_error =
      (std::fabs(factor) * (swap ? s_error : c_error) + 0x1p-53 * std::fabs(out.cos_value)) * margin;
  out.ok = std::fabs(y) <= 0.7854 && within_relative(out.sin_value, sin_error, tolerance) &&
           within_relative(out.cos_value, cos_error, tolerance);
  return out;
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

// Counts of verdicts seen, so a run that never refuses (or never keeps)
// cannot pass unnoticed.
struct Seen {
  std::int64_t entries = 0, kept = 0, refused = 0, unfit = 0;
};

// The kernels on w[0, n) at p against plain_entry, entry by entry.
void expect_kernels_plain(double p, const double* w, std::size_t n, double factor, double tolerance,
                          const std::string& where, Seen& seen) {
  std::vector<double> angles(n), cos_v(n), sin_v(n);
  std::vector<std::int64_t> fits(n, 7), ok(n, 7);
  const bool all_fit = float_angles(p, w, n, angles.data(), fits.data());
  const bool all_ok = float_angle_sin_cos(angles.data(), n, factor, tolerance, cos_v.data(), sin_v.data(), ok.data());
  bool plain_fit = true, plain_ok = true;
  for (std::size_t i = 0; i < n; ++i) {
    const PlainEntry x = plain_entry(p, w[i], factor, tolerance);
    plain_fit = plain_fit && x.fits;
    plain_ok = plain_ok && x.ok;
    ++seen.entries;
    seen.unfit += x.fits ? 0 : 1;
    (x.fits && x.ok ? seen.kept : seen.refused) += 1;
    const std::string at = where + " entry " + std::to_string(i) + " of " + std::to_string(n);
    ASSERT_TRUE(same_bits(angles[i], x.angle)) << at << std::hexfloat << " angle " << angles[i] << " " << x.angle;
    ASSERT_EQ(fits[i], x.fits ? 1 : 0) << at;
    ASSERT_EQ(ok[i], x.ok ? 1 : 0) << at;
    ASSERT_TRUE(same_bits(cos_v[i], x.cos_value)) << at << std::hexfloat << " cos " << cos_v[i] << " " << x.cos_value;
    ASSERT_TRUE(same_bits(sin_v[i], x.sin_value)) << at << std::hexfloat << " sin " << sin_v[i] << " " << x.sin_value;
  }
  ASSERT_EQ(all_fit, plain_fit) << where;
  ASSERT_EQ(all_ok, plain_ok) << where;
}

TEST(FloatAngleRows, PresetRowsMatchThePlainEntry) {
  // Positions: a run from 0, then spread to 2^25 (past 2^24, where the
  // largest frequencies' angles no longer fit).
  std::vector<std::int64_t> positions;
  for (std::int64_t p = 0; p < 96; ++p) positions.push_back(p);
  for (std::int64_t p = 96; p < (std::int64_t{1} << 25); p = p * 9 / 8 + 7) positions.push_back(p);
  Seen seen;
  for (const RotaryConvention& c : rotary_presets()) {
    for (const ComputationModel& model : computation_models()) {
      if (model.angle != FormatId::float32) continue;
      RotaryEntryEvaluator evaluator(c, model);
      const auto n = static_cast<std::size_t>(rotary_derived(c).frequencies);
      std::vector<double> w(n);
      for (std::size_t i = 0; i < n; ++i) w[i] = evaluator.model_inv_freq(static_cast<std::int64_t>(i));
      const double preset_factor = round_to_format(rotary_derived(c).attention_factor, format_of(model.angle));
      // float32's tolerance, and 2^-50 and 2^-51, where the tier's bounds
      // (about 2^-50 relative) keep some entries and refuse others.
      for (const double tolerance : {exact_tolerance(ExactValues::for_format, FormatId::float32), 0x1p-50, 0x1p-51}) {
        for (const double factor : {preset_factor, 1.0, 0x1.3333p-1}) {
          for (std::size_t k = 0; k < positions.size(); ++k) {
            const double p = round_nearest(static_cast<double>(positions[k]), format_of(model.position));
            const std::string where = c.name + " " + model.name + " position " + std::to_string(positions[k]);
            // The whole row, then a shorter row from an odd start (a tail
            // of every length over the positions).
            expect_kernels_plain(p, w.data(), n, factor, tolerance, where, seen);
            const std::size_t start = 1 + k % 3;
            if (n > start) {
              expect_kernels_plain(p, w.data() + start, (n - start) - k % std::min<std::size_t>(n - start, 11), factor,
                                   tolerance, where + " part", seen);
            }
          }
        }
      }
    }
  }
  EXPECT_GT(seen.kept, seen.entries / 4);
  EXPECT_GT(seen.refused, 0);
  EXPECT_GT(seen.unfit, 0);
}

// FloatAngleRows::row: true exactly when every entry's plain verdicts are,
// its values the plain entry's.
TEST(FloatAngleRows, RowVerdictIsEveryEntrys) {
  std::int64_t kept_rows = 0, refused_rows = 0;
  for (const RotaryConvention& c : rotary_presets()) {
    for (const ComputationModel& model : computation_models()) {
      for (const FormatId format : {FormatId::float32, FormatId::bfloat16}) {
        if (!float_angle_rows_apply(model, format, ExactValues::for_format)) continue;
        FloatAngleRows rows(c, model, format, ExactValues::for_format);
        RotaryEntryEvaluator evaluator(c, model);
        const std::size_t n = rows.frequencies();
        const double factor = round_to_format(rotary_derived(c).attention_factor, format_of(model.angle));
        const double tolerance = exact_tolerance(ExactValues::for_format, format);
        std::vector<double> values(2 * n);
        for (const std::int64_t position : {std::int64_t{0}, std::int64_t{1}, std::int64_t{65535}, std::int64_t{1} << 24,
                                            (std::int64_t{1} << 24) + 2, std::int64_t{40000000}}) {
          const bool kept = rows.row(position, values.data(), values.data() + n);
          const double p = round_nearest(static_cast<double>(position), format_of(model.position));
          bool every = true;
          for (std::size_t i = 0; i < n; ++i) {
            const PlainEntry x =
                plain_entry(p, evaluator.model_inv_freq(static_cast<std::int64_t>(i)), factor, tolerance);
            every = every && x.fits && x.ok;
            ASSERT_TRUE(same_bits(values[i], x.cos_value)) << c.name << " " << position << " " << i;
            ASSERT_TRUE(same_bits(values[n + i], x.sin_value)) << c.name << " " << position << " " << i;
          }
          ASSERT_EQ(kept, every) << c.name << " " << model.name << " position " << position;
          (kept ? kept_rows : refused_rows) += 1;
        }
      }
    }
  }
  EXPECT_GT(kept_rows, 0);
  EXPECT_GT(refused_rows, 0);
}

// The float32 rounding on the bits against the conversion: p = 1 makes the
// product any double. Random doubles from far below float32's normal range
// to far above 2^24, their dropped 29 bits random or set to the patterns
// where rounding decides (ties of both parities, one either side of a tie,
// all ones carrying into the exponent), and the edges themselves.
TEST(FloatAngleRows, RoundingOnTheBitsIsTheConversion) {
  std::mt19937_64 random(20260601);
  std::vector<double> products = {0.0,           -0.0,          0x1p-126,      -0x1p-126,    0x1.fffffep-127,
                                  0x1.ffffffp-127, 0x1.fffffffffffffp-127, 0x1p24, -0x1p24, 0x1p24 + 1.0,
                                  0x1p24 + 2.0,  0x1p24 + 3.0,  0x1p24 - 0.5,  0x1p24 - 0.25, 0x1.fffffe8p23,
                                  0x1p25,        0x1p-149,      1e300,         3.0 + 3.0 * 0x1p-23};
  const std::uint64_t patterns[] = {0x10000000, 0x0fffffff, 0x10000001, 0x1fffffff, 0, 1};
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t exponent = 1023 - 200 + random() % 260;  // 2^-200 .. 2^59
    std::uint64_t bits = (random() >> 12) | (exponent << 52) | (random() % 2 << 63);
    if (i % 2 == 0) bits = (bits & ~std::uint64_t{0x1fffffff}) | patterns[(i / 2) % 6];
    products.push_back(std::bit_cast<double>(bits));
  }
  const std::size_t n = products.size();
  std::vector<double> angles(n);
  std::vector<std::int64_t> fits(n);
  float_angles(1.0, products.data(), n, angles.data(), fits.data());
  std::int64_t fit = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const PlainEntry x = plain_entry(1.0, products[i], 1.0, 0x1p-44);
    fit += x.fits ? 1 : 0;
    ASSERT_EQ(fits[i], x.fits ? 1 : 0) << std::hexfloat << products[i];
    ASSERT_TRUE(same_bits(angles[i], x.angle)) << std::hexfloat << products[i] << " " << angles[i] << " " << x.angle;
  }
  EXPECT_GT(fit, static_cast<std::int64_t>(n) / 4);
  EXPECT_LT(fit, static_cast<std::int64_t>(n) * 3 / 4);
}

// Products the tier refuses, next to ones it takes: not exact in double,
// below float32's normal range, beyond 2^24; each verdict the plain entry's.
TEST(FloatAngleRows, RefusedProductsMatchThePlainEntry) {
  const std::vector<double> w = {0.1,       1.0 / 3.0,     0x1p-126, 0x1p-127,         0x1.8p-130,     1.0,
                                 0x1p-20,   0x1.fffffep-1, 0.5,      0x1.000002p0,     0x1.7ffffep-3, 0x1p-149};
  Seen seen;
  for (const double p : {0.0, 1.0, 3.0, 16777215.0, 16777216.0, 16777218.0, 33554432.0, 0x1p-10, 1e6}) {
    for (std::size_t n = 1; n <= w.size(); ++n) {
      expect_kernels_plain(p, w.data(), n, 1.0, 0x1p-44, "p " + std::to_string(p), seen);
      expect_kernels_plain(p, w.data(), n, 0x1.3333p-1, 0x1p-44, "p " + std::to_string(p) + " factor", seen);
    }
  }
  EXPECT_GT(seen.unfit, 0);
  EXPECT_GT(seen.kept, 0);
}

}  // namespace
}  // namespace pecheck::reference
