// validate_rotary_cache on caches pecheck makes itself: the correctly rounded
// cache conforms against the exact encoding, for every preset; the computation
// model's own cache conforms against the model; what is not a cache is said
// to be so; bad shapes are refused.
#include <gtest/gtest.h>

#include <cctype>

#include "pecheck/accuracy/exact_text.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/rotary_cache.hpp"
#include "pecheck/testing/table_values.hpp"
#include "pecheck/validate/rotary_validation.hpp"
#include "pecheck/validate/validation_writers.hpp"

namespace pecheck::validate {
namespace {

class EveryPreset : public ::testing::TestWithParam<RotaryConvention> {};

TEST_P(EveryPreset, theCorrectlyRoundedFloat32CacheConformsAgainstTheExactEncoding) {
  const RotaryConvention& convention = GetParam();
  const RotaryCache cache = fast_rotary_cache(convention, {4000, 128, FormatId::float32});
  RotaryValidationOptions options;
  options.convention = convention;
  const Validation result = validate_rotary_cache(cache.cos, cache.sin, options);
  const std::string text = validation_text(result, convention.name);
  EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << text;
  ASSERT_FALSE(result.comparisons.empty());
  EXPECT_TRUE(result.comparisons[0].conforms) << text;  // the exact encoding
  EXPECT_EQ(result.rotary().detection.first_position, 4000) << text;
  EXPECT_TRUE(result.hazards.empty()) << text;
  // The worst entry's exact value, printed to the 21 digits WorstInput
  // promises: those of the full-precision reference (2^-100), not of the
  // float32-precision values the comparison folds in (13 digits).
  const accuracy::WorstInput& w = result.comparisons[0].measurement.worst;
  const reference::RotaryReferenceCache full =
      reference::rotary_reference_cache(convention, {w.position, 1, FormatId::float32}, std::nullopt, 1);
  const std::int64_t cols = cache.cos.cols;
  const std::vector<DoubleDouble>& exact = w.column < cols ? full.exact_cos : full.exact_sin;
  EXPECT_EQ(w.exact_text, accuracy::decimal_text(exact[static_cast<std::size_t>(w.column % cols)], 21)) << text;
}

INSTANTIATE_TEST_SUITE_P(Presets, EveryPreset, ::testing::ValuesIn(rotary_presets()),
                         [](const ::testing::TestParamInfo<RotaryConvention>& param) {
                           std::string name;
                           for (char c : param.param.name) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

// The reference's own rounding of the hf-float32 model: what a port of the
// framework's computation must reproduce conforms against the model.
TEST(RotaryValidation, theComputationModelsOwnCacheConformsAgainstTheModel) {
  const RotaryConvention convention = *find_rotary_preset("llama2");
  const reference::RotaryReferenceCache model =
      reference::rotary_reference_cache(convention, {0, 256, FormatId::float32}, find_computation_model("hf-float32"), 1);
  RotaryValidationOptions options;
  options.convention = convention;
  const Validation result = validate_rotary_cache(model.rounded.cos, model.rounded.sin, options);
  const std::string text = validation_text(result, "hf-float32");
  EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << text;
  ASSERT_EQ(result.comparisons.size(), 2u);
  EXPECT_TRUE(result.comparisons[1].conforms) << text;
  EXPECT_LE(result.comparisons[1].measurement.max_ulp, 0.5) << text;  // correctly rounded model values
}

TEST(RotaryValidation, randomTablesAreNotACache) {
  const Table cos =
      testing::table_of(3, 4, FormatId::float32, {0.3, -0.9, 0.1, 0.7, 0.2, 0.5, -0.6, 0.05, 0.9, 0.9, 0.1, -0.3});
  const Table sin =
      testing::table_of(3, 4, FormatId::float32, {0.8, 0.1, -0.5, 0.2, -0.7, 0.3, 0.3, 0.6, 0.05, -0.2, 0.4, 0.1});
  const Validation result = validate_rotary_cache(cos, sin);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  ASSERT_FALSE(result.hazards.empty());
  EXPECT_EQ(result.hazards.front().kind, HazardKind::not_rotary);
}

TEST(RotaryValidation, tablesOfDifferentShapesAreRefused) {
  const Table cos = make_table(4, 8, FormatId::float32);
  const Table sin = make_table(4, 6, FormatId::float32);
  EXPECT_THROW((void)validate_rotary_cache(cos, sin), ValidationInputError);
  EXPECT_THROW((void)validate_rotary_cache(make_table(0, 8, FormatId::float32), make_table(0, 8, FormatId::float32)),
               ValidationInputError);
}

}  // namespace
}  // namespace pecheck::validate
