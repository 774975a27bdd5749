// The float-angle tier (reference/src/float_angle_tier.hpp) against MPFR:
//   - its three-part pi/2 against MPFR's pi;
//   - every preset and every computation model with float32 angles, rows at
//     both ends of [0, 2^24) and between, in float32, float16 and bfloat16:
//     the angle is the model's (RN_float32 of the exact product) and every
//     value the tier keeps is within the tolerance asked of the exact value
//     that MPFR gives (RotaryEntryEvaluator), at the formats' tolerances and
//     at 2^-49, just above the tier's own bound, where a polynomial or a
//     reduction that loses more than the bound allows is caught;
//   - float32 angles nearest to multiples of pi/2 up to 2^24 (where the
//     reduction cancels), against MPFR's sin and cos of the same double;
//   - the rows of rotary_reference_rows for a model against the rows of the
//     other tiers (RotaryRowEvaluator), value by value.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "float_angle_tier.hpp"
#include "pecheck/format.hpp"
#include "pecheck/reference/nearest_rounding.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/rotary_convention.hpp"
#include "rotary_entry.hpp"
#include "rotary_model_rows.hpp"

namespace pecheck::reference {
namespace {

// |v - x| <= tolerance |x| for MPFR's x, computed at 300 bits (exact for a
// double v and far below any tolerance here).
bool within_mpfr(double v, const mpfr_t x, double tolerance) {
  mpfr_t d;
  mpfr_init2(d, 300);
  mpfr_set_d(d, v, MPFR_RNDN);
  mpfr_sub(d, d, x, MPFR_RNDN);
  mpfr_abs(d, d, MPFR_RNDN);
  mpfr_t allowed;
  mpfr_init2(allowed, 300);
  mpfr_abs(allowed, x, MPFR_RNDN);
  mpfr_mul_d(allowed, allowed, tolerance, MPFR_RNDN);
  const bool ok = mpfr_lessequal_p(d, allowed) != 0;
  mpfr_clear(d);
  mpfr_clear(allowed);
  return ok;
}

bool within_double_double(double v, const DoubleDouble& x, double tolerance) {
  mpfr_t exact;
  mpfr_init2(exact, 300);
  mpfr_set_d(exact, x.hi, MPFR_RNDN);
  mpfr_add_d(exact, exact, x.lo, MPFR_RNDN);
  // x is within 2^-100 of the exact value (ExactValues::full).
  const bool ok = within_mpfr(v, exact, tolerance + 0x1p-99);
  mpfr_clear(exact);
  return ok;
}

TEST(FloatAngleTier, PiHalfPartsSumToPiHalf) {
  mpfr_t pi_half, sum;
  mpfr_init2(pi_half, 400);
  mpfr_init2(sum, 400);
  mpfr_const_pi(pi_half, MPFR_RNDN);
  mpfr_div_2ui(pi_half, pi_half, 1, MPFR_RNDN);
  mpfr_set_d(sum, float_angle_pi_half[0], MPFR_RNDN);
  mpfr_add_d(sum, sum, float_angle_pi_half[1], MPFR_RNDN);
  mpfr_add_d(sum, sum, float_angle_pi_half[2], MPFR_RNDN);
  mpfr_sub(sum, pi_half, sum, MPFR_RNDN);
  EXPECT_LT(std::fabs(mpfr_get_d(sum, MPFR_RNDN)), 0x1p-114);
  mpfr_clear(pi_half);
  mpfr_clear(sum);
  // 29 significant bits each: the products with |k| < 2^24 are exact.
  for (int part = 0; part < 2; ++part) {
    int exponent = 0;
    const double m = std::frexp(float_angle_pi_half[part], &exponent);
    EXPECT_EQ(std::ldexp(m, 29), std::nearbyint(std::ldexp(m, 29))) << part;
  }
}

std::vector<ComputationModel> float32_angle_models() {
  std::vector<ComputationModel> out;
  for (const ComputationModel& m : computation_models()) {
    if (m.angle == FormatId::float32) out.push_back(m);
  }
  return out;
}

TEST(FloatAngleTier, ModelRowsAgainstMpfr) {
  const std::vector<ComputationModel> models = float32_angle_models();
  ASSERT_FALSE(models.empty());
  const FormatId formats[] = {FormatId::float32, FormatId::float16, FormatId::bfloat16};
  std::int64_t checked = 0, kept = 0;
  for (const RotaryConvention& c : rotary_presets()) {
    for (const ComputationModel& model : models) {
      RotaryEntryEvaluator evaluator(c, model);
      const auto n = static_cast<std::size_t>(rotary_derived(c).frequencies);
      std::vector<double> inv_freq(n);
      for (std::size_t i = 0; i < n; ++i) inv_freq[i] = evaluator.model_inv_freq(static_cast<std::int64_t>(i));
      const double factor = round_to_format(rotary_derived(c).attention_factor, format_of(model.angle));
      for (const std::int64_t first : {std::int64_t{0}, std::int64_t{40000}, (std::int64_t{1} << 24) - 300}) {
        for (std::int64_t position = first; position < first + 3; ++position) {
          const double p = round_nearest(static_cast<double>(position), format_of(model.position));
          std::vector<double> angles(n), cos_v(n), sin_v(n);
          std::vector<std::int64_t> usable(n), ok(n);
          float_angles(p, inv_freq.data(), n, angles.data(), usable.data());
          std::vector<RotaryEntryResult> cos_mpfr(n), sin_mpfr(n);
          for (std::size_t i = 0; i < n; ++i) {
            evaluator.evaluate(position, static_cast<std::int64_t>(i), nullptr, true, cos_mpfr[i], sin_mpfr[i]);
            if (!usable[i]) continue;
            // The model's angle: the exact product rounded once to float32.
            EXPECT_EQ(std::fma(p, inv_freq[i], -(p * inv_freq[i])), 0.0);
            EXPECT_EQ(angles[i], round_to_format(p * inv_freq[i], format_of(FormatId::float32)));
          }
          std::vector<double> tolerances;
          for (const FormatId f : formats) tolerances.push_back(exact_tolerance(ExactValues::for_format, f));
          tolerances.push_back(0x1p-49);
          for (const double tolerance : tolerances) {
            float_angle_sin_cos(angles.data(), n, factor, tolerance, cos_v.data(), sin_v.data(), ok.data());
            for (std::size_t i = 0; i < n; ++i) {
              ++checked;
              if (!usable[i] || !ok[i]) continue;
              ++kept;
              const std::string where = c.name + " " + model.name + " position " + std::to_string(position) +
                                        " frequency " + std::to_string(i) + " tolerance " +
                                        std::to_string(std::log2(tolerance));
              EXPECT_TRUE(within_double_double(cos_v[i], cos_mpfr[i].exact, tolerance)) << where << " cos";
              EXPECT_TRUE(within_double_double(sin_v[i], sin_mpfr[i].exact, tolerance)) << where << " sin";
            }
          }
        }
      }
    }
  }
  // The tier is meant to take nearly everything (else the reference would
  // pay the other tiers for it).
  EXPECT_GT(kept, checked * 99 / 100) << kept << " of " << checked;
}

// Float32 angles nearest to k pi/2 (and their neighbours) for k spread over
// [1, 2^24 2/pi]: the reduction's cancellation at its worst. What the tier
// keeps is within the tolerance of MPFR's sin and cos of the same double.
TEST(FloatAngleTier, AnglesNearMultiplesOfPiHalf) {
  std::vector<double> angles;
  mpfr_t x;
  mpfr_init2(x, 200);
  // Every k up to 4096, then every 997th up to 2^24 2/pi.
  for (std::int64_t k = 1; k < 10680000; k += k < 4096 ? 1 : 997) {
    mpfr_const_pi(x, MPFR_RNDN);
    mpfr_mul_si(x, x, static_cast<long>(k), MPFR_RNDN);
    mpfr_div_2ui(x, x, 1, MPFR_RNDN);
    const float nearest = mpfr_get_flt(x, MPFR_RNDN);
    for (const float a : {std::nextafter(nearest, 0.0F), nearest, std::nextafter(nearest, 1e30F)}) {
      if (std::fabs(a) > float_angle_max) continue;
      angles.push_back(a);
      angles.push_back(-static_cast<double>(a));
    }
  }
  const std::size_t n = angles.size();
  std::int64_t kept = 0;
  for (const double tolerance : {0x1p-44, 0x1p-49}) {
    std::vector<double> cos_v(n), sin_v(n);
    std::vector<std::int64_t> ok(n);
    float_angle_sin_cos(angles.data(), n, 1.0, tolerance, cos_v.data(), sin_v.data(), ok.data());
    mpfr_t s, c;
    mpfr_init2(s, 200);
    mpfr_init2(c, 200);
    for (std::size_t i = 0; i < n; ++i) {
      if (!ok[i]) continue;
      ++kept;
      mpfr_set_d(x, angles[i], MPFR_RNDN);
      mpfr_sin_cos(s, c, x, MPFR_RNDN);
      EXPECT_TRUE(within_mpfr(sin_v[i], s, tolerance)) << std::hexfloat << angles[i] << " sin";
      EXPECT_TRUE(within_mpfr(cos_v[i], c, tolerance)) << std::hexfloat << angles[i] << " cos";
    }
    mpfr_clear(s);
    mpfr_clear(c);
  }
  mpfr_clear(x);
  EXPECT_GT(kept, static_cast<std::int64_t>(n));  // most of both passes
}

// The rows rotary_reference_rows hands out for a model (the float-angle
// tier) against the other tiers' rows (RotaryRowEvaluator), for every preset
// and float32-angle model in three formats: the same row numbers, and each
// value within the format's tolerance of the other's exact value.
TEST(FloatAngleTier, ReferenceRowsAgreeWithTheOtherTiers) {
  const FormatId formats[] = {FormatId::float32, FormatId::float16, FormatId::bfloat16};
  for (const RotaryConvention& c : rotary_presets()) {
    for (const ComputationModel& model : float32_angle_models()) {
      // The exact values do not depend on the format: MPFR's once.
      const RotaryCacheRequest full_request{(std::int64_t{1} << 24) - 300, 6, FormatId::float32};
      const RotaryReferenceCache full = rotary_reference_cache(c, full_request, model, 1, ExactValues::full);
      const auto cols = static_cast<std::size_t>(rotary_columns(c));
      for (const FormatId format : formats) {
        ASSERT_TRUE(float_angle_rows_apply(model, format, ExactValues::for_format));
        const double tolerance = exact_tolerance(ExactValues::for_format, format);
        const RotaryCacheRequest request{full_request.first_position, full_request.rows, format};
        std::int64_t rows = 0;
        // One worker: the visitor is called from this thread alone.
        rotary_reference_rows(c, request, model, 1, ExactValues::for_format, [&](int, const RotaryReferenceRow& row) {
          ++rows;
          for (std::size_t k = 0; k < cols; ++k) {
            const auto e = static_cast<std::size_t>(row.row) * cols + k;
            // A plain row by frequency: column k's is frequency f's (cos's n, then sin's).
            const std::size_t n = row.by_frequency.size() / 2;
            const auto f = static_cast<std::size_t>(rotary_column_frequency(c, static_cast<std::int64_t>(k)));
            const DoubleDouble cos_value =
                row.by_frequency.empty() ? row.cos[k] : DoubleDouble{row.by_frequency[f], 0.0};
            const DoubleDouble sin_value =
                row.by_frequency.empty() ? row.sin[k] : DoubleDouble{row.by_frequency[n + f], 0.0};
            const std::string where =
                c.name + " " + model.name + " row " + std::to_string(row.row) + " column " + std::to_string(k);
            EXPECT_TRUE((within_double_double(cos_value.hi, full.exact_cos[e], tolerance) && cos_value.lo == 0.0) ||
                        within_double_double(cos_value.hi + cos_value.lo, full.exact_cos[e], tolerance + 0x1p-52))
                << where << " cos";
            EXPECT_TRUE((within_double_double(sin_value.hi, full.exact_sin[e], tolerance) && sin_value.lo == 0.0) ||
                        within_double_double(sin_value.hi + sin_value.lo, full.exact_sin[e], tolerance + 0x1p-52))
                << where << " sin";
          }
        });
        EXPECT_EQ(rows, request.rows);
      }
    }
  }
}

}  // namespace
}  // namespace pecheck::reference
