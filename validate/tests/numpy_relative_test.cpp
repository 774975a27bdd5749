// Relative encodings (CONVENTIONS.md, "Relative sinusoidal encodings"),
// written by NumPy at test time the way Transformer-XL, ESPnet, NeMo and
// SpeechBrain build them (examples/relative_tables.py): rows from position
// L-1 down to 0 or to -(L-1). Detection names the convention, its first
// position and its direction; correct tables conform; the faults of real
// code (float32 angles at long lengths, bfloat16 positions, a float32 table
// cast to float16) deviate with the hazard that explains them. A table in a
// mirrored layout (cos before sin) whose positions run up is still read as
// that layout, not as a relative table, and a relative table not as a mirror.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>

#include "hazard_lookup.hpp"
#include "numpy_tables.hpp"
#include "pecheck/validate/table_validation.hpp"

namespace pecheck::validate {
namespace {

const std::vector<std::string>& tables() {
  static const std::vector<std::string> all = {
      // Correct: exact angles rounded once, L = 300 (2L-1 = 599 rows).
      "transformer-xl 300 64 0 float32 xl.npy",
      "espnet-rel 599 64 0 float32 espnet.npy",
      "nemo-rel 599 96 0 float16 nemo.npy",
      "speechbrain-rel 599 64 0 bfloat16 speechbrain.npy",
      // As the originals compute them, in float32, at long lengths.
      "transformer-xl 20000 64 0 float32 xl_float32_angles.npy --angles float32",
      "espnet-rel 19999 64 0 float32 espnet_float32_angles.npy --angles float32",
      // Integer positions held in bfloat16 first (exact to 256 only).
      "transformer-xl 2048 128 0 float32 xl_bf16_positions.npy --positions bfloat16",
      "nemo-rel 4095 128 0 float32 nemo_bf16_positions.npy --positions bfloat16",
      // The float32 table cast with .half(): angles off below float16's ULP.
      "speechbrain-rel 16383 128 0 float16 speechbrain_fp16_cast.npy --angles float32",
      // Mirrored layouts whose positions run up: not relative tables.
      "musicgen 400 64 0 float32 musicgen.npy",
      "vaswani 500 64 0 float32 vaswani.npy",
  };
  return all;
}

class NumpyRelative : public testing::NumpyTablesTest<tables> {
 protected:
  static Validation validate(const std::string& name, const ValidationOptions& options = {}) {
    return validate_table(table(name), options);
  }

  // The convention found, the position file row 0 holds and the direction.
  static void expect_relative(const Validation& result, const std::string& preset, std::int64_t first) {
    ASSERT_TRUE(result.table().detection.convention.has_value()) << hazard_list(result);
    const Convention& convention = *result.table().detection.convention;
    EXPECT_EQ(result.table().detection.preset.value_or("none"), preset);
    EXPECT_EQ(position_of_row(convention, result.table().detection.row_offset), first);
    EXPECT_EQ(convention.position_step, -1);
  }

