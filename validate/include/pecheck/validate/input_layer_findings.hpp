// What validating an input layer x = s * E[id] + PE[pos] finds beyond what
// every kind has (validation.hpp): the embedding scale measured from the
// output, and the encoding recovered from it (validated as a table: the
// validation's first part). The derivation is in input_layer.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/table.hpp"

namespace pecheck::validate {

// A value the scale may have, and what it means. `conforms`: the paper's
// sqrt(d), exact or as float32 rounds it; every other is a fault named by
// `name`.
struct ScaleCandidate {
  double value;
  std::string name;  // "sqrt(d) rounded to bfloat16", "sqrt(d) missing (s = 1)", ...
  bool conforms;
};

// The estimate the layer computing one candidate would give, in one form of
// the computation, and the bound on what the data leave unknown about it
// (input_layer_expected.cpp).
struct ScaleFit {
  double expected = 0.0;   // s_hat predicted from E, c and PE with the layer's roundings
  double tolerance = 0.0;  // |s_hat - expected| allowed: the effect of what is not known
};

// The two usual forms: x = round(c E + PE), and x = round(round(c E) + PE)
// (c E rounded to the activation format before PE is added, as frameworks do).
struct CandidateFits {
  ScaleFit fused, product_rounded;
};

struct ScaleEstimate {
  double value = 0.0;       // s_hat
  // The estimate's spread were the output's roundings independent noise (6
  // sigma): a description of an unmatched scale's precision, never a verdict
  // (the roundings are not independent of E: see input_layer_expected.cpp).
  double sigma = 0.0;
  double tolerance = 0.0;
  std::int64_t tokens = 0;  // tokens in groups with at least two different ids
  std::int64_t positions = 0;  // such groups
  bool against_known_encoding = false;  // a single sequence fitted against the given convention's encoding
  FormatId activation_format = FormatId::float32;  // the narrowest format holding every output value
  std::vector<CandidateFits> fits;  // one per scale_candidates(d)
};

struct ScaleDiagnosis {
  ScaleEstimate estimate;
  std::optional<ScaleCandidate> match;     // the candidate closest to s_hat, if within the tolerance
  bool product_rounded = false;            // the match fits with c E rounded before the addition
  double distance = 0.0;                   // |s_hat - the match's expected estimate|
  double expected = 0.0;                   // the match's expected estimate
  double tolerance = 0.0;                  // the match's tolerance (ScaleFit)
  std::vector<ScaleCandidate> also_within;  // other values within the tolerance
  double sqrt_d = 0.0;
  bool conforms = false;
  bool decided = true;  // false: a conforming and a faulty value are both within the tolerance
  std::string sentence;  // "sqrt(d) rounded to bfloat16: 55.5 instead of 55.4256"
};

struct InputLayerFindings {
  std::int64_t batch = 0, length = 0, dim = 0, vocabulary_size = 0;
  ScaleDiagnosis scale;
  double scale_used = 0.0;       // the match as the layer holds it (float32 below float64 activations), else s_hat
  double pe_error_bound = 0.0;   // the absolute error allowed in the recovered PE (see input_layer.cpp)
  std::int64_t pulled_to_unit = 0;  // estimates past +-1 by less than pe_error_bound, set to +-1
  std::int64_t first_position = 0;  // the recovered table's row 0 holds this position
  Table recovered;               // PE_hat, one row per position
};

}  // namespace pecheck::validate
