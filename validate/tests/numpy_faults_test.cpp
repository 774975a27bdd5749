// Tables with the faults of CONVENTIONS.md ("Numeric faults seen in real
// code"), written by NumPy the way the faulty code computes them: each
// deviates, and the hazard that explains it is reported with its evidence.
#include <gtest/gtest.h>

#include <algorithm>

#include "numpy_tables.hpp"
#include "pecheck/format.hpp"
#include "pecheck/table_file.hpp"
#include "hazard_lookup.hpp"
#include "pecheck/validate/table_validation.hpp"

namespace pecheck::validate {
namespace {

const std::vector<std::string>& tables() {
  static const std::vector<std::string> all = {
      "pytorch-tutorial 2000 128 0 float32 tutorial.npy",
      "vaswani 1024 64 0 float32 bf16_positions.npy --positions bfloat16",
      "tensor2tensor 1000 64 2000 float32 fp16_positions.npy --positions float16",
      "vaswani 100 64 0 float32 noise.npy --noise",
      "vaswani 400 96 0 float16 fp16_angles.npy --angles float16",
      "fairseq 3000 32 0 float32 fairseq_float32_angles.npy --angles float32",
  };
  return all;
}

class NumpyFaults : public testing::NumpyTablesTest<tables> {
 protected:
  static Validation validate(const std::string& name, const ValidationOptions& options = {}) {
    return validate_table(table(name), options);
  }
};

TEST_F(NumpyFaults, thePyTorchTutorialsFloat32AnglesDeviateWithAnglePrecision) {
  const Validation result = validate("tutorial.npy");
  EXPECT_EQ(result.table().detection.preset, "vaswani");
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  const Hazard* hazard = result.hazard(HazardKind::angle_precision);
  ASSERT_NE(hazard, nullptr) << hazard_list(result);
  // The fitted precision names the format the angles were computed in.
  EXPECT_NE(hazard->evidence.find("float32 angles"), std::string::npos) << hazard->evidence;
  EXPECT_EQ(result.hazard(HazardKind::position_precision), nullptr) << hazard_list(result);
}

TEST_F(NumpyFaults, float32AnglesInAnotherConventionAreFoundToo) {
  const Validation result = validate("fairseq_float32_angles.npy");
  EXPECT_EQ(result.table().detection.preset, "fairseq");
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  const Hazard* hazard = result.hazard(HazardKind::angle_precision);
  ASSERT_NE(hazard, nullptr) << hazard_list(result);
  EXPECT_NE(hazard->evidence.find("float32"), std::string::npos) << hazard->evidence;
}

TEST_F(NumpyFaults, float16AnglesDeviateWithAnglePrecisionOfAboutElevenBits) {
  const Validation result = validate("fp16_angles.npy");
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  const Hazard* hazard = result.hazard(HazardKind::angle_precision);
  ASSERT_NE(hazard, nullptr) << hazard_list(result);
  EXPECT_NE(hazard->evidence.find("float16 angles"), std::string::npos) << hazard->evidence;
}

TEST_F(NumpyFaults, positionsHeldInBfloat16DeviateWithPositionPrecision) {
  const Validation result = validate("bf16_positions.npy");
  EXPECT_EQ(result.table().detection.preset, "vaswani");
  EXPECT_EQ(result.table().detection.row_offset, 0);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  const Hazard* hazard = result.hazard(HazardKind::position_precision);
  ASSERT_NE(hazard, nullptr) << hazard_list(result);
  EXPECT_NE(hazard->evidence.find("bfloat16"), std::string::npos) << hazard->evidence;
  EXPECT_NE(hazard->evidence.find("identical"), std::string::npos) << hazard->evidence;  // collisions
  // The angles themselves were exact: the steps explain all of the error.
  EXPECT_EQ(result.hazard(HazardKind::angle_precision), nullptr) << hazard_list(result);
}

// Positions held in bfloat16 and, besides, an unrelated error in about a
// tenth of the rows bfloat16 rounds (every row of those positions alike, so
// the rows that share a held position stay identical): the rounded positions
// still explain most of the affected rows, and the evidence says so with the
// count. Asking for every affected row to be explained instead of most would
// lose that.
TEST_F(NumpyFaults, positionsHeldInBfloat16WithUnrelatedNoiseAreExplainedByMostRows) {
  Table noisy = table("bf16_positions.npy");
  const Format& bf16 = format_of(FormatId::bfloat16);
  for (std::int64_t r = 300; r < noisy.rows; ++r) {
    const auto held = static_cast<std::int64_t>(round_to_format(static_cast<double>(r), bf16));
    if (held / 16 % 10 == 3) noisy.set(r, 0, noisy.at(r, 0) * 0.5);
  }
  const Validation result = validate_table(noisy, {});
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  const Hazard* hazard = result.hazard(HazardKind::position_precision);
  ASSERT_NE(hazard, nullptr) << hazard_list(result);
  EXPECT_NE(hazard->evidence.find("rows with a rounded position match the encoding there"), std::string::npos)
      << hazard->evidence;
}

TEST_F(NumpyFaults, positionsHeldInFloat16DeviateWithPositionPrecision) {
  const Validation result = validate("fp16_positions.npy");
  EXPECT_EQ(result.table().detection.preset, "tensor2tensor");
  EXPECT_EQ(result.table().detection.row_offset, 2000);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  const Hazard* hazard = result.hazard(HazardKind::position_precision);
  ASSERT_NE(hazard, nullptr) << hazard_list(result);
  EXPECT_NE(hazard->evidence.find("float16"), std::string::npos) << hazard->evidence;
}

TEST_F(NumpyFaults, randomNoiseIsNotSinusoidal) {
  const Validation result = validate("noise.npy");
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  EXPECT_FALSE(result.table().detection.convention.has_value());
  EXPECT_NE(result.hazard(HazardKind::not_sinusoidal), nullptr) << hazard_list(result);
  // Standard normal values: about 32% lie outside [-1, 1].
  EXPECT_NE(result.hazard(HazardKind::out_of_range), nullptr) << hazard_list(result);
}

TEST_F(NumpyFaults, noiseCheckedAgainstAGivenConventionStillDeviatesAsNotSinusoidal) {
  ValidationOptions options;
  options.convention = *find_preset("vaswani");
  const Validation result = validate("noise.npy", options);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  EXPECT_NE(result.hazard(HazardKind::not_sinusoidal), nullptr) << hazard_list(result);
}

}  // namespace
}  // namespace pecheck::validate
