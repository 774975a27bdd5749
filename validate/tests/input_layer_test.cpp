// An input layer's output x = s E[id] + PE[pos], written by NumPy as
// frameworks compute it (examples/numpy_input_layer.py): the scale is
// measured and named against sqrt(d) for each form of fault 7 of
// CONVENTIONS.md, the encoding recovered from x is validated, and malformed
// inputs are refused with the file, the shape or the id that is wrong.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "hazard_lookup.hpp"
#include "numpy_tables.hpp"
#include "pecheck/npy_array.hpp"
#include "pecheck/validate/input_layer.hpp"
#include "pecheck/validate/validation_writers.hpp"

namespace pecheck::validate {
namespace {

// d = 64 unless the case needs Gemma's width; 4 sequences of 32 tokens, so
// every position holds 4 tokens (with 97 ids, almost always different).
const std::vector<std::string>& layers() {
  static const std::vector<std::string> all = {
      "input-layer vaswani 4 32 64 float32 sqrt correct",
      "input-layer vaswani 4 32 64 float32 one missing",
      "input-layer vaswani 4 32 64 float32 twice twice",
      "input-layer vaswani 4 32 64 float32 divided divided",
      "input-layer vaswani 4 32 64 float32 7.5 other",
      "input-layer vaswani 4 32 64 float64 sqrt correct64",
      "input-layer vaswani 4 16 3072 bfloat16 sqrt-bfloat16 gemma",
      "input-layer vaswani 4 16 3072 bfloat16 sqrt gemma_correct",
      "input-layer fairseq 4 32 64 float32 sqrt fairseq --first-position 2",
      "input-layer vaswani 1 32 64 float32 sqrt single",
      "input-layer vaswani 4 16 3072 float16 sqrt-float16 half",
      "input-layer vaswani 2 64 96 bfloat16 sqrt undecided",
      "input-layer vaswani 1 32 64 float32 twice single_twice",
      "input-layer vaswani 1 32 3072 bfloat16 sqrt-bfloat16 single_gemma",
      // Correct narrow layers whose recovered PE is noisy enough to have read as float16 angles.
      "input-layer vaswani 4 16 4096 bfloat16 sqrt noisy_bfloat16",
      "input-layer vaswani 2 16 512 float16 sqrt noisy_float16",
      // Faults of the encoding itself inside a bfloat16 layer whose scale is right.
      "input-layer vaswani 2 600 64 bfloat16 sqrt bfloat16_positions --positions bfloat16",
      "input-layer vaswani 2 600 64 bfloat16 sqrt float16_angles --angles float16",
  };
  return all;
}

class InputLayer : public testing::NumpyTablesTest<layers> {
 protected:
  static InputLayerFiles files(const std::string& prefix, bool positions = false) {
    InputLayerFiles files = read_input_layer_files(file(prefix + ".output.npy"), file(prefix + ".vocab.npy"),
                                                   file(prefix + ".ids.npy"),
                                                   positions ? file(prefix + ".positions.npy") : std::filesystem::path());
    files.output_name = prefix + ".output.npy";
    files.vocabulary_name = prefix + ".vocab.npy";
    files.ids_name = prefix + ".ids.npy";
    return files;
  }
  static Validation check(const std::string& prefix) { return validate_input_layer(files(prefix)); }
  static std::string text(const Validation& result) { return validation_text(result, "x.npy"); }
};

TEST_F(InputLayer, aCorrectFloat32LayerConformsAndItsEncodingIsTheConventions) {
  const Validation result = check("correct");
  EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << text(result);
  ASSERT_TRUE(result.input_layer().scale.match.has_value()) << text(result);
  EXPECT_TRUE(result.input_layer().scale.match->conforms);
  // float32 opmath multiplies by float32(sqrt(64)) = 8 exactly.
  EXPECT_EQ(result.input_layer().scale_used, 8.0);
  EXPECT_EQ(result.parts.front().table().detection.preset, "vaswani") << text(result);
  EXPECT_EQ(result.input_layer().scale.estimate.activation_format, FormatId::float32);
}

TEST_F(InputLayer, aFloat64LayerConformsWithAMuchNarrowerTolerance) {
  const Validation f64 = check("correct64");
  const Validation f32 = check("correct");
  EXPECT_EQ(f64.verdict, ValidationVerdict::conforms) << text(f64);
  EXPECT_EQ(f64.input_layer().scale.estimate.activation_format, FormatId::float64);
  // The tolerance scales with the activation format's ULP: 2^29 times smaller, give or take the data.
  EXPECT_LT(f64.input_layer().scale.estimate.tolerance, f32.input_layer().scale.estimate.tolerance * 1e-6) << text(f64) << text(f32);
}

struct Fault {
  const char* prefix;
  const char* name;
  double value;
};

TEST_F(InputLayer, eachScaleFaultIsNamedWithItsValue) {
  const Fault faults[] = {{"missing", "sqrt(d) missing", 1.0},
                          {"twice", "sqrt(d) applied twice", 64.0},
                          {"divided", "divided by sqrt(d) instead of multiplied", 0.125}};
  for (const Fault& fault : faults) {
    const Validation result = check(fault.prefix);
    EXPECT_EQ(result.verdict, ValidationVerdict::deviates) << text(result);
    ASSERT_TRUE(result.input_layer().scale.match.has_value()) << text(result);
    EXPECT_EQ(result.input_layer().scale.match->name, fault.name) << text(result);
    EXPECT_EQ(result.input_layer().scale.match->value, fault.value);
    EXPECT_FALSE(result.input_layer().scale.conforms);
    // The scale alone deviates: the encoding recovered with the measured scale is still the convention's.
    EXPECT_EQ(result.parts.front().verdict, ValidationVerdict::conforms) << text(result);
    EXPECT_NE(text(result).find(std::string(fault.name) + ": "), std::string::npos) << text(result);
  }
}

TEST_F(InputLayer, anOtherScaleIsReportedWithItsMeasuredValue) {
  const Validation result = check("other");
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates) << text(result);
  EXPECT_FALSE(result.input_layer().scale.match.has_value()) << text(result);
  EXPECT_NEAR(result.input_layer().scale.estimate.value, 7.5, result.input_layer().scale.estimate.tolerance);
  EXPECT_NE(result.input_layer().scale.sentence.find("7.5 instead of 8"), std::string::npos) << result.input_layer().scale.sentence;
}

TEST_F(InputLayer, gemmasBfloat16ScaleIsToldFromSqrtDInBfloat16Activations) {
  const Validation result = check("gemma");
  EXPECT_EQ(result.input_layer().scale.estimate.activation_format, FormatId::bfloat16);
  ASSERT_TRUE(result.input_layer().scale.match.has_value()) << text(result);
  EXPECT_EQ(result.input_layer().scale.match->name, "sqrt(d) rounded to bfloat16");
  EXPECT_EQ(result.input_layer().scale.match->value, 55.5);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates) << text(result);
  EXPECT_NE(result.input_layer().scale.sentence.find("55.5 instead of 55.4256"), std::string::npos) << result.input_layer().scale.sentence;
  // The gap between 55.5 and sqrt(3072) (0.074) is many tolerances wide.
  EXPECT_LT(result.input_layer().scale.estimate.tolerance, 0.074 / 4) << text(result);
}

