// Faults that come together, as real code makes them: a module cast to
// bfloat16 or float16 computes its positions `t.type_as(inv_freq)` and the
// angles in that format, so the rows step with the rounded positions AND
// every row is far from the encoding. Tables written by NumPy at test time
// (examples/numpy_tables.py), 2048 to 8192 rows: the convention, the row
// offset, the verdict and the hazards must all come out right.
#include <gtest/gtest.h>

#include "hazard_lookup.hpp"
#include "numpy_tables.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/validate/table_validation.hpp"

namespace pecheck::validate {
namespace {

const std::vector<std::string>& tables() {
  static const std::vector<std::string> all = {
      // Exact angles of bfloat16 positions (the largest-difference rule placed it at 1, 5, 7 or 14).
      "vaswani 2048 256 0 float32 bf16_positions.npy --positions bfloat16",
      // A module cast with .to(torch.bfloat16): positions, frequencies and angles in bfloat16.
      "vaswani 4096 256 0 bfloat16 bf16_module.npy --angles bfloat16",
      // The same with .half() at 8192 rows: float16 positions are exact to 2048 only.
      "vaswani 8192 128 0 float16 fp16_module.npy --angles float16",
      // Positions 2048 to 4095 in float16 with float16 angles: every other pair of rows is identical.
      "tf-tutorial 2048 64 2048 float32 fp16_slice.npy --angles float16",
      // bfloat16 positions, float32 angles, in another layout and rule.
      "tensor2tensor 3000 64 0 float32 bf16_positions_f32_angles.npy --positions bfloat16 --angles float32",
      // A slice of a bfloat16-position cache that never holds an exact position past 256.
      "vaswani 2048 128 5000 float32 bf16_positions_slice.npy --positions bfloat16",
      // The PyTorch tutorial's float32 table cast with .half() or .to(torch.bfloat16).
      "pytorch-tutorial 8192 128 0 float16 tutorial_fp16.npy",
      "pytorch-tutorial 8192 128 0 bfloat16 tutorial_bf16.npy",
      // Buffers saved as registered: (N, 1, d), (1, N, d), (1, 1, N, d).
      "fairseq 300 64 0 float32 buffer_n1d.npy --buffer n1d",
      "vaswani 2048 256 0 float32 buffer_1nd.npy --positions bfloat16 --buffer 1nd",
      "tensor2tensor 100 32 7 float16 buffer_11nd.npy --buffer 11nd",
  };
  return all;
}

class NumpyCombinedFaults : public testing::NumpyTablesTest<tables> {
 protected:
  static Validation validate(const std::string& name) { return validate_table(table(name)); }

