// validate_rotated_output: tokens -> detection -> comparison with the exact
// rotation and the computation models -> diagnosis and properties -> verdict.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "pecheck/number_text.hpp"
#include "pecheck/parallel_for.hpp"
#include "pecheck/accuracy/budgets.hpp"
#include "pecheck/properties/rotary_values.hpp"
#include "pecheck/properties/rotated_properties.hpp"
#include "pecheck/reference/nearest_rounding.hpp"
#include "pecheck/validate/rotated_output.hpp"
#include "rotated_comparison.hpp"
#include "rotated_detection.hpp"
#include "rotated_diagnosis.hpp"
#include "rotated_mrope.hpp"

namespace pecheck::validate {

namespace {

// What one pass over a float32 output finds: how many entries are NaN or
// infinite, and whether every finite one is a bfloat16 value (its low 16
// bits zero: bfloat16 is float32's top half; NumPy writes bfloat16 as
// float32). Both read the bits, with no early exit, so the loop is vector
// code; the rows are split over the workers (on one thread, the two
// separate passes took a tenth of the command's time on a (1, 8192, 32, 128)
// output).
struct Float32Scan {
  std::int64_t non_finite = 0;
  bool bfloat16_values = true;
};

Float32Scan scan_float32(const TableView& view) {
  const std::int64_t rows = view.rows();
  const int workers = worker_count(0, rows / 256 + 1);
  std::vector<Float32Scan> parts(static_cast<std::size_t>(workers));
  parallel_for(workers, [&](int worker) {
    std::int64_t non_finite = 0;
    std::uint32_t stray = 0;  // the low bits of the finite values, ORed
    const std::int64_t begin = rows * worker / workers, end = rows * (worker + 1) / workers;
    for (std::int64_t r = begin; r < end; ++r) {
      for (const float x : view.row<float>(r)) {
        const std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
        const bool finite = (bits & 0x7f800000U) != 0x7f800000U;
        non_finite += !finite;
        stray |= finite ? bits & 0xffffU : 0U;
      }
    }
    parts[static_cast<std::size_t>(worker)] = {non_finite, stray == 0};
  });
  Float32Scan scan;
  for (const Float32Scan& part : parts) {
    scan.non_finite += part.non_finite;
    scan.bfloat16_values = scan.bfloat16_values && part.bfloat16_values;
  }
  return scan;
}

// Whether every finite value of the view is a value of f (a float32 view's
// bfloat16 test is scan_float32's).
bool holds_every_finite(const TableView& view, FormatId f) {
  if (f == view.format()) return true;
  for (std::int64_t r = 0; r < view.rows(); ++r) {
    for (std::int64_t c = 0; c < view.cols(); ++c) {
      const double v = view.at(r, c);
      if (std::isfinite(v) && !reference::holds_value(v, format_of(f))) return false;
    }
  }
  return true;
}

// The narrowest of bfloat16, float16 and float32 holding every finite
// output value (NumPy writes bfloat16 as float32), else the stored format.
FormatId value_format(const TableView& output, const std::optional<Float32Scan>& scan) {
  for (const FormatId f : {FormatId::bfloat16, FormatId::float16, FormatId::float32}) {
    if (format_of(f).precision > format_of(output.format()).precision) break;
    if ((scan && f == FormatId::bfloat16) ? scan->bfloat16_values : holds_every_finite(output, f)) return f;
  }
  return output.format();
}

std::int64_t non_finite_count(const TableView& view) {
  std::int64_t count = 0;
  for (std::int64_t r = 0; r < view.rows(); ++r) {
    if (view.format() == FormatId::bfloat16 || view.format() == FormatId::float16) {
      // A bfloat16 tensor from Python: a 16-bit value is infinite or NaN when
      // its exponent field is all ones, tested on the bits (decoding each
      // entry through the format's switch cost as much as the comparison).
      const std::uint16_t all_ones = view.format() == FormatId::bfloat16 ? 0x7f80U : 0x7c00U;
      for (const std::uint16_t bits : view.row<std::uint16_t>(r)) count += (bits & all_ones) == all_ones;
      continue;
    }
    for (std::int64_t c = 0; c < view.cols(); ++c) count += !std::isfinite(view.at(r, c));
  }
  return count;
}

bool is_frequency_claim(HazardKind kind) {
  return kind == HazardKind::wrong_base || kind == HazardKind::wrong_scaling ||
         kind == HazardKind::inv_freq_precision || kind == HazardKind::custom_rule;
}

}  // namespace

Validation validate_rotated_output(const RotatedSubject& subject, const RotatedOptions& options) {
  const RotatedTokens tokens = resolve_tokens(subject, options.qkv_format);
  Validation result;
  result.kind = SubjectKind::rotated;
  Validation& v = result;
  RotatedFindings& findings = result.findings.emplace<RotatedFindings>();
  // A float32 output (the common case, and bfloat16 from NumPy) is read once for both questions.
  std::optional<Float32Scan> scan;
  if (subject.output.values.format() == FormatId::float32) scan = scan_float32(subject.output.values);
  const FormatId format = value_format(subject.output.values, scan);
  const RotatedValues values{subject.input.values, subject.output.values, tokens.rows, tokens.head_dim};
  if (options.convention) check_rotary_convention(*options.convention);
  check_mrope_positions(subject, tokens, options.convention);
  const auto add_hazard = [&result](const Hazard& h) { result.add_hazard(h); };

  const std::int64_t non_finite = scan ? scan->non_finite : non_finite_count(subject.output.values);
  if (non_finite > 0) {
    add_hazard({HazardKind::non_finite, std::to_string(non_finite) + " outputs are NaN or infinite."});
  }
  RotatedDetection detection = detect_rotated(values, tokens, format, options, findings);
  for (const Hazard& h : detection.hazards) add_hazard(h);
  for (std::string& note : detection.notes) v.notes.push_back(std::move(note));
  const auto finish = [&](ValidationVerdict verdict, std::string reason) {
    if (!reason.empty()) v.reasons.push_back(std::move(reason));
    for (const Hazard& h : result.hazards) v.reasons.push_back(std::string(to_string(h.kind)));
    v.verdict = verdict == ValidationVerdict::conforms && !v.reasons.empty() ? ValidationVerdict::deviates : verdict;
    return std::move(result);
  };
  if (!detection.rotated) return finish(ValidationVerdict::deviates, "not a rotation of the input");
  if (!findings.convention) {
    std::string why = findings.frequencies_fitted ? "no rule fits the output's frequencies"
                                                  : "no convention given and none could be fitted";
    if (options.convention && !findings.frequencies_fitted) {
      // A convention given whose width the kernel does not rotate (measured by
      // the pairing fit: the partial-width hazard) is a deviation whatever its
      // frequencies: columns it must pass unchanged turn, or columns it must
      // turn pass (maxtext issue 4616, pie PR 603).
      const bool width_differs = std::any_of(result.hazards.begin(), result.hazards.end(),
                                             [](const Hazard& h) { return h.kind == HazardKind::partial_width; });
      if (width_differs) {
        return finish(ValidationVerdict::deviates,
                      "the kernel rotates " + std::to_string(findings.rotary_width) +
                          " columns, the convention given " + std::to_string(rotary_derived(*options.convention).dims));
      }
      // M-RoPE's sections, the proportional form and LongRoPE's factors hold at their own width only.
      why = "the convention given cannot be read at the kernel's rotary width " +
            std::to_string(findings.rotary_width) + " (its fields fix the width " + std::to_string(rotary_derived(*options.convention).dims) +
            ": M-RoPE sections, a proportional form or per-frequency factors)";
    }
    return finish(ValidationVerdict::unknown, why);
  }
  const RotaryConvention& convention = *findings.convention;

  // The computation behind the output, at the kernel's own positions.
  std::vector<std::int64_t> kernel_positions = tokens.row_position;
  for (std::int64_t& p : kernel_positions) p += findings.position_offset;
  // The fault computations are tried at one position per row: not under
  // M-RoPE ids that differ (the ids' own misreadings are tried below).
  ComputationFit computation;
  if (!tokens.mrope_ids_differ) {
    computation = diagnose_computation(values, kernel_positions, tokens.row_position, findings.layout,
                                       findings.rotary_width, convention, format, findings.reversed,
                                       findings.attention_factor);
  }
  if (computation.hazard) {
    // A fault computation under this convention explains the output: the
    // frequencies' misfit is its doing, not another rule's.
    std::erase_if(result.hazards, [](const Hazard& h) { return is_frequency_claim(h.kind); });
    if (computation.plain_setting) {
      // It explains the output at POS, forwards: the direction and offset read were the fault's doing.
      std::erase_if(result.hazards, [](const Hazard& h) {
        return h.kind == HazardKind::direction || h.kind == HazardKind::position_offset;
      });
      findings.reversed = false;
      findings.position_offset = 0;
      v.notes.push_back("the direction and offset the angles suggested are the diagnosed fault's doing");
    }
    add_hazard(*computation.hazard);
    if (computation.second) add_hazard(*computation.second);
  }

  const accuracy::UlpBudget& budget = accuracy::ulp_budget(accuracy::BudgetKind::third_party, format);
  RotatedComparisonRequest request;
  request.values = &values;
  request.row_position = &tokens.row_position;
  if (tokens.mrope_ids_differ) request.mrope_position = &tokens.mrope_position;
  request.layout = findings.layout;
  request.width = findings.rotary_width;
  request.convention = convention;
  request.format = format;
  request.budget_ulp = options.max_ulp.value_or(budget.max_ulp);
  request.budget_source = options.max_ulp ? "--max-ulp" : std::string(budget.source);
  request.threads = options.threads;
  const std::optional<ComputationModel> angle_model = find_computation_model(options.angle_model);
  if (!angle_model) throw ConventionError("--model '" + options.angle_model + "': not a computation model");
  // The exact rotation always; then the models in turn until the output
  // conforms to one (each costs a pass over every entry).
  v.comparisons.push_back(compare_rotated(request, std::nullopt, *angle_model));
  for (const reference::RotatedModel& model : reference::rotated_models()) {
    if (std::any_of(v.comparisons.begin(), v.comparisons.end(), [](const Comparison& c) { return c.conforms; })) {
      v.notes.push_back("not compared with the computation model " + model.name + ": the output already conforms to " +
                        v.comparisons.back().target);
      continue;
    }
    v.comparisons.push_back(compare_rotated(request, model, *angle_model));
  }

  const bool conforms_to_one =
      std::any_of(v.comparisons.begin(), v.comparisons.end(), [](const Comparison& c) { return c.conforms; });
  if (!conforms_to_one && tokens.mrope_ids_differ) {
    if (const std::optional<Hazard> h = diagnose_mrope_ids(request, *angle_model)) add_hazard(*h);
  }

  const double factor = rotary_derived(convention).attention_factor;
  // M-RoPE: each pair's relative position is its own section's id difference.
  std::vector<std::int64_t> pair_section;
  if (tokens.mrope_ids_differ) {
    for (std::int64_t i = 0; i < findings.rotary_width / 2; ++i) pair_section.push_back(mrope_position_row(convention, i));
  }
  const std::vector<std::vector<std::int64_t>> no_sections;
  // The functions the checks on rotated outputs run (properties/rotated_properties.hpp).
  findings.properties.push_back(properties::norm_property(values.input, values.output, findings.layout,
                                                          findings.rotary_width, format, factor));
  findings.properties.push_back(properties::relative_position_property(
      values.input, values.output, kernel_positions, findings.layout, findings.rotary_width, format, factor,
      properties::rotary_inv_freqs(convention, std::nullopt), false,
      tokens.mrope_ids_differ ? tokens.mrope_position : no_sections, pair_section));

  const bool conforms =
      std::any_of(v.comparisons.begin(), v.comparisons.end(), [](const Comparison& c) { return c.conforms; });
  return finish(conforms ? ValidationVerdict::conforms : ValidationVerdict::deviates,
                conforms ? ""
                         : "entries beyond " + significant(request.budget_ulp) +
                               " ULP against the exact rotation and every computation model");
}

}  // namespace pecheck::validate
