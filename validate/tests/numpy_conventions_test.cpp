// Tables written by NumPy in the presets' conventions, at offsets, with odd
// widths and in every storage format: detection names the preset and the
// offset, and each conforms to the third-party budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "numpy_tables.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/validate/table_validation.hpp"

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
    const Validation result = validate_table(table(k));
    ASSERT_TRUE(result.table().detection.preset.has_value());
    const auto& also = result.table().detection.also_matches;
    // tf-tutorial and marian-hf are the same table at even d: either name is right.
    EXPECT_TRUE(*result.table().detection.preset == c.preset || std::find(also.begin(), also.end(), c.preset) != also.end())
        << "detected " << *result.table().detection.preset;
    EXPECT_EQ(result.table().detection.row_offset, c.offset);
    EXPECT_FALSE(result.table().detection.offset_ambiguous);
    EXPECT_EQ(result.table().compared_format, c.compared);
    EXPECT_EQ(result.verdict, ValidationVerdict::conforms)
        << "max " << result.comparisons.front().measurement.max_ulp << " ULP at row " << result.comparisons.front().measurement.worst.row << " column "
        << result.comparisons.front().measurement.worst.column;
    EXPECT_TRUE(result.hazards.empty());
    EXPECT_EQ(result.table().rows_compared, result.table().rows);
  }
}

TEST_F(NumpyConventions, fairseqsPaddingRowIsFoundAsAZeroRow) {
  const Validation result = validate_table(table(5));
  EXPECT_EQ(result.table().detection.zero_rows, std::vector<std::int64_t>{1});
  ASSERT_TRUE(result.table().detection.convention.has_value());
  EXPECT_EQ(result.table().detection.convention->zero_rows, std::vector<std::int64_t>{1});
}

TEST_F(NumpyConventions, bfloat16ValuesStoredAsFloat32AreSaidToBeBfloat16) {
  const Validation result = validate_table(table(8));
  EXPECT_EQ(result.table().stored_format, FormatId::float32);
  EXPECT_EQ(result.table().compared_format, FormatId::bfloat16);
  EXPECT_NE(result.table().format_note.find("bfloat16"), std::string::npos) << result.table().format_note;
}

TEST_F(NumpyConventions, anotherConventionGivenExplicitlyDeviates) {
  ValidationOptions options;
  options.convention = *find_preset("tensor2tensor");  // the table is vaswani's
  const Validation result = validate_table(table(0), options);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  EXPECT_GT(result.comparisons.front().measurement.max_abs_error, 0.5);
}

TEST_F(NumpyConventions, aWrongOffsetGivenExplicitlyDeviates) {
  ValidationOptions options;
  options.row_offset = 1001;  // the table starts at 1000
  const Validation result = validate_table(table(1), options);
  EXPECT_EQ(result.table().detection.preset, "vaswani");
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
  const Validation every = validate_table(table(0), options);
  EXPECT_FALSE(every.table().sampled);
  EXPECT_EQ(every.table().rows_compared, 300);
  EXPECT_EQ(every.table().reference_escalations, 0);
  options.sample_rows = 64;  // the table has 300
  const Validation sampled = validate_table(table(0), options);
  EXPECT_TRUE(sampled.table().sampled);
  EXPECT_LT(sampled.table().rows_compared, 300);
  EXPECT_GE(sampled.table().rows_compared, 64);
  EXPECT_EQ(sampled.verdict, ValidationVerdict::conforms);
  options.sample_rows = 300;
  EXPECT_FALSE(validate_table(table(0), options).table().sampled);
}

}  // namespace
}  // namespace pecheck::validate