  // A faulty table, named and placed all the same: it deviates with the
  // hazard `kind`, whose evidence says `says`, and without `absent`.
  static void expect_fault(const char* file, const char* preset, std::int64_t first, HazardKind kind, const char* says,
                           std::optional<HazardKind> absent) {
    SCOPED_TRACE(file);
    const Validation result = validate(file);
    expect_relative(result, preset, first);
    EXPECT_EQ(result.verdict, ValidationVerdict::deviates);
    const Hazard* hazard = result.hazard(kind);
    ASSERT_NE(hazard, nullptr) << hazard_list(result);
    EXPECT_NE(hazard->evidence.find(says), std::string::npos) << hazard->evidence;
    if (absent) {
      EXPECT_EQ(result.hazard(*absent), nullptr) << hazard_list(result);
    }
  }
};

TEST_F(NumpyRelative, correctTablesAreNamedWithTheirFirstPositionAndConform) {
  struct Case {
    const char* file;
    const char* preset;
    std::int64_t first;
  };
  // ESPnet, NeMo and SpeechBrain build the same table: detection names the
  // first of them and lists the others as matching too.
  for (const Case& c : {Case{"xl.npy", "transformer-xl", 299}, Case{"espnet.npy", "espnet-rel", 299},
                        Case{"nemo.npy", "espnet-rel", 299}, Case{"speechbrain.npy", "espnet-rel", 299}}) {
    SCOPED_TRACE(c.file);
    const Validation result = validate(c.file);
    expect_relative(result, c.preset, c.first);
    EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << hazard_list(result);
    EXPECT_TRUE(result.hazards.empty()) << hazard_list(result);
    if (std::string(c.preset) == "espnet-rel") {
      EXPECT_NE(std::find(result.table().detection.also_matches.begin(), result.table().detection.also_matches.end(), "nemo-rel"),
                result.table().detection.also_matches.end());
    }
  }
}

TEST_F(NumpyRelative, aGivenRelativeConventionIsPlacedByTheTablesLength) {
  ValidationOptions nemo;
  nemo.convention = *find_preset("nemo-rel");
  const Validation result = validate("nemo.npy", nemo);
  expect_relative(result, "nemo-rel", 299);
  EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << hazard_list(result);
  // The wrong relative convention is a mismatch, not a pass.
  ValidationOptions xl;
  xl.convention = *find_preset("transformer-xl");
  const Validation wrong = validate("espnet.npy", xl);
  EXPECT_EQ(wrong.verdict, ValidationVerdict::deviates);
}

TEST_F(NumpyRelative, float32AnglesAtLongLengthsDeviateWithAnglePrecision) {
  expect_fault("xl_float32_angles.npy", "transformer-xl", 19999, HazardKind::angle_precision, "float32 angles",
               HazardKind::position_precision);
  expect_fault("espnet_float32_angles.npy", "espnet-rel", 9999, HazardKind::angle_precision, "float32 angles",
               HazardKind::position_precision);
}

TEST_F(NumpyRelative, bfloat16PositionsDeviateWithPositionPrecision) {
  expect_fault("xl_bf16_positions.npy", "transformer-xl", 2047, HazardKind::position_precision, "bfloat16",
               HazardKind::angle_precision);
  expect_fault("nemo_bf16_positions.npy", "espnet-rel", 2047, HazardKind::position_precision, "bfloat16",
               HazardKind::angle_precision);
}

TEST_F(NumpyRelative, aFloat32TableCastToFloat16ShowsItsAnglesThroughTheRounding) {
  expect_fault("speechbrain_fp16_cast.npy", "espnet-rel", 8191, HazardKind::angle_precision, "float32 angles",
               std::nullopt);
}

TEST_F(NumpyRelative, aMirroredLayoutIsNotARelativeTableNorTheOtherWayRound) {
  const Validation musicgen = validate("musicgen.npy");
  EXPECT_EQ(musicgen.table().detection.preset.value_or("none"), "musicgen");
  ASSERT_TRUE(musicgen.table().detection.convention.has_value());
  EXPECT_EQ(musicgen.table().detection.convention->position_step, 1);
  EXPECT_EQ(musicgen.table().detection.convention->layout, Layout::cos_sin_halves);
  EXPECT_EQ(musicgen.verdict, ValidationVerdict::conforms);
  // Transformer-XL's sin-cos halves whose rows run down are not cos-sin halves running up.
  const Validation xl = validate("xl.npy");
  ASSERT_TRUE(xl.table().detection.convention.has_value());
  EXPECT_EQ(xl.table().detection.convention->layout, Layout::sin_cos_halves);
  EXPECT_EQ(xl.table().detection.convention->position_step, -1);
  // sin and cos swapped in every pair of an interleaved table (a fault, no
  // layout): no reading, reversed or not, is named for it.
  Table swapped = table("vaswani.npy");
  for (std::int64_t r = 0; r < swapped.rows; ++r) {
    for (std::int64_t c = 0; c + 1 < swapped.cols; c += 2) {
      const double sin = swapped.at(r, c);
      swapped.set(r, c, swapped.at(r, c + 1));
      swapped.set(r, c + 1, sin);
    }
  }
  const Validation fault = validate_table(swapped);
  EXPECT_FALSE(fault.table().detection.convention.has_value() && fault.table().detection.convention->position_step < 0)
      << describe(*fault.table().detection.convention);
  EXPECT_NE(fault.verdict, ValidationVerdict::conforms);
}

}  // namespace
}  // namespace pecheck::validate