TEST_F(InputLayer, bfloat16ActivationsAloneAreNoFault) {
  const Validation result = check("gemma_correct");
  ASSERT_TRUE(result.input_layer().scale.match.has_value()) << text(result);
  EXPECT_TRUE(result.input_layer().scale.conforms) << text(result);
  EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << text(result);
}

// The recovered PE errs by up to pe_error_bound with no fault anywhere: in
// bfloat16 and float16 layers that is past the ULP tolerance the fault
// diagnoses use for a table, and 16 positions of such noise once read as
// "float16 angles" (one octave, the growth not fitted).
TEST_F(InputLayer, theRecoveredEncodingsOwnErrorIsNoEvidenceOfAFault) {
  for (const char* prefix : {"noisy_bfloat16", "noisy_float16", "gemma_correct"}) {
    const Validation result = check(prefix);
    EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << prefix << "\n" << text(result);
    // The premise: the estimate's error is past the ULP tolerance the diagnoses
    // used before (validation.cpp), so they would have read it as a fault.
    EXPECT_GT(result.parts.front().comparisons.front().measurement.max_abs_error,
              std::ldexp(1.0, 1 - format_of(result.input_layer().scale.estimate.activation_format).precision) *
                  std::max(result.parts.front().comparisons.front().measurement.budget_ulp, 1.0))
        << prefix << "\n" << text(result);
    EXPECT_TRUE(result.parts.front().hazards.empty()) << prefix << "\n" << hazard_list(result.parts.front());
  }
}

