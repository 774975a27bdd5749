// The computation-model oracle against the computation itself written in C++
// float: IEEE float's +, -, *, / are correctly rounded, so the framework's
// float32 steps are reproduced exactly here except pow, which is rounded from
// a 1330-bit value; the entries against an independent cos of the binary angle.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "pecheck/reference/rotary_reference.hpp"
#include "rotary_independent.hpp"

namespace pecheck {
namespace {

using testing::HighReal;

const ComputationModel& hf_float32() {
  static const ComputationModel model = *find_computation_model("hf-float32");
  return model;
}

float pow_float(float x, float y) {
  testing::use_decimal_digits(400);
  return static_cast<float>(
      testing::round_independently(boost::multiprecision::pow(HighReal(x), HighReal(y)), testing::float32_format));
}

// 1.0 / (base ** (arange(0, d, 2).float() / d)) in float32.
float default_inv_freq(double base, std::int64_t dims, std::int64_t i) {
  const float exponent = static_cast<float>(2 * i) / static_cast<float>(dims);
  return 1.0F / pow_float(static_cast<float>(base), exponent);
}

TEST(RotaryModel, hfFloat32InvFreqIsTheFloat32StepsOfTheDefaultRule) {
  for (const char* name : {"llama2", "llama3", "qwen2", "gpt-neox", "gpt-j"}) {
    const RotaryConvention c = *find_rotary_preset(name);
    const RotaryDerived d = rotary_derived(c);
    for (std::int64_t i = 0; i < d.frequencies; ++i) {
      EXPECT_EQ(reference::rotary_model_inv_freq(c, i, hf_float32()), default_inv_freq(c.base, d.dims, i))
          << name << " frequency " << i;
    }
  }
}

// _compute_llama3_parameters in float32 tensors, Python floats as float32 scalars.
float llama3_inv_freq(const RotaryConvention& c, std::int64_t dims, std::int64_t i) {
  const RotaryScaling& s = c.scaling;
  const float inv_freq = default_inv_freq(c.base, dims, i);
  const auto original_double = static_cast<double>(s.original_max_position);
  const auto original = static_cast<float>(original_double);
  const float factor = static_cast<float>(s.factor);
  const float wavelength = static_cast<float>(2.0 * std::numbers::pi) / inv_freq;
  if (wavelength > static_cast<float>(original_double / s.low_freq_factor)) return inv_freq / factor;
  if (wavelength < static_cast<float>(original_double / s.high_freq_factor)) return inv_freq;
  const float smooth = (original / wavelength - static_cast<float>(s.low_freq_factor)) /
                       static_cast<float>(s.high_freq_factor - s.low_freq_factor);
  return (1.0F - smooth) * inv_freq / factor + smooth * inv_freq;
}

TEST(RotaryModel, hfFloat32InvFreqFollowsTheLlama3StepsInFloat32) {
  const RotaryConvention c = *find_rotary_preset("llama3.1");
  const RotaryDerived d = rotary_derived(c);
  int medium = 0;
  for (std::int64_t i = 0; i < d.frequencies; ++i) {
    const float expected = llama3_inv_freq(c, d.dims, i);
    const float plain = default_inv_freq(c.base, d.dims, i);
    medium += expected != plain && expected != plain / 8.0F;
    EXPECT_EQ(reference::rotary_model_inv_freq(c, i, hf_float32()), expected) << "frequency " << i;
  }
  EXPECT_GT(medium, 0) << "no frequency in llama3's medium band: the blend went untested";
}

// The entry is RN(RN32(a) cos(RN32(RN_pos(p) inv_freq))) from the exact cos.
void expect_model_entries(const RotaryConvention& c, const ComputationModel& model, FormatId format_id) {
  const Format& format = format_of(format_id);
  const RotaryDerived d = rotary_derived(c);
  const auto factor = static_cast<float>(d.attention_factor);
  for (const std::int64_t position :
       {std::int64_t{1}, std::int64_t{257}, std::int64_t{40000}, std::int64_t{16777215}}) {
    const double p = round_to_format(static_cast<double>(position), format_of(model.position));
    for (std::int64_t i = 0; i < d.frequencies; i += 3) {
      const float angle = static_cast<float>(p) * static_cast<float>(reference::rotary_model_inv_freq(c, i, model));
      for (const bool cosine : {true, false}) {
        const HighReal x = testing::independent_model_value(angle, factor, cosine);
        EXPECT_EQ(reference::rotary_correctly_rounded(c, position, i, cosine, format_id, model),
                  testing::round_independently(x, format))
            << c.name << " " << model.name << " " << format.name << " position " << position << " frequency " << i;
      }
    }
  }
}

TEST(RotaryModel, entriesAreTheCorrectlyRoundedCosAndSinOfTheBinaryAngle) {
  for (const char* name : {"llama3.1", "yarn", "phi3-longrope"}) {
    for (const FormatId format : {FormatId::float32, FormatId::bfloat16}) {
      expect_model_entries(*find_rotary_preset(name), hf_float32(), format);
    }
  }
  expect_model_entries(*find_rotary_preset("llama2"), *find_computation_model("hf-bfloat16-positions"),
                       FormatId::float32);
}

TEST(RotaryModel, bfloat16PositionsCollideWhereTheFormatRoundsThemToOneValue) {
  // 257 and 256 are one bfloat16 value (8 significant bits): identical rows.
  const RotaryConvention c = *find_rotary_preset("llama2");
  const ComputationModel model = *find_computation_model("hf-bfloat16-positions");
  const auto cache = reference::rotary_reference_cache(c, {256, 2, FormatId::float32}, model, 1);
  for (std::int64_t col = 0; col < cache.rounded.cos.cols; ++col) {
    EXPECT_EQ(cache.rounded.cos.at(0, col), cache.rounded.cos.at(1, col));
  }
  const auto exact = reference::rotary_reference_cache(c, {256, 2, FormatId::float32}, std::nullopt, 1);
  EXPECT_NE(exact.rounded.cos.at(0, 0 + 1), exact.rounded.cos.at(1, 1));
}

}  // namespace
}  // namespace pecheck
