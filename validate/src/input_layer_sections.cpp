// An input layer's stages of the one writer (sections.hpp): the measured
// embedding scale and the encoding recovered from the output (whose own
// validation is the first part: indented in the text, an object under
// "encoding" in the JSON).
#include <cmath>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "json_values.hpp"
#include "pecheck/validate/input_layer.hpp"
#include "sections.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::validate {

namespace {

using nlohmann::json;

json candidate_json(const ScaleCandidate& candidate) {
  return {{"name", candidate.name}, {"value", candidate.value}, {"conforms", candidate.conforms}};
}

}  // namespace

void subject_text(const Validation&, const InputLayerFindings& result, std::ostream& out) {
  const ScaleDiagnosis& scale = result.scale;
  const ScaleEstimate& estimate = scale.estimate;
  const std::string activations(format_of(estimate.activation_format).name);
  out << "  input layer: " << result.batch << (result.batch == 1 ? " sequence" : " sequences") << " x "
      << result.length << " tokens, d = " << result.dim << ", vocabulary " << result.vocabulary_size
      << ", activations " << activations << '\n';
  out << "  scale: measured " << significant(estimate.value, 9) << " from " << estimate.tokens
      << (estimate.against_known_encoding ? " tokens of a single sequence against the convention's encoding at "
                                          : " tokens sharing ")
      << estimate.positions << " positions (spread " << significant(estimate.tolerance, 4)
      << " were the roundings independent); sqrt(d) = " << significant(scale.sqrt_d, 9) << '\n';
  out << "  scale: " << (scale.conforms ? "conforms" : scale.decided ? "deviates" : "unknown") << ": "
      << scale.sentence;
  if (scale.match) {
    // The match is judged against the estimate its value predicts with the layer's own roundings.
    out << " (expected " << significant(scale.expected, 9) << " with " << activations << " rounding"
        << (scale.product_rounded ? " of s E and of s E + PE" : " of s E + PE") << ", off by "
        << significant(scale.distance, 4) << ", tolerance " << significant(scale.tolerance, 4) << ")";
  }
  out << '\n';
  for (const ScaleCandidate& other : scale.also_within) {
    out << "    also within the tolerance: " << other.name << " = " << significant(other.value, 9) << '\n';
  }
  out << "  positional encoding: PE[p] = x - " << significant(result.scale_used, 9) << " E[id], positions "
      << result.first_position << ".." << result.first_position + result.recovered.rows - 1
      << ", abs error allowed " << significant(result.pe_error_bound, 4) << " (rounding of x and s E in " << activations
      << ", and 2 ULP of PE)";
  if (result.pulled_to_unit > 0) {
    out << "; " << result.pulled_to_unit << " estimates past +-1 by less than that were set to +-1";
  }
  out << '\n';
}

// Its comparison is the recovered encoding's, a part of its own.
void comparisons_text(const Validation&, const InputLayerFindings&, std::ostream&) {}

void subject_json(const Validation& v, const InputLayerFindings& result, json& out) {
  const ScaleDiagnosis& scale = result.scale;
  const ScaleEstimate& estimate = scale.estimate;
  json candidates = json::array();
  for (const ScaleCandidate& candidate : scale_candidates(result.dim)) candidates.push_back(candidate_json(candidate));
  json also = json::array();
  for (const ScaleCandidate& other : scale.also_within) also.push_back(candidate_json(other));
  out["batch"] = result.batch;
  out["length"] = result.length;
  out["dim"] = result.dim;
  out["vocabulary_size"] = result.vocabulary_size;
  out["activations"] = format_of(estimate.activation_format).name;
  out["scale"] = {{"measured", json_number(estimate.value)},
                  {"sigma", json_number(estimate.sigma)},
                  {"tolerance", json_number(estimate.tolerance)},
                  {"tokens", estimate.tokens},
                  {"positions", estimate.positions},
                  {"against_known_encoding", estimate.against_known_encoding},
                  {"sqrt_d", scale.sqrt_d},
                  {"match", scale.match ? candidate_json(*scale.match) : json(nullptr)},
                  {"distance", scale.match ? json(scale.distance) : json(nullptr)},
                  {"expected", scale.match ? json(scale.expected) : json(nullptr)},
                  {"match_tolerance", scale.match ? json(scale.tolerance) : json(nullptr)},
                  {"product_rounded", scale.product_rounded},
                  {"also_within", also},
                  {"conforms", scale.conforms},
                  {"decided", scale.decided},
                  {"text", scale.sentence},
                  {"candidates", candidates}};
  out["scale_used"] = json_number(result.scale_used);
  out["pe_error_bound"] = json_number(result.pe_error_bound);
  out["pulled_to_unit"] = result.pulled_to_unit;
  out["first_position"] = result.first_position;
  for (const Validation& part : v.parts) out["encoding"] = validation_document(part, part.name);
}

}  // namespace pecheck::validate