TEST_F(InputLayer, faultsOfTheEncodingInsideANarrowLayerAreStillNamed) {
  const Validation positions = check("bfloat16_positions");
  EXPECT_EQ(positions.verdict, ValidationVerdict::deviates) << text(positions);
  EXPECT_TRUE(positions.input_layer().scale.conforms) << text(positions);
  EXPECT_NE(positions.parts.front().hazard(HazardKind::position_precision), nullptr)
      << hazard_list(positions.parts.front());
  const Validation angles = check("float16_angles");
  EXPECT_EQ(angles.verdict, ValidationVerdict::deviates) << text(angles);
  const Hazard* angle = angles.parts.front().hazard(HazardKind::angle_precision);
  ASSERT_NE(angle, nullptr) << hazard_list(angles.parts.front());
  EXPECT_NE(angle->evidence.find("float16 angles"), std::string::npos) << angle->evidence;
}

TEST_F(InputLayer, sqrtDRoundedToFloat16IsNamedInFloat16Activations) {
  const Validation result = check("half");
  EXPECT_EQ(result.input_layer().scale.estimate.activation_format, FormatId::float16);
  ASSERT_TRUE(result.input_layer().scale.match.has_value()) << text(result);
  EXPECT_EQ(result.input_layer().scale.match->name, "sqrt(d) rounded to float16");
  EXPECT_EQ(result.input_layer().scale.match->value, 55.4375);
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates) << text(result);
}

// At d = 96, float16's rounding of sqrt(d) is 0.0011 from it, closer than the
// estimate's spread over 128 bfloat16 tokens; reproducing each candidate's
// roundings tells them apart all the same (input_layer_expected.cpp).
TEST_F(InputLayer, valuesCloserThanTheSpreadAreToldApartByTheLayersOwnRoundings) {
  const Validation result = check("undecided");
  const double gap = std::sqrt(96.0) - 9.796875;
  ASSERT_LT(gap, result.input_layer().scale.estimate.tolerance) << text(result);  // the premise
  EXPECT_TRUE(result.input_layer().scale.decided) << text(result);
  EXPECT_TRUE(result.input_layer().scale.conforms) << text(result);
  EXPECT_LT(result.input_layer().scale.tolerance, gap) << text(result);
}

// A caller's buffer (a tensor in Python) is read where it is, in its own
// format: a bfloat16 layer held as bfloat16 (half the .npy file's float32)
// gives the file's result, and the subject holds no copy of it.
TEST_F(InputLayer, aCallersBufferIsReadInPlaceInItsOwnFormat) {
  const InputLayerFiles from_files = files("gemma");
  ASSERT_EQ(from_files.output.values.format(), FormatId::float32);  // .npy has no bfloat16
  const Table output = convert_table(from_files.output.values, FormatId::bfloat16);
  const Table vocabulary = convert_table(from_files.vocabulary.values, FormatId::bfloat16);
  InputLayerFiles borrowed = from_files;
  borrowed.output = borrowed_tensor(from_files.output.shape, output);
  borrowed.vocabulary = borrowed_tensor(from_files.vocabulary.shape, vocabulary);
  EXPECT_EQ(borrowed.output.values.data(), output.bytes().data());
  EXPECT_EQ(borrowed.output.owned, nullptr);
  EXPECT_EQ(borrowed.vocabulary.values.data(), vocabulary.bytes().data());
  EXPECT_EQ(text(validate_input_layer(borrowed)), text(validate_input_layer(from_files)));
}

TEST_F(InputLayer, givenPositionsPlaceTheRecoveredEncoding) {
  const Validation result = validate_input_layer(files("fairseq", true));
  EXPECT_EQ(result.input_layer().first_position, 2);
  EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << text(result);
}

