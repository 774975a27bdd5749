#include "rotary_diagnosis.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "rotary_config_faults.hpp"
#include "rotary_custom_rule.hpp"
#include "rotary_frequency_match.hpp"
#include "rotary_layout.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::validate {

namespace {

constexpr double misfit_limit = frequency_misfit_limit;
// Rows the computations are evaluated on.
constexpr std::int64_t hypothesis_rows = 512;

std::string base_text(const RotaryConvention& c) { return significant(rotary_derived(c).effective_base, 7); }

}  // namespace

std::vector<Hazard> attention_factor_hazards(const RotaryDetection& detection, double expected,
                                                   FormatId format) {
  // The norm of a pair each rounded within 2 ULP is within about 3 * 2^(1-p)
  // A of A (detection's tolerance); 8 * 2^-p relative allows one more rounding.
  const double relative = 8.0 * std::ldexp(1.0, -format_of(format).precision);
  const auto near = [&](double a, double b) { return std::fabs(a - b) <= relative * std::max(a, b); };
  const double measured = detection.attention_factor;
  if (near(measured, expected)) return {};
  std::string what = "sqrt(cos^2 + sin^2) is " + significant(measured, 9) + " (median over the pairs), the convention's "
                     "attention factor is " + significant(expected, 9);
  if (near(measured, 1.0)) {
    what += ": the attention factor is missing";
  } else if (near(measured, expected * expected)) {
    what += ": the attention factor is applied twice (" + significant(expected * expected, 9) + " = factor^2)";
  } else if (expected > 0.0 && near(measured, 0.1 * std::log(expected) + 1.0)) {
    // An engine taking HF's attention_factor for YaRN's scale s (sglang issue 33558, TensorRT-LLM issue 16379).
    what += ": the attention factor fed through 0.1 ln(s) + 1 once more (" +
            significant(0.1 * std::log(expected) + 1.0, 9) + ")";
  }
  return {{HazardKind::attention_factor, what + " (transformers multiplies cos and sin by attention_scaling once)."}};
}

std::vector<Hazard> frequency_hazards(const RotaryDetection& detection, const RotaryConvention& convention,
                                            std::int64_t rows) {
  const double exact = frequency_misfit(detection, rotary_inv_freqs(convention, std::nullopt));
  const double single = frequency_misfit(detection, rotary_inv_freqs(convention, FormatId::float32));
  if (std::min(exact, single) <= misfit_limit || !std::isfinite(std::min(exact, single))) return {};
  for (FormatId narrow : {FormatId::bfloat16, FormatId::float16}) {
    const double misfit = frequency_misfit(detection, rotary_inv_freqs(convention, narrow));
    if (misfit <= misfit_limit) {
      return {{HazardKind::inv_freq_precision,
               "the frequencies are the convention's inv_freq rounded to " + std::string(format_of(narrow).name) +
                   " (median squared z-score " + significant(misfit, 4) + " against " + significant(std::min(exact, single), 4) +
                   " for float32 inv_freq): inv_freq cast with the module (Megatron-LM issue 744, InternLM issue 237)."}};
    }
  }
  const std::string against = " (median squared z-score " + significant(std::min(exact, single), 4) + ")";
  if (const double accumulated = accumulated_misfit(detection, convention); accumulated <= misfit_limit) {
    return {{HazardKind::frequency_accumulation,
             "the frequencies are base " + base_text(convention) + "'s as ggml builds them: each pair's angle by "
             "repeated float32 multiplication (theta *= theta_scale, theta_scale = powf(base, -2/d) in float32; "
             "z-score " + significant(accumulated, 4) + ", against the exact rule" + against + "); a base fitted "
             "to them, " + significant(detection.fitted_base, 9) + ", is the trace of the accumulation, not another base."}};
  }
  for (const ConfigMisreading& m : config_misreadings(convention)) {
    const double misfit = std::min(frequency_misfit(detection, rotary_inv_freqs(m.convention, std::nullopt)),
                                   frequency_misfit(detection, rotary_inv_freqs(m.convention, FormatId::float32)));
    if (misfit <= misfit_limit) {
      return {{HazardKind::wrong_scaling, "the frequencies are the config read wrong: " + m.what + " (z-score " +
                                              significant(misfit, 4) + ", against the config's rule" + against + ")."}};
    }
  }
  double best = std::numeric_limits<double>::infinity();
  std::optional<RotaryConvention> found;
  for (const RotaryConvention& candidate : candidate_conventions(detection, rows)) {
    const double misfit = std::min(frequency_misfit(detection, rotary_inv_freqs(candidate, std::nullopt)),
                                   frequency_misfit(detection, rotary_inv_freqs(candidate, FormatId::float32)));
    if (misfit < best) best = misfit, found = candidate;
  }
  if (!found || best > misfit_limit) {
    return {{HazardKind::custom_rule, "the frequencies follow neither the convention's rule" + against +
                                          " nor a preset's nor a fitted base's: a custom rule, " +
                                          ladder_text(fitted_rule(detection)) + "."}};
  }
  if (found->scaling.kind != convention.scaling.kind || found->scaling.factor != convention.scaling.factor) {
    return {{HazardKind::wrong_scaling,
             "the frequencies follow " + describe(*found) + " (z-score " + significant(best, 4) + "), not the convention's " +
                 std::string(to_string(convention.scaling.kind)) + " scaling" + against + "."}};
  }
  return {{HazardKind::wrong_base, "the frequencies follow base " + base_text(*found) + " (z-score " +
                                             significant(best, 4) + "), not the convention's base " + base_text(convention) +
                                             against + "."}};
}

