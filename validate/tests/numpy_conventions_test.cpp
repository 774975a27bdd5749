// Tables written by NumPy in the presets' conventions, at offsets, with odd
// widths and in every storage format: detection names the preset and the
// offset, and each conforms to the third-party budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "numpy_tables.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {
namespace {

struct ConventionCase {
  std::string arguments;   // numpy_tables.py: CONVENTION ROWS DIM OFFSET DTYPE
  std::string preset;      // what detection must name
  std::int64_t offset;
  FormatId compared;       // the format the values have
};

const std::vector<ConventionCase>& cases() {
  static const std::vector<ConventionCase> all = {
      {"vaswani 300 64 0 float32", "vaswani", 0, FormatId::float32},
      {"vaswani 200 33 1000 float32", "vaswani", 1000, FormatId::float32},
      {"tf-tutorial 256 128 4096 float32", "tf-tutorial", 4096, FormatId::float32},
      {"tensor2tensor 100 63 70000 float16", "tensor2tensor", 70000, FormatId::float16},
      {"tensor2tensor 40 17 9000000 float32", "tensor2tensor", 9000000, FormatId::float32},
      {"fairseq 300 64 0 float32", "fairseq", 0, FormatId::float32},
      {"fairseq 120 65 0 bfloat16", "fairseq", 0, FormatId::bfloat16},
      {"musicgen 80 31 123456 float32", "musicgen", 123456, FormatId::float32},
      {"marian-hf 200 33 5 bfloat16", "marian-hf", 5, FormatId::bfloat16},
      {"marian-hf 64 7 0 float16", "marian-hf", 0, FormatId::float16},
  };
  return all;
}

// numpy_tables.py's line for case k writes t<k>.npy.
std::string table_name(std::size_t k) {
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict, its bug
  // 105651) on "t" + std::to_string(k).
  std::string name = "t";
  name.append(std::to_string(k)).append(".npy");
  return name;
}

const std::vector<std::string>& case_lines() {
  static const std::vector<std::string> lines = [] {
    std::vector<std::string> all;
    for (std::size_t k = 0; k < cases().size(); ++k) all.push_back(cases()[k].arguments + " " + table_name(k));
    return all;
  }();
  return lines;
}

class NumpyConventions : public testing::NumpyTablesTest<case_lines> {
 protected:
  static Table table(std::size_t k) { return NumpyTablesTest::table(table_name(k)); }
};

TEST_F(NumpyConventions, everyPresetIsDetectedWithItsOffsetAndConforms) {
  for (std::size_t k = 0; k < cases().size(); ++k) {
    const ConventionCase& c = cases()[k];
    SCOPED_TRACE(c.arguments);
    const ValidationResult result = validate_table(table(k));
    ASSERT_TRUE(result.detection.preset.has_value());
    const auto& also = result.detection.also_matches;
    // tf-tutorial and marian-hf are the same table at even d: either name is right.
    EXPECT_TRUE(*result.detection.preset == c.preset || std::find(also.begin(), also.end(), c.preset) != also.end())
        << "detected " << *result.detection.preset;
    EXPECT_EQ(result.detection.row_offset, c.offset);
    EXPECT_FALSE(result.detection.offset_ambiguous);
    EXPECT_EQ(result.compared_format, c.compared);
    EXPECT_EQ(result.verdict, ValidationVerdict::conforms)
        << "max " << result.measurement.max_ulp << " ULP at row " << result.measurement.worst.row << " column "
        << result.measurement.worst.column;
    EXPECT_TRUE(result.hazards.empty());
    EXPECT_EQ(result.rows_compared, result.rows);
  }
}

TEST_F(NumpyConventions, fairseqsPaddingRowIsFoundAsAZeroRow) {
  const ValidationResult result = validate_table(table(5));
  EXPECT_EQ(result.detection.zero_rows, std::vector<std::int64_t>{1});
  ASSERT_TRUE(result.detection.convention.has_value());
  EXPECT_EQ(result.detection.convention->zero_rows, std::vector<std::int64_t>{1});
}

TEST_F(NumpyConventions, bfloat16ValuesStoredAsFloat32AreSaidToBeBfloat16) {
  const ValidationResult result = validate_table(table(8));
  EXPECT_EQ(result.stored_format, FormatId::float32);
  EXPECT_EQ(result.compared_format, FormatId::bfloat16);
  EXPECT_NE(result.format_note.find("bfloat16"), std::string::npos) << result.format_note;
}

TEST_F(NumpyConventions, anotherConventionGivenExplicitlyDeviates) {
  ValidationOptions options;
  options.convention = *find_preset("tensor2tensor");  // the table is vaswani's
  const ValidationResult result = validate_table(table(0), options);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  EXPECT_GT(result.measurement.max_abs_error, 0.5);
}

TEST_F(NumpyConventions, aWrongOffsetGivenExplicitlyDeviates) {
  ValidationOptions options;
  options.row_offset = 1001;  // the table starts at 1000
  const ValidationResult result = validate_table(table(1), options);
  EXPECT_EQ(result.detection.preset, "vaswani");
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
}

TEST_F(NumpyConventions, theRightConventionAndOffsetGivenExplicitlyConform) {
  ValidationOptions options;
  options.convention = *find_preset("musicgen");
  options.row_offset = 123456;
  EXPECT_EQ(validate_table(table(7), options).verdict, ValidationVerdict::conforms);
}

TEST_F(NumpyConventions, everyRowIsComparedUnlessSamplingIsAskedForAndThenItSaysSo) {
  ValidationOptions options;
  const ValidationResult every = validate_table(table(0), options);
  EXPECT_FALSE(every.sampled);
  EXPECT_EQ(every.rows_compared, 300);
  EXPECT_EQ(every.reference_escalations, 0);
  options.sample_rows = 64;  // the table has 300
  const ValidationResult sampled = validate_table(table(0), options);
  EXPECT_TRUE(sampled.sampled);
  EXPECT_LT(sampled.rows_compared, 300);
  EXPECT_GE(sampled.rows_compared, 64);
  EXPECT_EQ(sampled.verdict, ValidationVerdict::conforms);
  options.sample_rows = 300;
  EXPECT_FALSE(validate_table(table(0), options).sampled);
}

}  // namespace
}  // namespace pecheck::validate
