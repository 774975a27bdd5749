// Dynamic NTK caches (transformers' _compute_dynamic_ntk_parameters, computed
// by examples/rope_caches.py in NumPy and, when it imports, PyTorch): the rule
// and its length are read back from the cache alone, or the pairings that
// build the same frequencies are listed.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>

#include "pecheck/validate/rotary_validation.hpp"
#include "pecheck/validate/validation_writers.hpp"
#include "rotary_caches.hpp"

namespace pecheck::validate {
namespace {

class RotaryDynamicNtk : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() { python_ = testing::python_with_numpy(); }
  static inline std::optional<std::string> python_;

  // The validation of rope_caches.py's llama2-dynamic preset (factor 2, trained length 4096).
  std::optional<Validation> validated(const std::string& arguments, std::string& text) {
    std::string backend = " --backend " + GetParam();
    const testing::GeneratedCache files =
        testing::generated_cache(*python_, "--preset llama2-dynamic " + arguments + backend);
    EXPECT_FALSE(files.failure.has_value()) << *files.failure;
    if (files.failure) return std::nullopt;
    const Validation result =
        validate_rotary_cache(read_table_file(files.cos).table, read_table_file(files.sin).table);
    text = validation_text(result, arguments);
    return result;
  }

  void skip_without_backend() {
    if (!python_) GTEST_SKIP() << "no python3 with numpy";
    if (GetParam() == "torch" && !testing::python_imports_torch(*python_)) {
      GTEST_SKIP() << *python_ << " cannot import torch";
    }
  }
};

bool lists(const RotaryDetection& d, double factor, std::int64_t length, std::int64_t trained) {
  return std::any_of(d.dynamic_ntk_alternatives.begin(), d.dynamic_ntk_alternatives.end(),
                     [&](const RotaryConvention& c) {
                       return c.scaling.factor == factor && c.scaling.sequence_length == length &&
                              c.scaling.original_max_position == trained && c.base == 10000.0;
                     });
}

// Positions 4488..4999 at L = 5000: base' = 10000 * 1.44140625^(128/126). The
// same base' comes from factor 4 at L 4548 and from trained length 2048 at
// L 2500 (gpt-neox's base and length); only L = 5000 is the last position + 1.
TEST_P(RotaryDynamicNtk, theFactorAndLengthAreReadFromACacheEndingAtL) {
  skip_without_backend();
  if (::testing::Test::IsSkipped()) return;
  std::string text;
  const auto result = validated("--rows 512 --first-position 4488 --sequence-length 5000", text);
  ASSERT_TRUE(result);
  const RotaryDetection& d = result->rotary().detection;
  ASSERT_TRUE(d.convention) << text;
  EXPECT_EQ(d.convention->scaling.kind, RotaryScalingKind::dynamic_ntk) << text;
  EXPECT_EQ(d.convention->scaling.factor, 2.0) << text;
  EXPECT_EQ(d.convention->scaling.sequence_length, 5000) << text;
  EXPECT_EQ(d.convention->scaling.original_max_position, 4096) << text;
  EXPECT_EQ(d.convention->base, 10000.0) << text;
  EXPECT_EQ(d.dynamic_ntk_alternatives.size(), 1u) << text;
  EXPECT_EQ(d.first_position, 4488) << text;
  EXPECT_EQ(result->verdict, ValidationVerdict::conforms) << text;
  EXPECT_TRUE(result->hazards.empty()) << text;
}

// Positions 0..511 of a cache built at L = 6000: nothing in the rows says
// which factor, so every whole pairing on the curve is listed (factor 2 at
// 6000 and factor 4 at 5048 among them), and the values still conform.
TEST_P(RotaryDynamicNtk, theAmbiguousPairingsAreListed) {
  skip_without_backend();
  if (::testing::Test::IsSkipped()) return;
  std::string text;
  const auto result = validated("--rows 512 --sequence-length 6000", text);
  ASSERT_TRUE(result);
  const RotaryDetection& d = result->rotary().detection;
  ASSERT_TRUE(d.convention) << text;
  EXPECT_EQ(d.convention->scaling.kind, RotaryScalingKind::dynamic_ntk) << text;
  EXPECT_TRUE(lists(d, 2.0, 6000, 4096)) << text;
  EXPECT_TRUE(lists(d, 4.0, 5048, 4096)) << text;
  EXPECT_NE(text.find("dynamic NTK, ambiguous"), std::string::npos) << text;
  EXPECT_EQ(d.first_position, 0) << text;
  EXPECT_EQ(result->verdict, ValidationVerdict::conforms) << text;
}

// Told the unscaled llama2, a dynamic cache is a scaling fault named as such.
TEST_P(RotaryDynamicNtk, aDynamicCacheAgainstTheUnscaledPresetIsWrongScaling) {
  skip_without_backend();
  if (::testing::Test::IsSkipped()) return;
  const testing::GeneratedCache files = testing::generated_cache(
      *python_, "--preset llama2-dynamic --rows 512 --sequence-length 6000 --backend " + GetParam());
  ASSERT_FALSE(files.failure.has_value()) << *files.failure;
  RotaryValidationOptions options;
  options.convention = find_rotary_preset("llama2");
  const Validation result =
      validate_rotary_cache(read_table_file(files.cos).table, read_table_file(files.sin).table, options);
  const std::string text = validation_text(result, "llama2-dynamic told llama2");
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates) << text;
  EXPECT_TRUE(std::any_of(result.hazards.begin(), result.hazards.end(), [](const Hazard& h) {
    return h.kind == HazardKind::wrong_scaling && h.evidence.find("dynamic-ntk") != std::string::npos;
  })) << text;
}

// A short call (length 512, within the trained 4096: the unscaled base)
// served from the cache of an earlier 6000-long call: the state leaked from
// the longer call (transformers issue 25306) is named, not another base.
TEST_P(RotaryDynamicNtk, theStateOfALongerCallIsNamedInAShortOne) {
  skip_without_backend();
  if (::testing::Test::IsSkipped()) return;
  const testing::GeneratedCache files = testing::generated_cache(
      *python_, "--preset llama2-dynamic --rows 512 --sequence-length 6000 --backend " + GetParam());
  ASSERT_FALSE(files.failure.has_value()) << *files.failure;
  RotaryConvention dynamic = *find_rotary_preset("llama2");
  dynamic.scaling.kind = RotaryScalingKind::dynamic_ntk;
  dynamic.scaling.factor = 2.0;
  dynamic.scaling.original_max_position = 4096;
  dynamic.scaling.sequence_length = 512;
  RotaryValidationOptions options;
  options.convention = dynamic;
  const Validation result =
      validate_rotary_cache(read_table_file(files.cos).table, read_table_file(files.sin).table, options);
  const std::string text = validation_text(result, "a 6000-long call's cache for a 512-long one");
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates) << text;
  EXPECT_TRUE(std::any_of(result.hazards.begin(), result.hazards.end(), [](const Hazard& h) {
    return h.kind == HazardKind::wrong_scaling && h.evidence.find("issue 25306") != std::string::npos;
  })) << text;
}

INSTANTIATE_TEST_SUITE_P(Backends, RotaryDynamicNtk, ::testing::Values("numpy", "torch"),
                         [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

}  // namespace
}  // namespace pecheck::validate
