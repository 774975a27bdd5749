#include "rotary_diagnosis.hpp"

#include <atomic>
#include <cmath>
#include <limits>
#include <sstream>

#include "rotary_config_faults.hpp"
#include "rotary_custom_rule.hpp"
#include "rotary_frequency_match.hpp"
#include "rotary_layout.hpp"
#include "pecheck/number_text.hpp"
#include "pecheck/parallel_for.hpp"
#include "pecheck/reference/nearest_rounding.hpp"

namespace pecheck::validate {

namespace {

constexpr double misfit_limit = frequency_misfit_limit;
// Rows the computations are evaluated on.
constexpr std::int64_t hypothesis_rows = 512;

std::string base_text(const RotaryConvention& c) { return significant(rotary_derived(c).effective_base, 7); }

// The RMS distance of the cache to ggml's computation of the convention:
// theta = p in float32, pair i's angle theta (times the rule's ratio to the
// plain ladder, ggml's freq_factors, in float32), then theta *= theta_scale in
// float32; cos and sin of the float32 angle times the attention factor,
// rounded to the cache's format. The smallest over theta_scale and its two
// float32 neighbours (a libm's powf may be an ULP off).
double accumulated_rms(const Table& cos, const Table& sin, const Format& f, const RotaryDetection& detection,
                       const RotaryConvention& convention, const std::vector<std::int64_t>& rows, double factor) {
  const RotaryDerived d = rotary_derived(convention);
  const std::vector<double> exact = rotary_inv_freqs(convention, std::nullopt);
  const double dims = static_cast<double>(d.dims);
  std::vector<float> ratio;
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const double plain = std::pow(d.effective_base, -2.0 * static_cast<double>(i) / dims);
    const double r = exact[i] / plain;
    ratio.push_back(std::fabs(r - 1.0) < 1e-6 ? 1.0F : static_cast<float>(r));
  }
  const auto scale0 = static_cast<float>(std::pow(static_cast<double>(static_cast<float>(d.effective_base)), -2.0 / dims));
  double best = std::numeric_limits<double>::infinity();
  for (const float scale : {scale0, std::nextafter(scale0, 0.0F), std::nextafter(scale0, 2.0F)}) {
    double squares = 0.0;
    double count = 0.0;
    for (const std::int64_t r : rows) {
      auto theta = static_cast<float>(detection.first_position + r);
      for (std::size_t i = 0; i < exact.size(); ++i) {
        const float angle = ratio[i] == 1.0F ? theta : theta * ratio[i];
        theta *= scale;
        const std::int64_t c = frequency_column(detection.layout, cos.cols, static_cast<std::int64_t>(i));
        const double table_cos = detection.swapped ? sin.at(r, c) : cos.at(r, c);
        const double table_sin = detection.swapped ? cos.at(r, c) : sin.at(r, c);
        // round_nearest: round_to_format by the bits where it can (the same values).
        const double dc = table_cos - reference::round_nearest(factor * std::cos(static_cast<double>(angle)), f);
        const double ds = table_sin - reference::round_nearest(factor * std::sin(static_cast<double>(angle)), f);
        if (!std::isfinite(dc) || !std::isfinite(ds)) continue;
        squares += dc * dc + ds * ds;
        count += 2.0;
      }
    }
    if (count > 0.0) best = std::min(best, std::sqrt(squares / count));
  }
  return best;
}

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
  const std::vector<double> own_exact = rotary_inv_freqs(convention, std::nullopt);
  const std::vector<double> own_single = rotary_inv_freqs(convention, FormatId::float32);
  const double own = std::min(frequency_misfit(detection, own_exact), frequency_misfit(detection, own_single));
  if (!std::isfinite(own)) return {};
  // The median squared z-score ignores a few frequencies off; a misreading
  // that moves one band (YaRN's ramp when truncate is flipped, Llama 3's low
  // band under another factor) leaves the median fitting. Then a rule
  // explains the cache when it has no frequency off where the convention has some.
  const bool median_fits = own <= misfit_limit;
  if (median_fits && std::min(frequency_outliers(detection, own_exact), frequency_outliers(detection, own_single)) == 0) {
    return {};
  }
  const auto explains = [&](const std::vector<double>& w) {
    return median_fits ? frequency_outliers(detection, w) == 0 : frequency_misfit(detection, w) <= misfit_limit;
  };
  const auto rule_explains = [&](const RotaryConvention& c) {
    return explains(rotary_inv_freqs(c, std::nullopt)) || explains(rotary_inv_freqs(c, FormatId::float32));
  };
  const std::string against = " (median squared z-score " + significant(own, 4) + ")";
  for (FormatId narrow : {FormatId::bfloat16, FormatId::float16}) {
    const std::vector<double> held = rotary_inv_freqs(convention, narrow);
    if (explains(held)) {
      return {{HazardKind::inv_freq_precision,
               "the frequencies are the convention's inv_freq rounded to " + std::string(format_of(narrow).name) +
                   " (median squared z-score " + significant(frequency_misfit(detection, held), 4) + " against " +
                   significant(own, 4) +
                   " for float32 inv_freq): inv_freq cast with the module (Megatron-LM issue 744, InternLM issue 237)."}};
    }
  }
  for (int neighbour : {0, -1, 1}) {
    if (explains(accumulated_inv_freqs(convention, neighbour))) {
      return {{HazardKind::frequency_accumulation,
               "the frequencies are base " + base_text(convention) + "'s as ggml builds them: each pair's angle by "
               "repeated float32 multiplication (theta *= theta_scale, theta_scale = powf(base, -2/d) in float32; "
               "z-score " + significant(accumulated_misfit(detection, convention), 4) + ", against the exact rule" +
               against + "); a base fitted to them, " + significant(detection.fitted_base, 9) +
               ", is the trace of the accumulation, not another base."}};
    }
  }
  for (const ConfigMisreading& m : config_misreadings(convention)) {
    if (rule_explains(m.convention)) {
      return {{HazardKind::wrong_scaling,
               "the frequencies are the config read wrong: " + m.what + " (against the config's rule" + against + ")."}};
    }
  }
  std::optional<RotaryConvention> found;
  double best = std::numeric_limits<double>::infinity();
  for (const RotaryConvention& candidate : candidate_conventions(detection, rows)) {
    const double misfit = rule_misfit(detection, candidate);
    if (rule_explains(candidate) && misfit < best) best = misfit, found = candidate;
  }
  if (!found) {
    if (median_fits) return {};  // a few frequencies off that no rule explains: the comparison judges them
    return {{HazardKind::custom_rule, "the frequencies follow neither the convention's rule" + against +
                                          " nor a preset's nor a fitted base's: a custom rule, " +
                                          ladder_text(fitted_rule(detection)) + "."}};
  }
  if (found->scaling.kind == RotaryScalingKind::dynamic_ntk && convention.scaling.kind == RotaryScalingKind::dynamic_ntk &&
      found->scaling.sequence_length > std::max(convention.scaling.sequence_length, convention.scaling.original_max_position)) {
    return {{HazardKind::wrong_scaling,
             "the frequencies follow " + describe(*found) + " (z-score " + significant(best, 4) +
                 "): dynamic NTK's base for a longer call than this one's (length " +
                 std::to_string(convention.scaling.sequence_length) +
                 "), the state of an earlier call kept (transformers issue 25306, vllm issue 52665)" + against + "."}};
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
  // The RMS distance to computation k.
  const auto distance = [&](const RotaryComputation& computation) {
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
        // round_nearest: round_to_format by the bits where it can (the same values).
        const double dc = table_cos - reference::round_nearest(values.cos[index], f);
        const double ds = table_sin - reference::round_nearest(values.sin[index], f);
        if (!std::isfinite(dc) || !std::isfinite(ds)) continue;
        squares += dc * dc + ds * ds;
        count += 2.0;
      }
    }
    return count > 0.0 ? std::sqrt(squares / count) : std::numeric_limits<double>::infinity();
  };
  // Each computation's distance, and ggml's, is a task of its own (each sums
  // in its own fixed order, so the split changes no bit): this runs before the
  // comparisons, on every core instead of one.
  std::vector<double> rms(computations.size());
  double accumulated = 0.0;
  // Tasks are taken as workers come free (eleven tasks on two cores split
  // unevenly by a fixed stride). Task 0 is ggml's (it evaluates three
  // scales, the longest task, so it goes first), task t > 0 computation
  // t - 1. Each writes its own result, so the order of taking changes no bit.
  const auto run_tasks = [&](const std::vector<std::size_t>& tasks) {
    const int workers = worker_count(0, static_cast<std::int64_t>(tasks.size()));
    std::atomic<std::size_t> next{0};
    parallel_for(workers, [&](int) {
      for (std::size_t k = next++; k < tasks.size(); k = next++) {
        const std::size_t t = tasks[k];
        if (t == 0) {
          accumulated = accumulated_rms(cos, sin, f, detection, convention, rows, attention_factor);
        } else {
          rms[t - 1] = distance(computations[t - 1]);
        }
      }
    });
  };
  // The exact and float32 computations first: a cache at distance 0 from
  // either is that computation, and no fault can be nearer than half of 0
  // (the rules below name none whatever the other distances are), so the
  // others are not evaluated (a correct cache, the common case).
  run_tasks({1, 2});
  if (std::min(rms[0], rms[1]) == 0.0) return {};
  std::vector<std::size_t> rest = {0};
  for (std::size_t t = 3; t <= computations.size(); ++t) rest.push_back(t);
  run_tasks(rest);
  std::size_t best = 0;
  for (std::size_t k = 1; k < rms.size(); ++k) {
    if (rms[k] < rms[best]) best = k;
  }
  const double correct = std::min(rms[0], rms[1]);
  if (accumulated < 0.5 * correct && accumulated < rms[best]) {
    return {{HazardKind::frequency_accumulation,
             "the cache is base " + base_text(convention) + "'s computation as ggml builds it, each pair's angle by "
             "repeated float32 multiplication (theta *= theta_scale): RMS distance " + significant(accumulated, 4) +
                 " to it over " + std::to_string(rows.size()) + " rows, against " + significant(correct, 4) +
                 " to the exact and float32 ones (llama.cpp's ggml rope)."}};
  }
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
