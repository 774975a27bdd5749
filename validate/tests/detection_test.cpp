// Detection on pecheck's own tables (no Python needed): for any preset,
// width and slice of its cache below 2^24, the preset and the offset are
// found, and the table conforms.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "pecheck/fast_encoding.hpp"
#include "pecheck/properties/generators.hpp"
#include "pecheck/validate/detection.hpp"
#include "pecheck/validate/table_validation.hpp"

namespace pecheck::validate {
namespace {

bool names(const Detection& detection, const std::string& preset) {
  if (detection.preset == preset) return true;
  return std::find(detection.also_matches.begin(), detection.also_matches.end(), preset) != detection.also_matches.end();
}

// At least 8 columns and 3 rows: a single row can sit at several positions
// equally well in a narrow table, and a row at position 0 (sin 0, cos 1) is
// the same in every rule; fairseq's padding row 1 leaves 2 rows of 3.
RC_GTEST_PROP(Detection, everyPresetSliceIsFoundWithItsOffset, ()) {
  const Convention preset = *rc::gen::elementOf(presets()).as("preset");
  const std::int64_t dim = *properties::gen::dim_for(preset, 128).as("dim");
  RC_PRE(dim >= 8);
  const std::int64_t rows = *rc::gen::inRange<std::int64_t>(3, 24).as("rows");
  const std::int64_t offset = *properties::gen::row_offset_for(preset, rows).as("offset");
  const FormatId format = *rc::gen::element(FormatId::float32, FormatId::float16, FormatId::bfloat16).as("format");
  const Table table = fast_table(preset, TableRequest{rows, dim, offset}, format);
  const Detection detection = detect_convention(table);
  RC_ASSERT(detection.sinusoidal);
  RC_ASSERT(names(detection, preset.name));
  // A narrow, coarse table can fit another offset within its rounding: then
  // detection says so, and never calls the table deviating.
  if (detection.row_offset != offset) {
    RC_ASSERT(detection.offset_ambiguous);
    RC_ASSERT(validate_table(table).verdict != ValidationVerdict::deviates);
  }
}

TEST(Detection, aGivenConventionOnlySearchesTheOffset) {
  const Convention fairseq = *find_preset("fairseq");
  const Table table = fast_table(fairseq, TableRequest{16, 64, 4242}, FormatId::float32);
  DetectionOptions options;
  options.convention = fairseq;
  const Detection detection = detect_convention(table, options);
  EXPECT_EQ(detection.preset, "fairseq");
  EXPECT_EQ(detection.row_offset, 4242);
}

TEST(Detection, aCustomBaseIsDescribedWhenNoPresetMatches) {
  Convention rope_like = *find_preset("vaswani");
  rope_like.name = "base 500000";
  rope_like.frequency.base = 500000.0;
  const Table table = fast_table(rope_like, TableRequest{64, 128, 10}, FormatId::float32);
  const Detection detection = detect_convention(table);
  EXPECT_FALSE(detection.preset.has_value());
  ASSERT_TRUE(detection.convention.has_value());
  EXPECT_EQ(detection.convention->frequency.kind, FrequencyRuleKind::paper);
  EXPECT_EQ(detection.convention->frequency.base, 500000.0);
  EXPECT_EQ(detection.row_offset, 10);
  EXPECT_EQ(validate_table(table).verdict, ValidationVerdict::conforms);
}

TEST(Detection, anAllZeroTableIsNotSinusoidal) {
  Table table = make_table(4, 8, FormatId::float32);
  const Validation result = validate_table(table);
  EXPECT_FALSE(result.table().detection.sinusoidal);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
}

TEST(Validation, nanAndOutOfRangeValuesAreHazardsAndDeviate) {
  const Convention vaswani = *find_preset("vaswani");
  Table table = fast_table(vaswani, TableRequest{32, 16, 0}, FormatId::float32);
  table.set(20, 3, std::nan(""));
  table.set(21, 4, 1.0000001192092896);  // the float32 after 1
  const Validation result = validate_table(table);
  EXPECT_EQ(result.table().detection.preset, "vaswani");
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  std::vector<HazardKind> kinds;
  for (const Hazard& h : result.hazards) kinds.push_back(h.kind);
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), HazardKind::non_finite), kinds.end());
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), HazardKind::out_of_range), kinds.end());
}

TEST(Validation, tablesThatCannotBeEncodingsAreInputErrors) {
  EXPECT_THROW(validate_table(make_table(0, 8, FormatId::float32)), ValidationInputError);
  EXPECT_THROW(validate_table(make_table(2, max_dim + 1, FormatId::float32)), ValidationInputError);
  ValidationOptions past_the_end;
  past_the_end.row_offset = max_exact_position - 1;  // two rows: the second is at 2^24
  const Table table = fast_table(*find_preset("vaswani"), TableRequest{2, 8, 0}, FormatId::float32);
  past_the_end.convention = *find_preset("vaswani");
  EXPECT_THROW(validate_table(table, past_the_end), ConventionError);
}

TEST(Validation, maxAbsErrorAloneReplacesTheUlpCriterion) {
  const Convention vaswani = *find_preset("vaswani");
  Table table = fast_table(vaswani, TableRequest{32, 16, 0}, FormatId::float32);
  table.set(5, 2, round_to_format(table.at(5, 2) + 1e-6, format_of(FormatId::float32)));  // ~17 ULP at 0.96
  ValidationOptions options;
  EXPECT_EQ(validate_table(table, options).verdict, ValidationVerdict::deviates);
  options.max_abs_error = 1e-5;
  EXPECT_EQ(validate_table(table, options).verdict, ValidationVerdict::conforms);
  options.max_ulp = 2.0;  // both must hold
  EXPECT_EQ(validate_table(table, options).verdict, ValidationVerdict::deviates);
}

// A NaN budget compares false against every error: it would pass any table.
TEST(Validation, budgetsThatAreNotFiniteOrAreNegativeAreRefused) {
  const Table table = fast_table(*find_preset("vaswani"), TableRequest{8, 16, 0}, FormatId::float32);
  for (const double bad : {std::nan(""), -1.0, std::numeric_limits<double>::infinity()}) {
    ValidationOptions ulp;
    ulp.max_ulp = bad;
    EXPECT_THROW(validate_table(table, ulp), ConventionError) << bad;
    ValidationOptions abs;
    abs.max_abs_error = bad;
    EXPECT_THROW(validate_table(table, abs), ConventionError) << bad;
  }
}

}  // namespace
}  // namespace pecheck::validate