  // The hazard of positions held in `format`, found from the steps of the rows.
  static void expect_positions_held_in(const Validation& result, const std::string& format) {
    const Hazard* hazard = result.hazard(HazardKind::position_precision);
    ASSERT_NE(hazard, nullptr) << hazard_list(result);
    EXPECT_NE(hazard->evidence.find("held in " + format), std::string::npos) << hazard->evidence;
    EXPECT_NE(hazard->evidence.find("identical"), std::string::npos) << hazard->evidence;
    ASSERT_TRUE(result.table().detection.positions_held_in.has_value());
    EXPECT_EQ(format_of(*result.table().detection.positions_held_in).name, format);
  }
};

TEST_F(NumpyCombinedFaults, bfloat16PositionsGetOffsetZeroAndPositionPrecision) {
  const Validation result = validate("bf16_positions.npy");
  EXPECT_EQ(result.table().detection.preset, "vaswani");
  EXPECT_EQ(result.table().detection.row_offset, 0);
  EXPECT_FALSE(result.table().detection.offset_ambiguous);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  expect_positions_held_in(result, "bfloat16");
  // The angles of the rounded positions are exact: no angle fault is read into the steps.
  EXPECT_EQ(result.hazard(HazardKind::angle_precision), nullptr) << hazard_list(result);
}

TEST_F(NumpyCombinedFaults, aModuleCastToBfloat16GetsPositionPrecision) {
  const Validation result = validate("bf16_module.npy");
  EXPECT_EQ(result.table().detection.preset, "vaswani");
  EXPECT_EQ(result.table().detection.row_offset, 0);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  expect_positions_held_in(result, "bfloat16");
  // Positions 256 to 4095 take 4 * 128 = 512 bfloat16 values for 3840 rows.
  EXPECT_GT(result.table().detection.identical_pairs, 3000);
  // Compared at the rounded positions, what is left grows with the position: the angles' 8 bits.
  const Hazard* angles = result.hazard(HazardKind::angle_precision);
  ASSERT_NE(angles, nullptr) << hazard_list(result);
  EXPECT_NE(angles->evidence.find("bfloat16 angles"), std::string::npos) << angles->evidence;
}

TEST_F(NumpyCombinedFaults, aModuleCastToFloat16At8192RowsGetsPositionPrecision) {
  const Validation result = validate("fp16_module.npy");
  EXPECT_EQ(result.table().detection.preset, "vaswani");
  EXPECT_EQ(result.table().detection.row_offset, 0);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  expect_positions_held_in(result, "float16");
  const Hazard* angles = result.hazard(HazardKind::angle_precision);
  ASSERT_NE(angles, nullptr) << hazard_list(result);
  EXPECT_NE(angles->evidence.find("float16 angles"), std::string::npos) << angles->evidence;
}

TEST_F(NumpyCombinedFaults, aThousandIdenticalPairsInASliceGivePositionPrecisionAndTheOffset) {
  const Validation result = validate("fp16_slice.npy");
  EXPECT_TRUE(result.table().detection.preset == "tf-tutorial" || result.table().detection.preset == "marian-hf");
  EXPECT_EQ(result.table().detection.row_offset, 2048);
  EXPECT_GE(result.table().detection.identical_pairs, 1023);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  expect_positions_held_in(result, "float16");
}

TEST_F(NumpyCombinedFaults, bfloat16PositionsWithFloat32AnglesInTensor2tensor) {
  const Validation result = validate("bf16_positions_f32_angles.npy");
  EXPECT_EQ(result.table().detection.preset, "tensor2tensor");
  EXPECT_EQ(result.table().detection.row_offset, 0);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  expect_positions_held_in(result, "bfloat16");
}

TEST_F(NumpyCombinedFaults, aSliceOfBfloat16PositionsIsPlacedByItsSteps) {
  const Validation result = validate("bf16_positions_slice.npy");
  EXPECT_EQ(result.table().detection.preset, "vaswani");
  EXPECT_EQ(result.table().detection.row_offset, 5000);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
  expect_positions_held_in(result, "bfloat16");
}

// Float32 angle errors (about 5e-4 at position 8192) lie below float16's
// and bfloat16's ULP near 1: every row's largest error is the cast's own
// rounding, and only the entries that crossed a rounding boundary show them.
TEST_F(NumpyCombinedFaults, float32AnglesCastToANarrowFormatGetTheirCause) {
  for (const std::string name : {"tutorial_fp16.npy", "tutorial_bf16.npy"}) {
    SCOPED_TRACE(name);
    const Validation result = validate(name);
    EXPECT_EQ(result.table().detection.preset, "vaswani");
    EXPECT_EQ(result.table().detection.row_offset, 0);
    EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
    const Hazard* angles = result.hazard(HazardKind::angle_precision);
    ASSERT_NE(angles, nullptr) << hazard_list(result);
    EXPECT_NE(angles->evidence.find("own rounding"), std::string::npos) << angles->evidence;
    EXPECT_NE(angles->evidence.find("float32 angles"), std::string::npos) << angles->evidence;
    EXPECT_EQ(result.hazard(HazardKind::position_precision), nullptr) << hazard_list(result);
  }
}

TEST_F(NumpyCombinedFaults, buffersWithExtentsOfOneAreValidatedAsTheirTable) {
  struct Case {
    const char* name;
    const char* preset;
    std::int64_t offset;
    ValidationVerdict verdict;
  };
  for (const Case& c : {Case{"buffer_n1d.npy", "fairseq", 0, ValidationVerdict::conforms},
                        Case{"buffer_1nd.npy", "vaswani", 0, ValidationVerdict::deviates},
                        Case{"buffer_11nd.npy", "tensor2tensor", 7, ValidationVerdict::conforms}}) {
    SCOPED_TRACE(c.name);
    const TableFile file = read_table_file(NumpyTablesTest::file(c.name));
    EXPECT_NE(file.info.shape_note.find("extents of 1 dropped"), std::string::npos) << file.info.shape_note;
    const Validation result = validate_table(file.table);
    EXPECT_EQ(result.table().detection.preset, c.preset);
    EXPECT_EQ(result.table().detection.row_offset, c.offset);
    EXPECT_EQ(result.verdict, c.verdict) << hazard_list(result);
  }
}

}  // namespace
}  // namespace pecheck::validate
