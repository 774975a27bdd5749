// Tables written by NumPy, validated with the flags users give when the
// checkpoint they must match is another convention (CONVENTIONS.md faults 3,
// 4 and 5), or with --dtype wider than the values: each says what the table
// is and which flag to give.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>

#include "numpy_tables.hpp"
#include "hazard_lookup.hpp"
#include "pecheck/validate/table_validation.hpp"

namespace pecheck::validate {
namespace {

const std::vector<std::string>& tables() {
  static const std::vector<std::string> all = {
      "tensor2tensor 512 64 0 float32 t2t.npy",
      "tf-tutorial 512 64 0 float32 tf.npy",
      "musicgen 512 64 0 float32 musicgen.npy",
      "fairseq 512 64 0 float32 fairseq.npy",
      "tensor2tensor 512 64 0 bfloat16 t2t_bf16.npy",
      "vaswani 100 5 0 float32 vaswani5.npy",
      "vaswani 400 96 0 float16 fp16_angles.npy --angles float16",
  };
  return all;
}

class NumpyMismatch : public testing::NumpyTablesTest<tables> {};

struct MismatchCase {
  std::string file;
  std::string given;
  std::optional<std::int64_t> offset;
  std::string advice;  // what the mismatch's evidence must say
};

TEST_F(NumpyMismatch, aTableValidatedAsAnotherConventionSaysWhatItIs) {
  const std::vector<MismatchCase> cases = {
      {"t2t.npy", "tf-tutorial", std::nullopt, "--convention tensor2tensor"},
      {"t2t.npy", "tf-tutorial", 0, "--convention tensor2tensor"},
      {"tf.npy", "tensor2tensor", std::nullopt, "--convention tf-tutorial"},
      {"musicgen.npy", "tensor2tensor", std::nullopt, "--convention musicgen"},
      {"musicgen.npy", "tensor2tensor", 0, "--convention musicgen"},
      {"t2t.npy", "vaswani", std::nullopt, "--convention tensor2tensor"},
      {"tf.npy", "vaswani", std::nullopt, "--convention tf-tutorial"},
      {"fairseq.npy", "tensor2tensor", std::nullopt, "--convention fairseq"},
      {"vaswani5.npy", "fairseq", std::nullopt, "--convention vaswani"},
      // A table with a fault of its own is still told apart from a wrong flag.
      {"fp16_angles.npy", "tf-tutorial", std::nullopt, "--convention vaswani"},
  };
  for (const MismatchCase& c : cases) {
    SCOPED_TRACE(c.file + " --convention " + c.given + (c.offset ? " --offset " + std::to_string(*c.offset) : ""));
    ValidationOptions options;
    options.convention = *find_preset(c.given);
    options.row_offset = c.offset;
    const Validation result = validate_table(table(c.file), options);
    EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
    const Hazard* mismatch = result.hazard(HazardKind::convention_mismatch);
    ASSERT_NE(mismatch, nullptr) << hazard_list(result);
    EXPECT_NE(mismatch->evidence.find(c.advice), std::string::npos) << mismatch->evidence;
    EXPECT_EQ(result.hazard(HazardKind::angle_precision), nullptr) << hazard_list(result);
    EXPECT_EQ(result.hazard(HazardKind::not_sinusoidal), nullptr) << hazard_list(result);
  }
}

TEST_F(NumpyMismatch, theRightConventionGivenIsNoMismatch) {
  for (const auto& [file, preset] : {std::pair{"t2t.npy", "tensor2tensor"}, std::pair{"fairseq.npy", "fairseq"},
                                     std::pair{"musicgen.npy", "musicgen"}, std::pair{"vaswani5.npy", "vaswani"}}) {
    SCOPED_TRACE(file);
    ValidationOptions options;
    options.convention = *find_preset(preset);
    const Validation result = validate_table(table(file), options);
    EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << hazard_list(result);
  }
}

TEST_F(NumpyMismatch, dtypeFloat32OnBfloat16ValuesComparesAsStoredAndStillFindsTheConvention) {
  const Table bf16 = table("t2t_bf16.npy");
  const Validation narrow = validate_table(bf16);
  ASSERT_FALSE(narrow.table().format_note.empty());  // the note advises --dtype float32
  ValidationOptions options;
  options.compare_as = FormatId::float32;
  const Validation result = validate_table(bf16, options);
  EXPECT_EQ(result.table().detection.preset, "tensor2tensor");
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates);  // bfloat16's rounding is far beyond float32's budget
  EXPECT_EQ(result.hazard(HazardKind::not_sinusoidal), nullptr) << hazard_list(result);
  EXPECT_EQ(result.hazard(HazardKind::angle_precision), nullptr) << hazard_list(result);

  options.compare_as = FormatId::float64;
  const Validation wide = validate_table(table("t2t.npy"), options);
  EXPECT_EQ(wide.table().detection.preset, "tensor2tensor");
  EXPECT_EQ(wide.hazard(HazardKind::not_sinusoidal), nullptr) << hazard_list(wide);
}

TEST_F(NumpyMismatch, anOddWidthTfTutorialRejectsIsAnErrorAboutTheTable) {
  ValidationOptions options;
  options.convention = *find_preset("tf-tutorial");
  options.row_offset = 0;
  try {
    validate_table(table("vaswani5.npy"), options);
    ADD_FAILURE() << "accepted";
  } catch (const ConventionError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("the table has 5 columns"), std::string::npos) << message;
    EXPECT_EQ(message.find("--dim"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace pecheck::validate
