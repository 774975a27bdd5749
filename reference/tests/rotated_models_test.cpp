// The computation models of rotated outputs (rotated_models.hpp) against
// their definitions evaluated independently: every intermediate rounded by
// independent_oracle.hpp's rounding from a 1330-bit value, for each model,
// several presets, every activation format and positions up to 2^24.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/reference/rotated_models.hpp"
#include "rotary_independent.hpp"

namespace pecheck {
namespace {

using testing::HighReal;
using testing::round_independently;

const std::int64_t positions[] = {0, 1, 255, 257, 4097, 65537, 1000003, 16777215};
const FormatId all_formats[] = {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16};

double rn(const HighReal& x, FormatId f) { return round_independently(x, format_of(f)); }

reference::RotatedPair independent_model(const reference::RotatedModel& model, double angle, double factor32, double xa,
                                         double xb, FormatId act) {
  const HighReal t(angle);
  const double c32 = rn(HighReal(factor32) * cos(t), FormatId::float32);
  const double s32 = rn(HighReal(factor32) * sin(t), FormatId::float32);
  switch (model.kind) {
    case reference::RotatedModelKind::hf_cast_cache: {
      const HighReal c(rn(HighReal(c32), act));
      const HighReal s(rn(HighReal(s32), act));
      const HighReal a(xa), b(xb);
      return {rn(HighReal(rn(a * c, act)) + HighReal(rn(-b * s, act)), act),
              rn(HighReal(rn(b * c, act)) + HighReal(rn(a * s, act)), act)};
    }
    case reference::RotatedModelKind::float32_compute: {
      const HighReal a(rn(HighReal(xa), FormatId::float32)), b(rn(HighReal(xb), FormatId::float32));
      const HighReal c(c32), s(s32);
      const double first =
          rn(HighReal(rn(a * c, FormatId::float32)) - HighReal(rn(b * s, FormatId::float32)), FormatId::float32);
      const double second =
          rn(HighReal(rn(a * s, FormatId::float32)) + HighReal(rn(b * c, FormatId::float32)), FormatId::float32);
      return {rn(HighReal(first), act), rn(HighReal(second), act)};
    }
    case reference::RotatedModelKind::float32_angle: {
      const HighReal a(factor32);
      return {rn(a * (HighReal(xa) * cos(t) - HighReal(xb) * sin(t)), act),
              rn(a * (HighReal(xa) * sin(t) + HighReal(xb) * cos(t)), act)};
    }
  }
  return {};
}

TEST(RotatedModels, eachModelFollowsItsDefinitionInEveryFormat) {
  testing::use_decimal_digits(400);
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> value(-3.0, 3.0);
  const ComputationModel angle_model = *find_computation_model("hf-float32");
  for (const reference::RotatedModel& model : reference::rotated_models()) {
    for (const char* name : {"llama2", "yarn", "gpt-j", "phi3-longrope"}) {
      const RotaryConvention c = *find_rotary_preset(name);
      const double factor32 = round_to_format(rotary_derived(c).attention_factor, format_of(FormatId::float32));
      const std::int64_t n = rotary_derived(c).frequencies;
      for (const FormatId act : all_formats) {
        reference::RotatedModelEvaluator evaluator(c, act, model, angle_model);
        for (const std::int64_t p : positions) {
          for (const std::int64_t i : {std::int64_t{0}, n / 4, n - 1}) {
            const double xa = round_to_format(value(random), format_of(act));
            const double xb = round_to_format(value(random), format_of(act));
            const double angle = evaluator.angle(p, i);
            const double inv = reference::rotary_model_inv_freq(c, i, angle_model);
            ASSERT_EQ(angle, rn(HighReal(static_cast<double>(p)) * HighReal(inv), FormatId::float32));
            const reference::RotatedPair want = independent_model(model, angle, factor32, xa, xb, act);
            const reference::RotatedPair got = evaluator.rotate(p, i, xa, xb);
            EXPECT_EQ(got.first, want.first) << model.name << " " << name << " " << format_of(act).name << " p " << p;
            EXPECT_EQ(got.second, want.second) << model.name << " " << name << " " << format_of(act).name << " p " << p;
          }
        }
      }
    }
  }
}

// The models differ where they should: in bfloat16 the cast cache loses the
// cache's low bits, so over many pairs hf-cast-cache and float32-compute
// disagree somewhere, and float32-compute and float32-angle agree on most.
TEST(RotatedModels, theModelsAreDistinctInBfloat16) {
  const ComputationModel angle_model = *find_computation_model("hf-float32");
  const RotaryConvention c = *find_rotary_preset("llama2");
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> value(-3.0, 3.0);
  reference::RotatedModelEvaluator hf(c, FormatId::bfloat16, *reference::find_rotated_model("hf-cast-cache"),
                                      angle_model);
  reference::RotatedModelEvaluator meta(c, FormatId::bfloat16, *reference::find_rotated_model("float32-compute"),
                                        angle_model);
  int differ = 0, total = 0;
  for (std::int64_t p = 1000; p < 1100; ++p) {
    for (std::int64_t i = 0; i < 64; i += 7) {
      const double xa = round_to_format(value(random), format_of(FormatId::bfloat16));
      const double xb = round_to_format(value(random), format_of(FormatId::bfloat16));
      const reference::RotatedPair a = hf.rotate(p, i, xa, xb);
      const reference::RotatedPair b = meta.rotate(p, i, xa, xb);
      differ += (a.first != b.first) + (a.second != b.second);
      total += 2;
    }
  }
  RecordProperty("hf_vs_float32_compute_differ", std::to_string(differ) + " of " + std::to_string(total));
  EXPECT_GT(differ, total / 20);
}

TEST(RotatedModels, unknownNamesAreNotFound) {
  EXPECT_FALSE(reference::find_rotated_model("hf"));
  EXPECT_EQ(reference::rotated_models().size(), 3U);
}

}  // namespace
}  // namespace pecheck
