// validate_rotary_cache: detection -> convention -> comparison with the exact
// encoding and the computation model -> verdict and hazards.
#include "pecheck/validate/rotary_validation.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "narrow_format.hpp"
#include "pecheck/accuracy/budgets.hpp"
#include "pecheck/number_text.hpp"
#include "rotary_comparison.hpp"
#include "rotary_detection_run.hpp"
#include "rotary_diagnosis.hpp"
#include "rotary_frequency_match.hpp"
#include "rotary_softmax_scale.hpp"
#include "subject_hints.hpp"

namespace pecheck::validate {

namespace {

constexpr std::int64_t position_limit = std::int64_t{1} << 24;

void check_shapes(const Table& cos, const Table& sin) {
  if (cos.rows != sin.rows || cos.cols != sin.cols) {
    throw ValidationInputError("cos is " + std::to_string(cos.rows) + " x " + std::to_string(cos.cols) + ", sin is " +
                               std::to_string(sin.rows) + " x " + std::to_string(sin.cols) +
                               ": expected the same shape (positions x rotary columns)");
  }
  if (cos.rows < 1 || cos.cols < 1) throw ValidationInputError("expected at least one row and one column");
  if (cos.rows > position_limit) {
    throw ValidationInputError(std::to_string(cos.rows) + " rows: expected at most 2^24 (positions below 2^24)");
  }
}

// Detection, comparison and diagnosis; the caller moves detection's notes.
Validation validate_stages(const Table& cos, const Table& sin, const RotaryValidationOptions& options,
                           RotaryReadPass* read_pass) {
  check_shapes(cos, sin);
  Validation result;
  result.kind = SubjectKind::rotary_cache;
  RotaryFindings& findings = result.findings.emplace<RotaryFindings>();
  findings.rows = cos.rows;
  findings.cols = cos.cols;
  std::optional<RotaryConvention> given = options.convention;
  if (given) {
    check_rotary_convention(*given);
    if (rotary_columns(*given) != cos.cols) {
      const RotaryDerived derived = rotary_derived(*given);
      result.reasons.push_back("the cache has " + std::to_string(cos.cols) + " columns; the convention gives " +
                               std::to_string(rotary_columns(*given)) + " (rotary width int(head_dim " +
                               std::to_string(given->head_dim) + " x rotary fraction " +
                               std::to_string(given->rotary_fraction) + ") = " + std::to_string(derived.dims) + ")");
      const std::int64_t n = given->layout == RotaryLayout::complex_form ? cos.cols : cos.cols / 2;
      given = at_cache_width(*given, given->layout, n);
    }
  }
  // Detection, and the pass over every value (each table's extent for the
  // value hazards, cos's successive rows for detection's position steps)
  // beside it, from the format the values carry on: a float32 file holding
  // only bfloat16 values (NumPy has no bfloat16) is compared as bfloat16.
  RotaryDetectionRun run(cos, sin, options.threads, read_pass);
  RotaryDetection& detection = findings.detection;
  detection = run.detect(
      [&] {
        const FormatChoice cos_format = narrowest_format(cos);
        const FormatChoice sin_format = narrowest_format(sin);
        findings.format = format_of(cos_format.format).precision >= format_of(sin_format.format).precision
                              ? cos_format.format
                              : sin_format.format;
        return findings.format;
      },
      given, options.first_position);

  if (given && given->partial_form == PartialRotaryForm::proportional) {
    // The proportional cache spans the whole head; its fraction is in the pairs that turn.
    const RotaryDerived d = rotary_derived(*given);
    detection.notes.push_back("proportional form: " + std::to_string(d.rotated_frequencies) + " of " +
                              std::to_string(d.frequencies) + " pairs turn (rotary fraction " +
                              round_trip(given->rotary_fraction) + " of head_dim " + std::to_string(given->head_dim) +
                              "), the others at frequency 0");
  } else if (given && given->head_dim > 0) {
    detection.notes.push_back(
        "rotary fraction " +
        round_trip(static_cast<double>(2 * detection.frequencies) / static_cast<double>(options.convention->head_dim)) +
        " of head_dim " + std::to_string(options.convention->head_dim) + " (cache width / head_dim)");
  }
  if (!detection.rotary) {
    const std::string hint = rotary_cache_hint(cos);
    result.hazards.push_back(
        {HazardKind::not_rotary, "cos^2 + sin^2 is not one constant over the pairs of any layout: not a rotary cache." +
                                     (hint.empty() ? std::string() : " " + hint + ".")});
    result.verdict = ValidationVerdict::deviates;
    result.reasons.push_back("not a rotary cache");
    return result;
  }
  if (given && given->layout != detection.layout && detection.layout != RotaryLayout::complex_form) {
    result.hazards.push_back(
        {HazardKind::layout_mismatch, "the columns pair as " + std::string(to_string(detection.layout)) +
                                          ", the convention is " + std::string(to_string(given->layout)) + "."});
  }
  if (!detection.convention) {
    result.verdict = ValidationVerdict::unknown;
    result.reasons.push_back("no rule fits the cache's frequencies");
    return result;
  }
  RotaryConvention convention = *detection.convention;
  if (!given) convention.layout = detection.layout;
  findings.compared_convention = convention;
  const double expected_factor = rotary_derived(convention).attention_factor;
  for (Hazard& h : value_hazards(cos, sin, run.scan().cos_extent, run.scan().sin_extent, findings.format,
                                 std::max(expected_factor, detection.attention_factor))) {
    result.hazards.push_back(std::move(h));
  }
  if (detection.swapped) {
    result.hazards.push_back({HazardKind::cos_sin_swapped,
                              "the angles atan2(sin, cos) decrease from row to row: the cos table holds the sines "
                              "and the sin table the cosines."});
  }
  for (Hazard& h : attention_factor_hazards(detection, expected_factor, findings.format))
    result.add_hazard(std::move(h));
  if (options.first_position && detection.identical_pairs == 0 && detection.placed_position &&
      *detection.placed_position != *options.first_position) {
    // Compared at the given offset; the angles say where row 0 is.
    result.hazards.push_back({HazardKind::row_offset, "file row 0 holds position " +
                                                          std::to_string(*detection.placed_position) + ", not " +
                                                          std::to_string(*options.first_position) + "."});
  }
  if (detection.positions_held_in) {
    result.hazards.push_back({HazardKind::position_precision,
                              std::to_string(detection.identical_pairs) +
                                  " pairs of successive rows are identical, exactly where positions held in " +
                                  std::string(format_of(*detection.positions_held_in).name) +
                                  " round to one value (positions in a 16-bit format at long context: candle PR 3520, "
                                  "where position 15962 becomes 15936 or 15968 in bfloat16)."});
  }
  const std::vector<Hazard> frequencies = frequency_hazards(detection, convention, cos.rows);
  for (const Hazard& h : frequencies) result.add_hazard(h);

  const accuracy::UlpBudget& budget = accuracy::ulp_budget(accuracy::BudgetKind::third_party, findings.format);
  const double budget_ulp = options.max_ulp.value_or(budget.max_ulp);
  const std::string source = options.max_ulp ? "--max-ulp" : std::string(budget.source);
  const std::optional<ComputationModel> model = find_computation_model(options.model);
  if (!model) throw ConventionError("--model '" + options.model + "': not a computation model");
  // The exact encoding and the computation model, in one pass over the cache.
  const std::optional<ComputationModel> targets[] = {std::nullopt, model};
  result.comparisons = compare_rotary_cache(
      cos, sin, findings.format, convention, detection.first_position, targets, budget_ulp, source, options.threads,
      options.histograms ? accuracy::HistogramCounting::counted : accuracy::HistogramCounting::left_out);
  // The computation hazards name the computation a cache beyond its budget
  // of the exact encoding follows; a cache within it (comparisons[0], the
  // exact encoding's) has nothing to explain. Under another rule every
  // computation of this one is far alike: nothing to tell apart either.
  if (frequencies.empty() && !result.comparisons.front().conforms) {
    for (Hazard& h : computation_hazards(cos, sin, findings.format, detection, convention, detection.attention_factor)) {
      result.add_hazard(std::move(h));
    }
  }
  const bool conforms =
      std::any_of(result.comparisons.begin(), result.comparisons.end(), [](const Comparison& c) { return c.conforms; });
  if (!conforms) {
    result.reasons.push_back("entries beyond " + significant(budget_ulp) +
                             " ULP against both the exact encoding and the computation model");
  }
  for (const Hazard& h : result.hazards) result.reasons.push_back(std::string(to_string(h.kind)));
  result.verdict = result.reasons.empty() ? ValidationVerdict::conforms : ValidationVerdict::deviates;
  return result;
}

bool follows_its_rule(const Validation& v) {
  return v.verdict == ValidationVerdict::conforms ||
         std::none_of(v.hazards.begin(), v.hazards.end(), [](const Hazard& h) {
           return h.kind == HazardKind::wrong_base || h.kind == HazardKind::wrong_scaling ||
                  h.kind == HazardKind::custom_rule;
         });
}

Validation validate_one(const Table& cos, const Table& sin, const RotaryValidationOptions& options,
                        const RotaryConvention& rule, RotaryReadPass* read_pass) {
  RotaryValidationOptions one = options;
  one.convention = rule;
  one.layer_types.clear();
  return validate_stages(cos, sin, one, read_pass);
}

std::string layer_list(const std::vector<RotaryConvention>& layers) {
  std::string listed;
  for (const RotaryConvention& c : layers) listed += (listed.empty() ? "" : ", ") + c.layer_type;
  return listed;
}

// A config with several layer types (Gemma 3: full_attention scaled at
// rope_theta, sliding_attention unscaled at rope_local_base_freq).
Validation validate_layer_types(const Table& cos, const Table& sin, const RotaryValidationOptions& options,
                                RotaryReadPass* read_pass) {
  const std::vector<RotaryConvention>& layers = options.layer_types;
  if (options.convention) {
    Validation result = validate_stages(cos, sin, options, read_pass);
    if (follows_its_rule(result)) return result;
    for (const RotaryConvention& other : layers) {
      if (other.layer_type == options.convention->layer_type) continue;
      if (follows_its_rule(validate_one(cos, sin, options, other, read_pass))) {
        result.hazards.push_back({HazardKind::layer_type,
                                  "the cache follows the config's " + other.layer_type + " rule (" + describe(other) +
                                      "), not the " + options.convention->layer_type +
                                      " rule it was checked as (one rule for every layer: Gemma 3's sliding layers "
                                      "take rope_local_base_freq unscaled, vllm issue 29111, llama.cpp issue 14367)."});
        result.reasons.push_back(std::string(to_string(HazardKind::layer_type)));
        result.verdict = ValidationVerdict::deviates;
        break;
      }
    }
    return result;
  }
  std::optional<Validation> best;
  std::size_t best_hazards = 0;
  std::string chosen;
  for (const RotaryConvention& layer : layers) {
    Validation v = validate_one(cos, sin, options, layer, read_pass);
    const bool conforms = v.verdict == ValidationVerdict::conforms;
    if (!best || (conforms && best->verdict != ValidationVerdict::conforms) ||
        (!conforms && best->verdict != ValidationVerdict::conforms && v.hazards.size() < best_hazards)) {
      best_hazards = v.hazards.size();
      chosen = layer.layer_type;
      best = std::move(v);
    }
  }
  best->notes.push_back(best->verdict == ValidationVerdict::conforms
                            ? "the cache follows the config's " + chosen +
                                  " rule (its layer types: " + layer_list(layers) + "; --layer-type checks one)"
                            : "no layer type's rule of the config fits (" + layer_list(layers) +
                                  "); compared with the nearest, " + chosen);
  return std::move(*best);
}

}  // namespace

Validation validate_rotary_cache(const Table& cos, const Table& sin, const RotaryValidationOptions& options,
                                 RotaryReadPass* read_pass) {
  Validation result = options.layer_types.size() > 1 ? validate_layer_types(cos, sin, options, read_pass)
                                                     : validate_stages(cos, sin, options, read_pass);
  // Detection's notes are the validation's.
  std::vector<std::string>& notes = result.rotary().detection.notes;
  result.notes.insert(result.notes.end(), notes.begin(), notes.end());
  notes.clear();
  // The softmax scale of the rule given (--config, --rope) the cache was
  // judged by, or of the config's layer type it follows; a detected rule is
  // not the model's word on it.
  const bool rule_given = options.convention.has_value() || !options.layer_types.empty();
  const std::optional<RotaryConvention> judged =
      rule_given ? result.rotary().compared_convention : std::optional<RotaryConvention>();
  if (options.softmax_scale && !judged) {
    result.notes.push_back("--softmax-scale was not checked: it needs the model's rule (--config or --rope)");
  } else if (judged) {
    if (std::optional<SoftmaxScaleFinding> finding = softmax_scale_finding(*judged, options.softmax_scale)) {
      result.notes.push_back(finding->note);
      if (finding->hazard) {
        result.reasons.push_back(std::string(to_string(finding->hazard->kind)));
        result.hazards.push_back(std::move(*finding->hazard));
        result.verdict = ValidationVerdict::deviates;
      }
    }
  }
  return result;
}

}  // namespace pecheck::validate
