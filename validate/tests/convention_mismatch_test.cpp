// A table checked against a convention or offset it does not hold (the
// checkpoint-mismatch faults 3, 4 and 5 of CONVENTIONS.md), a table read with
// --dtype wider than its values, an odd width a given convention rejects, and
// a table that drifted from its convention (fault 6), on pecheck's own tables
// (no Python needed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "../src/convention_mismatch.hpp"
#include "hazard_lookup.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/testing/table_values.hpp"
#include "pecheck/validate/detection.hpp"
#include "pecheck/validate/table_validation.hpp"

using pecheck::testing::values_of;

namespace pecheck::validate {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

Validation validate_as(const Table& table, const std::string& preset, std::optional<std::int64_t> offset = {}) {
  ValidationOptions options;
  options.convention = *find_preset(preset);
  options.row_offset = offset;
  return validate_table(table, options);
}

// The claim for a table validated against what it is not: it deviates, the
// mismatch names what it is and the flag to give, and no fault of positions,
// angles or pairing is read into the mismatch's errors.
void expect_mismatch_naming(const Validation& result, const std::string& advice) {
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  const Hazard* mismatch = result.hazard(HazardKind::convention_mismatch);
  ASSERT_NE(mismatch, nullptr) << hazard_list(result);
  EXPECT_TRUE(contains(mismatch->evidence, advice)) << mismatch->evidence;
  EXPECT_EQ(result.hazard(HazardKind::angle_precision), nullptr) << hazard_list(result);
  EXPECT_EQ(result.hazard(HazardKind::position_precision), nullptr) << hazard_list(result);
  EXPECT_EQ(result.hazard(HazardKind::not_sinusoidal), nullptr) << hazard_list(result);
}

TEST(ConventionMismatch, everyPresetValidatedAsAnotherThatDiffersNamesWhatItIs) {
  const std::int64_t rows = 256;
  const std::int64_t dim = 64;
  for (const Convention& truth : presets()) {
    const Table table = fast_table(truth, TableRequest{rows, dim, 0}, FormatId::float32);
    const Detection detected = detect_convention(table);
    ASSERT_TRUE(detected.preset.has_value()) << truth.name;
    for (const Convention& given : presets()) {
      // Identical tables at this width (tf-tutorial and marian-hf at even d):
      // no mismatch to find, and the table conforms.
      const Table other = fast_table(given, TableRequest{rows, dim, 0}, FormatId::float32);
      SCOPED_TRACE(truth.name + " validated as " + given.name);
      const Validation result = validate_as(table, given.name);
      if (values_of(other) == values_of(table)) {
        EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << hazard_list(result);
        EXPECT_EQ(result.hazard(HazardKind::convention_mismatch), nullptr) << hazard_list(result);
        continue;
      }
      expect_mismatch_naming(result, "the table is " + *detected.preset);
      if (*detected.preset != given.name) {
        EXPECT_TRUE(contains(result.hazards.back().evidence, "--convention " + *detected.preset))
            << hazard_list(result);
      }
    }
  }
}

TEST(ConventionMismatch, theComparisonWithTheGivenConventionIsStillReported) {
  const Table table = fast_table(*find_preset("tensor2tensor"), TableRequest{256, 64, 0}, FormatId::float32);
  const Validation result = validate_as(table, "tf-tutorial", 0);
  expect_mismatch_naming(result, "--convention tensor2tensor");
  // The figures are those of the table against tf-tutorial, as asked.
  ASSERT_TRUE(result.table().compared);
  EXPECT_EQ(result.table().rows_compared, 256);
  EXPECT_GT(result.comparisons.front().measurement.max_abs_error, 0.05);  // the rules part by ~0.07 by position 50 at d = 512
  EXPECT_FALSE(result.comparisons.front().measurement.worst.value_hex.empty());
  EXPECT_TRUE(contains(result.hazards.back().evidence, "frequency rule")) << hazard_list(result);
  EXPECT_TRUE(contains(result.hazards.back().evidence, "fault 3")) << hazard_list(result);
}

TEST(ConventionMismatch, theRightConventionAtAnotherOffsetNamesTheOffset) {
  const Table table = fast_table(*find_preset("vaswani"), TableRequest{64, 64, 300}, FormatId::float32);
  const Validation both = validate_as(table, "vaswani", 0);
  expect_mismatch_naming(both, "--offset 300");
  EXPECT_TRUE(contains(both.hazards.back().evidence, "fault 4")) << hazard_list(both);
  EXPECT_FALSE(contains(both.hazards.back().evidence, "--convention")) << hazard_list(both);

  ValidationOptions offset_alone;
  offset_alone.row_offset = 0;
  expect_mismatch_naming(validate_table(table, offset_alone), "--offset 300");
}

TEST(ConventionMismatch, aPaddingRowZeroedOrNotTellsFairseqFromTensor2tensor) {
  const Table fairseq = fast_table(*find_preset("fairseq"), TableRequest{64, 32, 0}, FormatId::float32);
  const Validation as_t2t = validate_as(fairseq, "tensor2tensor");
  expect_mismatch_naming(as_t2t, "--convention fairseq");
  EXPECT_TRUE(contains(as_t2t.hazards.back().evidence, "zero rows")) << hazard_list(as_t2t);
  EXPECT_TRUE(contains(as_t2t.hazards.back().evidence, "file row 1 all zeros")) << hazard_list(as_t2t);

  const Table t2t = fast_table(*find_preset("tensor2tensor"), TableRequest{64, 32, 0}, FormatId::float32);
  expect_mismatch_naming(validate_as(t2t, "fairseq"), "--convention tensor2tensor");
}

TEST(ConventionMismatch, anotherOddWidthPolicyIsNamedEvenWithoutAPreset) {
  // tensor2tensor's rule and layout with the paper's odd-width policy (sin
  // gets the extra column): no preset, so validate says to detect it.
  Convention extra_sin = *find_preset("tensor2tensor");
  extra_sin.name = "tensor2tensor with an extra sin column";
  extra_sin.odd_dim = OddDimPolicy::extra_sin;
  const Table table = fast_table(extra_sin, TableRequest{128, 9, 0}, FormatId::float32);
  const Validation result = validate_as(table, "tensor2tensor");
  expect_mismatch_naming(result, "odd-width policy");
  EXPECT_TRUE(contains(result.hazards.back().evidence, "--convention auto")) << hazard_list(result);
  EXPECT_TRUE(contains(result.hazards.back().evidence, "fault 5")) << hazard_list(result);
}

TEST(ConventionMismatch, anOddVaswaniTableValidatedAsFairseqIsNamed) {
  const Table table = fast_table(*find_preset("vaswani"), TableRequest{100, 5, 0}, FormatId::float32);
  const Validation result = validate_as(table, "fairseq");
  expect_mismatch_naming(result, "--convention vaswani");
  EXPECT_TRUE(contains(result.hazards.back().evidence, "odd-width policy")) << hazard_list(result);
}

TEST(ConventionMismatch, aWidthTheGivenConventionRejectsIsSaidInTheTablesTerms) {
  const Table table = fast_table(*find_preset("vaswani"), TableRequest{100, 5, 0}, FormatId::float32);
  try {
    validate_as(table, "tf-tutorial", 0);
    ADD_FAILURE() << "a width of 5 accepted for tf-tutorial";
  } catch (const ConventionError& e) {
    const std::string message = e.what();
    EXPECT_TRUE(contains(message, "the table has 5 columns")) << message;
    EXPECT_TRUE(contains(message, "even width")) << message;
    EXPECT_TRUE(contains(message, "vaswani")) << message;  // what the table is
    EXPECT_FALSE(contains(message, "--dim")) << message;   // a flag validate does not have
  }
  // fairseq divides by d/2 - 1: a width of 3 is refused the same way.
  const Table narrow = fast_table(*find_preset("vaswani"), TableRequest{100, 3, 0}, FormatId::float32);
  try {
    validate_as(narrow, "fairseq");
    ADD_FAILURE() << "a width of 3 accepted for fairseq";
  } catch (const ConventionError& e) {
    EXPECT_TRUE(contains(e.what(), "the table has 3 columns")) << e.what();
    EXPECT_FALSE(contains(e.what(), "--dim")) << e.what();
  }
}

TEST(ConventionMismatch, theGivenConventionThatFitsIsNoMismatch) {
  // Coarse, narrow tables at a given offset, where detection alone may find
  // another offset within the rounding: the given reading fits, so no hazard.
  for (const Convention& preset : presets()) {
    for (FormatId format : {FormatId::float32, FormatId::bfloat16}) {
      const Table table = fast_table(preset, TableRequest{16, 8, 1000}, format);
      SCOPED_TRACE(preset.name + " " + std::string(format_of(format).name));
      const Validation result = validate_as(table, preset.name, 1000);
      EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << hazard_list(result);
      EXPECT_EQ(result.hazard(HazardKind::convention_mismatch), nullptr) << hazard_list(result);
    }
  }
}

TEST(ConventionMismatch, aFitWithinTheNoiseRulesAMismatchOutAndNothingCoarserDoes) {
  // convention_mismatch's noise in float32 is 2^(3-24) = 2^-21, less 2^-40
  // for the fast float64 rows' error (convention_mismatch.cpp).
  EXPECT_TRUE(mismatch_ruled_out(0.0, FormatId::float32));
  EXPECT_TRUE(mismatch_ruled_out(0x1p-21 - 0x1p-40, FormatId::float32));
  EXPECT_FALSE(mismatch_ruled_out(0x1p-21, FormatId::float32));
  // float64's noise, 2^-50, is below the margin: a float64 table is always checked.
  EXPECT_FALSE(mismatch_ruled_out(0.0, FormatId::float64));
}

TEST(ConventionMismatch, whereTheComparisonRulesAMismatchOutDetectionFindsNone) {
  // validate_table skips convention_mismatch when mismatch_ruled_out holds:
  // run it anyway on such tables, and it must find nothing.
  for (const Convention& preset : presets()) {
    const Table table = fast_table(preset, TableRequest{64, 16, 1000}, FormatId::float32);
    SCOPED_TRACE(preset.name);
    const Validation result = validate_as(table, preset.name, 1000);
    ASSERT_TRUE(result.table().compared);
    ASSERT_TRUE(mismatch_ruled_out(result.comparisons.front().measurement.max_abs_error, FormatId::float32))
        << result.comparisons.front().measurement.max_abs_error;
    TableReadings readings(table, DetectionOptions{result.table().detection.convention, std::int64_t{1000}, std::nullopt});
    EXPECT_FALSE(convention_mismatch(table, readings).has_value());
  }
}

// A bfloat16 table as NumPy stores it: float32 holding bfloat16 values.
Table bfloat16_in_float32(const Convention& convention, const TableRequest& request) {
  return convert_table(fast_table(convention, request, FormatId::bfloat16), FormatId::float32);
}

TEST(DtypeOption, aWiderDtypeThanTheValuesStillFindsTheConvention) {
  const Convention t2t = *find_preset("tensor2tensor");
  const Table bf16 = bfloat16_in_float32(t2t, TableRequest{512, 64, 0});
  EXPECT_EQ(validate_table(bf16).verdict, ValidationVerdict::conforms);  // compared as bfloat16
  ValidationOptions as_stored;
  as_stored.compare_as = FormatId::float32;  // the advice of the format note
  const Validation result = validate_table(bf16, as_stored);
  EXPECT_EQ(result.table().detection.preset, "tensor2tensor");
  EXPECT_EQ(result.table().compared_format, FormatId::float32);
  // bfloat16's rounding, about 2^-9, is tens of thousands of float32 ULP.
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  EXPECT_EQ(result.hazard(HazardKind::not_sinusoidal), nullptr) << hazard_list(result);
  EXPECT_EQ(result.hazard(HazardKind::angle_precision), nullptr) << hazard_list(result);
  EXPECT_EQ(result.hazard(HazardKind::position_precision), nullptr) << hazard_list(result);
  EXPECT_TRUE(contains(result.table().format_note, "bfloat16")) << result.table().format_note;

  const Table f32 = fast_table(t2t, TableRequest{512, 64, 0}, FormatId::float32);
  ValidationOptions as_float64;
  as_float64.compare_as = FormatId::float64;
  const Validation wide = validate_table(f32, as_float64);
  EXPECT_EQ(wide.table().detection.preset, "tensor2tensor");
  EXPECT_EQ(wide.verdict, ValidationVerdict::deviates);  // float32 values are not float64 values within 2 ULP
  EXPECT_EQ(wide.hazard(HazardKind::not_sinusoidal), nullptr) << hazard_list(wide);
}

TEST(Drift, aTableWithSmallNoiseNamesTheConventionItDriftedFromAndHowFar) {
  constexpr std::uint64_t seed = 6;  // any seed: the RMS of 16384 draws is within 2% of sigma
  std::printf("drift noise: seed %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 random(seed);
  const double sigma = 1e-3;
  std::normal_distribution<double> noise(0.0, sigma);
  Table table = fast_table(*find_preset("tensor2tensor"), TableRequest{256, 64, 0}, FormatId::float32);
  for (std::int64_t k = 0; k < table.size(); ++k)
    table.set_flat(k, table.flat(k) + noise(random));  // set rounds to float32
  const Validation result = validate_table(table);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  const Hazard* drift = result.hazard(HazardKind::drifted);
  ASSERT_NE(drift, nullptr) << hazard_list(result);
  EXPECT_TRUE(contains(drift->evidence, "tensor2tensor")) << drift->evidence;
  // The RMS deviation estimates sigma: 16384 draws give it within 1/sqrt(2 *
  // 16384) ~ 0.6% (one standard error); 10% is many standard errors.
  const std::size_t at = drift->evidence.find("RMS ");
  ASSERT_NE(at, std::string::npos) << drift->evidence;
  const double rms = std::stod(drift->evidence.substr(at + 4));
  EXPECT_NEAR(rms, sigma, 0.1 * sigma) << drift->evidence;
  EXPECT_EQ(result.hazard(HazardKind::not_sinusoidal), nullptr) << hazard_list(result);
}

}  // namespace
}  // namespace pecheck::validate