TEST_F(InputLayer, aSingleSequenceIsRefusedSayingWhatIsNeeded) {
  try {
    (void)check("single");
    FAIL() << "a single sequence was accepted";
  } catch (const ValidationInputError& e) {
    EXPECT_NE(std::string(e.what()).find("single.output.npy: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("at least two sequences"), std::string::npos) << e.what();
  }
}

TEST_F(InputLayer, aSingleSequenceIsFittedAgainstAGivenConventionsEncoding) {
  ValidationOptions vaswani;
  vaswani.convention = find_preset("vaswani");
  const Validation correct = validate_input_layer(files("single"), vaswani);
  EXPECT_TRUE(correct.input_layer().scale.estimate.against_known_encoding);
  EXPECT_EQ(correct.verdict, ValidationVerdict::conforms) << text(correct);
  const Validation twice = validate_input_layer(files("single_twice"), vaswani);
  ASSERT_TRUE(twice.input_layer().scale.match.has_value()) << text(twice);
  EXPECT_EQ(twice.input_layer().scale.match->name, "sqrt(d) applied twice") << text(twice);
  const Validation gemma = validate_input_layer(files("single_gemma"), vaswani);
  ASSERT_TRUE(gemma.input_layer().scale.match.has_value()) << text(gemma);
  EXPECT_EQ(gemma.input_layer().scale.match->name, "sqrt(d) rounded to bfloat16") << text(gemma);
  EXPECT_EQ(gemma.verdict, ValidationVerdict::deviates) << text(gemma);
}

// The same values read with another shape (C order), as a caller's
// buffer of that shape would be: rows of its last axis.
HeldTensor reshaped(const HeldTensor& held, std::vector<std::int64_t> shape) {
  const TableView& v = held.values;
  const std::int64_t cols = shape.back();
  HeldTensor other =
      borrowed_tensor(std::move(shape), TableView(v.format(), v.rows() * v.cols() / cols, cols, cols, v.data()));
  other.owned = held.owned;
  return other;
}

std::string refusal(const InputLayerFiles& files) {
  try {
    (void)validate_input_layer(files);
  } catch (const ValidationInputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST_F(InputLayer, anIdOutOfRangeIsNamedWithItsIndex) {
  InputLayerFiles bad = files("correct");
  bad.ids.integers[37] = 97;  // (1, 5): the vocabulary has 97 rows
  EXPECT_EQ(refusal(bad), "correct.ids.npy: id 97 at index (1, 5) is out of range (expected 0 <= id < 97, the rows of "
                          "correct.vocab.npy)");
  bad.ids.integers[37] = -1;
  EXPECT_NE(refusal(bad).find("id -1 at index (1, 5)"), std::string::npos);
}

TEST_F(InputLayer, mismatchedShapesNameTheFileTheShapeAndTheShapeExpected) {
  InputLayerFiles bad = files("correct");
  bad.output = reshaped(bad.output, {4, 64, 32});
  const std::string message = refusal(bad);
  EXPECT_EQ(message.rfind("correct.output.npy: shape (4, 64, 32)", 0), 0u) << message;
  EXPECT_NE(message.find("expected (4, 32, 64) or (128, 64)"), std::string::npos) << message;

  bad = files("correct");
  bad.vocabulary = reshaped(bad.vocabulary, {97 * 64});
  EXPECT_EQ(refusal(bad).rfind("correct.vocab.npy: shape (6208,)", 0), 0u) << refusal(bad);

  bad = files("correct");
  bad.ids.integer = false;
  bad.ids.dtype = "<f4";
  EXPECT_NE(refusal(bad).find("correct.ids.npy: dtype '<f4'"), std::string::npos) << refusal(bad);

  bad = files("correct");
  bad.positions = NpyArray{{5}, "<i8", true, FormatId::float32, {}, {0, 1, 2, 3, 4}};
  bad.positions_name = "pos.npy";
  EXPECT_NE(refusal(bad).find("pos.npy: shape (5,) (expected (4, 32)"), std::string::npos) << refusal(bad);
}

TEST(ScaleCandidates, gemmasWidthRoundsSqrtDAsTheFormatsDo) {
  const std::vector<ScaleCandidate> candidates = scale_candidates(3072);
  const auto value = [&](const std::string& name) {
    for (const ScaleCandidate& c : candidates) {
      if (c.name == name) return c.value;
    }
    return std::nan("");
  };
  EXPECT_EQ(value("sqrt(d)"), std::sqrt(3072.0));
  EXPECT_EQ(value("sqrt(d) rounded to bfloat16"), 55.5);     // 8 significant bits: steps of 0.25 in [32, 64)
  EXPECT_EQ(value("sqrt(d) rounded to float16"), 55.4375);   // 11 bits: steps of 1/32
  EXPECT_EQ(value("sqrt(d) applied twice"), 3072.0);
  EXPECT_EQ(value("sqrt(d) missing"), 1.0);
}

}  // namespace
}  // namespace pecheck::validate