std::vector<Hazard> computation_hazards(const Table& cos, const Table& sin, FormatId format,
                                              const RotaryDetection& detection, const RotaryConvention& convention,
                                              double attention_factor) {
  using F = FormatId;
  const std::vector<RotaryComputation> computations = {
      {"exact", std::nullopt, std::nullopt, std::nullopt},
      {"float32 (transformers)", F::float32, F::float32, F::float32},
      {"positions in bfloat16", F::float32, F::bfloat16, F::float32},
      {"positions in float16", F::float32, F::float16, F::float32},
      {"angles in bfloat16", F::float32, F::float32, F::bfloat16},
      {"angles in float16", F::float32, F::float32, F::float16},
      {"inv_freq, positions and angles in float16", F::float16, F::float16, F::float16},
      {"inv_freq, positions and angles in bfloat16", F::bfloat16, F::bfloat16, F::bfloat16},
      {"inv_freq in bfloat16", F::bfloat16, F::float32, F::float32},
      {"inv_freq in float16", F::float16, F::float32, F::float32},
  };
  const std::vector<std::int64_t> rows = spread_rows(cos.rows, hypothesis_rows);
  std::vector<std::int64_t> positions;
  for (std::int64_t r : rows) positions.push_back(detection.first_position + r);
  const Format& f = format_of(format);
  std::vector<double> rms;
  for (const RotaryComputation& computation : computations) {
    const RotaryValues values = rotary_values(convention, positions, computation, attention_factor);
    double squares = 0.0;
    double count = 0.0;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      for (std::int64_t i = 0; i < values.frequencies; ++i) {
        const std::int64_t c = frequency_column(detection.layout, cos.cols, i);
        const auto index = k * static_cast<std::size_t>(values.frequencies) + static_cast<std::size_t>(i);
        // A swapped cache is judged on what it would hold unswapped.
        const double table_cos = detection.swapped ? sin.at(rows[k], c) : cos.at(rows[k], c);
        const double table_sin = detection.swapped ? cos.at(rows[k], c) : sin.at(rows[k], c);
        const double dc = table_cos - round_to_format(values.cos[index], f);
        const double ds = table_sin - round_to_format(values.sin[index], f);
        if (!std::isfinite(dc) || !std::isfinite(ds)) continue;
        squares += dc * dc + ds * ds;
        count += 2.0;
      }
    }
    rms.push_back(count > 0.0 ? std::sqrt(squares / count) : std::numeric_limits<double>::infinity());
  }
  std::size_t best = 0;
  for (std::size_t k = 1; k < rms.size(); ++k) {
    if (rms[k] < rms[best]) best = k;
  }
  const double correct = std::min(rms[0], rms[1]);
  // Half the RMS of the correct computations: a fault's own values explain
  // the cache, not rounding noise that both fit alike.
  if (best < 2 || !(rms[best] < 0.5 * correct)) return {};
  const RotaryComputation& fault = computations[best];
  const std::string evidence = "the cache is the " + fault.name + " computation: RMS distance " + significant(rms[best], 4) +
                               " to it over " + std::to_string(rows.size()) + " rows, against " + significant(correct, 4) +
                               " to the exact and float32 ones";
  if (fault.inv_freq == fault.position && fault.position == fault.angle) {
    return {{HazardKind::angle_precision, evidence + " (caches built in half precision: gpt-neox issue 1003, "
                                                           "transformers issue 25681)."}};
  }
  if (fault.position != F::float32) {
    return {{HazardKind::position_precision,
             evidence + " (positions held in a 16-bit format at long context: candle PR 3520)."}};
  }
  if (fault.angle != F::float32) {
    return {{HazardKind::angle_precision, evidence + " (angles in a low precision: gpt-neox issue 1003)."}};
  }
  return {{HazardKind::inv_freq_precision,
           evidence + " (inv_freq cast with the module: Megatron-LM issue 744, InternLM issue 237)."}};
}

}  // namespace pecheck::validate
