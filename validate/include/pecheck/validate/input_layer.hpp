// `pecheck validate OUTPUT --vocabulary VOCAB --ids IDS`: a user's input layer
// x = s * E[id] + PE[pos] checked from its output, for fault 7 of
// CONVENTIONS.md ("sqrt(d) missing, applied twice, divided instead of
// multiplied, or rounded in the activation dtype") and, through the
// recovered PE, every fault `validate` finds in an encoding table.
//
// Why the scale can be measured without knowing PE: two tokens a, b at the
// same position p share PE[p], so x_a - x_b = s (E[a] - E[b]) up to rounding.
// Within the group G of tokens at one position, centring removes PE:
//   x_i - mean_G(x) = s (E[id_i] - mean_G(E)) + (d_i - mean_G(d))
// (d the rounding error), and least squares over every group gives
//   s_hat = sum <x_c, e_c> / sum <e_c, e_c>,
// the same estimate as least squares over all pairs of each group (a pair sum
// of products is n times the centred sum). Since sum_G e_c = 0,
//   s_hat - s = sum_i <e_c,i, d_i> / sum <e_c, e_c>   exactly,
// which is what the tolerance in input_layer_scale.cpp is derived from.
// With a single sequence (no position holding two different ids), any s fits
// with some PE: the scale is not identifiable from the output alone. With the
// convention given, its encoding stands for PE and s is fitted against it;
// without, the input is refused, saying what is needed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/npy_array.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

// The four files as read (npy_array.hpp), with their names for messages.
// validate_input_layer checks their dtypes and shapes.
struct InputLayerFiles {
  NpyArray output;      // (B, L, d), (B * L, d), or (L, d) when B = 1: floats
  NpyArray vocabulary;  // (V, d): floats
  NpyArray ids;         // (B, L) or (L,): integers
  std::optional<NpyArray> positions;  // as ids, or (L,) for every sequence; default 0..L-1
  std::string output_name = "OUTPUT", vocabulary_name = "VOCAB", ids_name = "IDS", positions_name = "POS";
};

// A value the scale may have, and what it means. `conforms`: the paper's
// sqrt(d), exact or as float32 rounds it; every other is a fault named by
// `name`.
struct ScaleCandidate {
  double value;
  std::string name;  // "sqrt(d) rounded to bfloat16", "sqrt(d) missing (s = 1)", ...
  bool conforms;
};

// Every candidate for width d, conforming ones first (the first listed wins
// when two have the same value, as for d = 64 where sqrt(d) = 8 in every format).
std::vector<ScaleCandidate> scale_candidates(std::int64_t dim);

struct ScaleEstimate {
  double value = 0.0;       // s_hat
  double sigma = 0.0;       // its standard deviation under the rounding model
  double tolerance = 0.0;   // what "equal" allows: see input_layer_scale.cpp
  std::int64_t tokens = 0;  // tokens in groups with at least two different ids
  std::int64_t positions = 0;  // such groups
  bool against_known_encoding = false;  // a single sequence fitted against the given convention's encoding
  FormatId activation_format = FormatId::float32;  // the narrowest format holding every output value
  // For each of scale_candidates(d): how far s_hat moves from the candidate's
  // value when the implementation rounds c E to the activation format before
  // adding PE (a rounding that is not random when c and E have few bits).
  std::vector<double> product_rounding_shifts;
};

struct ScaleDiagnosis {
  ScaleEstimate estimate;
  std::optional<ScaleCandidate> match;     // the candidate closest to s_hat, if within the tolerance
  bool product_rounded = false;            // the match fits with c E rounded before the addition
  double distance = 0.0;                   // |s_hat - the match's expected estimate|
  std::vector<ScaleCandidate> also_within;  // other values within the tolerance
  double sqrt_d = 0.0;
  bool conforms = false;
  bool decided = true;  // false: a conforming and a faulty value are both within the tolerance
  std::string sentence;  // "sqrt(d) rounded to bfloat16: 55.5 instead of 55.4256"
};

// Throws ValidationInputError for an estimate that cannot be made (no position
// holds two different ids, or their embeddings do not differ).
ScaleDiagnosis diagnose_scale(const ScaleEstimate& estimate, std::int64_t dim);

struct InputLayerResult {
  ValidationVerdict verdict = ValidationVerdict::unknown;
  std::int64_t batch = 0, length = 0, dim = 0, vocabulary_size = 0;
  ScaleDiagnosis scale;
  double scale_used = 0.0;       // the matched candidate's value, else s_hat
  double pe_error_bound = 0.0;   // the absolute error allowed in the recovered PE (see input_layer.cpp)
  std::int64_t pulled_to_unit = 0;  // estimates past +-1 by less than pe_error_bound, set to +-1
  std::int64_t first_position = 0;  // the recovered table's row 0 holds this position
  Table recovered;               // PE_hat, one row per position
  ValidationResult encoding;     // the recovered PE validated as a table
  std::vector<std::string> reasons;
};

// Throws ValidationInputError naming the file, the shape found and the shape
// expected, or the first id out of range and its index.
InputLayerResult validate_input_layer(const InputLayerFiles& files, const ValidationOptions& options = {});

std::string input_layer_text(const InputLayerResult& result, const std::string& file);
std::string input_layer_json(const InputLayerResult& result, const std::string& file);

}  // namespace pecheck::validate
