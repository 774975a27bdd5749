// The one result of `pecheck validate`, whatever the subject: an additive
// table, a rotary cache, an input layer's output, or a rotation kernel's
// output (rotated queries or keys) with its input and positions.
//
// Every kind goes through the same stages (docs/architecture.md):
//   read -> detect (once) -> compare (exact values, a computation model)
//        -> diagnose (hazards with evidence) -> decide (verdict and reasons)
// and yields a Validation: what every kind has (verdict, comparisons,
// hazards, reasons, notes) in common fields, what only one kind has in its
// findings (the variant below), and the validations of its parts (an input
// layer's recovered encoding). One text writer, one JSON writer
// (validation_writers.hpp) and one report adapter (reports/) serve them all.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/validate/input_layer_findings.hpp"
#include "pecheck/validate/rotary_findings.hpp"
#include "pecheck/validate/rotated_findings.hpp"
#include "pecheck/validate/table_findings.hpp"

namespace pecheck::validate {

// A subject that cannot be validated at all: no rows or columns, shapes that
// do not fit together, more rows than there are positions below 2^24. The
// message names the shape and what was expected; the caller prefixes the file.
class ValidationInputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

enum class SubjectKind { table, rotary_cache, input_layer, rotated };

enum class ValidationVerdict {
  conforms,  // every comparison that decides is within its budget, and no hazard was found
  deviates,  // a comparison is beyond its budget, a hazard was found, or the subject is not what it must be
  unknown,   // the subject looks right but what it holds (convention, offset, scale) could not be settled
};

// Every fault any kind diagnoses, one list: a hazard's name means the same
// in every report. The comments name CONVENTIONS.md's faults and sources.
enum class HazardKind {
  position_precision,  // positions held in bf16/fp16 (fault 1; candle PR 3520)
  angle_precision,     // angles p * w computed in a low precision (fault 2; gpt-neox issue 1003)
  inv_freq_precision,  // inv_freq rounded to the activation dtype (Megatron-LM 744, InternLM 237)
  out_of_range,        // values past [-1, 1] (or past the attention factor) by more than rounding (fault 8)
  non_finite,          // NaN or infinity (fault 8)
  not_sinusoidal,      // no column pairing with sin^2 + cos^2 = 1 is left (fault 6)
  not_rotary,          // no column pairing with cos^2 + sin^2 constant: not a rotary cache
  convention_mismatch,  // the given convention or offset is not what the table holds (faults 3, 4, 5)
  drifted,             // a sinusoidal table moved by training or small noise (fault 6)
  scaled,              // a correctly shaped sinusoid times a constant (NeMo xscale, sockeye, x-transformers)
  wrong_base,          // the frequencies follow another rope_theta than the convention's
  wrong_scaling,       // the frequencies follow another scaling rule than the convention's
  cos_sin_swapped,     // the cos table holds the sines and the sin table the cosines
  attention_factor,    // cos^2 + sin^2 is not attention_factor^2: missing or applied twice
  layout_mismatch,     // rotate-half where interleaved was expected, or the other way
  row_offset,          // file row 0 holds another position than the one given
  cache_precision,     // cos/sin held in bf16/fp16 before a wider rotation (flashinfer PR 585)
  frequency_accumulation,  // each pair's angle by repeated float multiplication, theta *= theta_scale (ggml)
  fast_trig,           // sin/cos whose error grows with |angle| (__sinf/__cosf: kekzl/imp PR 1325)
  direction,           // the rotation by -theta
  partial_width,       // the rotated columns are not the convention's rotary width
  position_offset,     // the angles say POS + k, not the positions given
  pass_through_changed,  // a column beyond the rotary width differs from the input
  not_rotated,         // no pairing keeps |out| / |in| constant: not a rotation of the input
  layer_type,          // the cache follows another layer type's rule of the config (Gemma 3 sliding vs global)
  custom_rule,         // no preset or config rule explains the fitted frequencies: the fitted ladder is compared
  softmax_scale,       // --softmax-scale is not the scale the config derives (DeepSeek's mscale^2: transformers 47435)
};

struct Hazard {
  HazardKind kind;
  std::string evidence;  // one or two sentences with the figures that show it
};

// The subject's values against exact values (or a computation model's
// correctly rounded values), entry by entry, through the one accumulator.
struct Comparison {
  std::string target;                  // "the exact encoding", or the computation model's name
  accuracy::Measurement measurement;  // worst.row is the file row, worst.position its position
  std::int64_t beyond_budget = 0;      // entries beyond the budget and beyond any allowance
  bool conforms = false;
};

struct Validation {
  SubjectKind kind = SubjectKind::table;
  ValidationVerdict verdict = ValidationVerdict::unknown;
  std::vector<Comparison> comparisons;
  std::vector<Hazard> hazards;
  std::vector<std::string> reasons;  // why the verdict is not `conforms`
  std::vector<std::string> notes;    // how detection decided, one sentence each
  std::variant<TableFindings, RotaryFindings, InputLayerFindings, RotatedFindings> findings;
  std::vector<Validation> parts;     // an input layer's recovered encoding
  std::string name;                  // a part's name in its parent's output ("recovered encoding")

  const TableFindings& table() const { return std::get<TableFindings>(findings); }
  TableFindings& table() { return std::get<TableFindings>(findings); }
  const RotaryFindings& rotary() const { return std::get<RotaryFindings>(findings); }
  RotaryFindings& rotary() { return std::get<RotaryFindings>(findings); }
  const InputLayerFindings& input_layer() const { return std::get<InputLayerFindings>(findings); }
  InputLayerFindings& input_layer() { return std::get<InputLayerFindings>(findings); }
  const RotatedFindings& rotated() const { return std::get<RotatedFindings>(findings); }
  RotatedFindings& rotated() { return std::get<RotatedFindings>(findings); }

  // The hazard of this kind, or nullptr.
  const Hazard* hazard(HazardKind wanted) const;
  bool has(HazardKind wanted) const { return hazard(wanted) != nullptr; }
  // Adds the hazard unless one of its kind is there already.
  void add_hazard(Hazard hazard);
};

std::string_view to_string(SubjectKind kind);
std::string_view to_string(ValidationVerdict verdict);
std::string_view to_string(HazardKind kind);

}  // namespace pecheck::validate
