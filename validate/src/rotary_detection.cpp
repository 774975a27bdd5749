// What a rotary cache holds, from the cache alone: the column pairing, the
// attention factor (cos^2 + sin^2), the direction of the angles (cos and sin
// swapped), each frequency (the slope of the unwrapped angle over successive
// rows, frequency_fit.hpp), the rule those frequencies follow, and the
// position row 0 holds.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "frequency_fit.hpp"
#include "position_steps.hpp"
#include "rotary_custom_rule.hpp"
#include "rotary_detection.hpp"
#include "rotary_diagnosis.hpp"
#include "rotary_dynamic_ntk.hpp"
#include "rotary_fit_rows.hpp"
#include "rotary_frequency_match.hpp"
#include "rotary_layout.hpp"
#include "rotary_placement.hpp"
#include "pecheck/validate/rotary_validation.hpp"

namespace pecheck::validate {

namespace {

constexpr std::int64_t position_limit = std::int64_t{1} << 24;
// Rows the frequencies are fitted on (consecutive, from row 0) and rows the
// norms are read on (spread): enough to pin a frequency to ~10^-11.
constexpr std::int64_t fit_rows_count = 2048;
constexpr std::int64_t norm_rows = 256;

// The median of sqrt(cos^2 + sin^2) and the largest distance from it.
void measure_norms(const Table& cos, const Table& sin, FormatId format, RotaryDetection& detection) {
  std::vector<std::int64_t> columns;
  for (std::int64_t i = 0; i < detection.frequencies; ++i) {
    columns.push_back(frequency_column(detection.layout, cos.cols, i));
  }
  const std::vector<std::int64_t> rows = spread_rows(cos.rows, norm_rows);
  std::vector<double> norms;
  norms.reserve(rows.size() * columns.size());
  for (std::int64_t r : rows) {
    for (std::int64_t c : columns) {
      const double norm = std::hypot(cos.at(r, c), sin.at(r, c));
      if (std::isfinite(norm)) norms.push_back(norm);
    }
  }
  if (norms.empty()) return;
  std::nth_element(norms.begin(), norms.begin() + static_cast<std::ptrdiff_t>(norms.size() / 2), norms.end());
  detection.attention_factor = norms[norms.size() / 2];
  double spread = 0.0;
  std::int64_t close = 0;
  // A pair of values each within 2 ULP of A cos and A sin has a norm within
  // 2 sqrt(2) ULP(A) ~ 3 * 2^(1-p) A of A; 8 * 2^-p A leaves room for one more rounding.
  const double tolerance = 8.0 * std::ldexp(detection.attention_factor, -format_of(format).precision);
  for (double norm : norms) {
    spread = std::max(spread, std::fabs(norm - detection.attention_factor));
    close += std::fabs(norm - detection.attention_factor) <= tolerance;
  }
  detection.norm_spread = spread;
  detection.rotary = detection.attention_factor > 0.0 && static_cast<double>(close) >= 0.9 * static_cast<double>(norms.size());
}

// No candidate's rule explains the fitted frequencies within their
// uncertainty. Before the fitted ladder is taken as a custom rule, the
// faults that damage a rule's frequencies are tried on every candidate, so
// that a damaged cache is named by its cause (rotary_diagnosis.hpp) and not
// by a base fitted from the damage: inv_freq held in bfloat16 or float16,
// ggml's accumulated ladder, then angles or positions in a low precision
// (the nearest rule's computations against the values themselves).
// Returns the frequencies the cache's angles were built with, to place row 0
// by, when they are not the settled rule's own.
std::optional<std::vector<double>> settle_unexplained(RotaryDetection& detection, const Table& cos, const Table& sin,
                                                      FormatId format, const Table& row0,
                                                      const std::vector<RotaryConvention>& candidates, double best) {
  for (const RotaryConvention& candidate : candidates) {
    for (FormatId narrow : {FormatId::bfloat16, FormatId::float16}) {
      std::vector<double> held = rotary_inv_freqs(candidate, narrow);
      if (frequency_misfit(detection, held) <= frequency_misfit_limit) {
        detection.convention = candidate;
        detection.convention_note = "the rule whose inv_freq rounded to " + std::string(format_of(narrow).name) +
                                    " fits the cache's frequencies";
        return held;
      }
    }
    for (int neighbour : {0, -1, 1}) {
      std::vector<double> accumulated = accumulated_inv_freqs(candidate, neighbour);
      if (frequency_misfit(detection, accumulated) <= frequency_misfit_limit) {
        detection.convention = candidate;
        detection.convention_note =
            "the rule whose frequencies, accumulated in float32 as ggml builds them, fit the cache's";
        return accumulated;
      }
    }
  }
  const RotaryConvention nearest = *detection.convention;
  RotaryDetection placed = detection;
  placed.first_position = fit_first_position(row0_angles(row0, detection.frequencies, detection.swapped),
                                             rotary_inv_freqs(nearest, std::nullopt), cos.rows);
  if (!computation_hazards(cos, sin, format, placed, nearest, detection.attention_factor).empty()) {
    detection.convention_note = "the nearest rule (median squared z-score " + std::to_string(best) +
                                "), whose low-precision computation explains the cache's values";
    return std::nullopt;
  }
  detection.convention = fitted_rule(detection);
  detection.convention_note = "a custom rule: no preset, fitted base or config rule explains the fitted frequencies "
                              "(the nearest, " + nearest.name + ", scores a median squared z-score of " +
                              std::to_string(best) + "); the cache is compared against the fitted ladder";
  detection.notes.push_back("custom rule: " + ladder_text(*detection.convention));
  return std::nullopt;
}

// A detected dynamic NTK's (factor, L): the one with L = last position + 1
// (HF's dynamic update), else the candidates listed.
void resolve_dynamic_ntk(RotaryDetection& detection, std::int64_t rows) {
  std::vector<RotaryConvention>& alternatives = detection.dynamic_ntk_alternatives;
  if (alternatives.empty()) return;
  const std::int64_t last = detection.first_position + rows - 1;
  const std::int64_t k = dynamic_ntk_by_length(alternatives, last);
  if (k >= 0) {
    detection.convention = alternatives[static_cast<std::size_t>(k)];
    alternatives = {*detection.convention};
    detection.notes.push_back("dynamic NTK: " + dynamic_ntk_text(*detection.convention) +
                              "; L is the cache's last position + 1, as transformers' dynamic update takes "
                              "max(position_ids) + 1");
    return;
  }
  if (alternatives.size() == 1) {
    detection.notes.push_back("dynamic NTK: " + dynamic_ntk_text(alternatives.front()) +
                              "; the only tried factor with a whole L that fits");
    return;
  }
  std::string listed;
  for (const RotaryConvention& c : alternatives) listed += (listed.empty() ? "" : "; ") + dynamic_ntk_text(c);
  detection.notes.push_back("dynamic NTK, ambiguous: " + std::to_string(alternatives.size()) +
                            " (factor, L) pairings build the same frequencies and none has L = the last position "
                            "+ 1 (" + std::to_string(last + 1) + "): " + listed +
                            ". The comparison holds for each; give --config to name the factor.");
}

}  // namespace

RotaryDetection detect_rotary(const Table& cos, const Table& sin, FormatId value_format,
                              const std::optional<RotaryConvention>& given, std::optional<std::int64_t> first_position) {
  SuccessiveRows rows;
  return detect_rotary(cos, sin, value_format, given, first_position, 0, nullptr, [&]() -> const SuccessiveRows& {
    rows = successive_rows(cos.view());
    return rows;
  });
}

RotaryDetection detect_rotary(const Table& cos, const Table& sin, FormatId value_format,
                              const std::optional<RotaryConvention>& given, std::optional<std::int64_t> first_position,
                              int threads, SharedTasks* helper,
                              const std::function<const SuccessiveRows&()>& successive_of_cos) {
  RotaryDetection detection;
  const RotaryLayoutFit layout = fit_rotary_layout(cos, sin, spread_rows(cos.rows, norm_rows));
  detection.layout = layout.layout;
  detection.frequencies = frequency_count(layout.layout, cos.cols);
  if (layout.layout == RotaryLayout::complex_form && given && given->layout != RotaryLayout::complex_form) {
    detection.notes.push_back("no column equals its rotate-half twin (c, c + n) nor its interleaved twin (2i, 2i + 1) "
                              "in 90% of the rows: read as distinct frequencies");
  }
  measure_norms(cos, sin, value_format, detection);
  if (!detection.rotary) return detection;

  const std::int64_t n = detection.frequencies;
  // The fits' threads copy the rows of the frequencies they fit as they start on them.
  RotaryFitRows fit_rows(cos, sin, detection.layout, n, std::min(cos.rows, fit_rows_count));
  std::vector<std::int64_t> run;
  for (std::int64_t r = 0; r < std::min(cos.rows, fit_rows_count); ++r) run.push_back(r);
  std::vector<FrequencyEstimate> estimates = estimate_frequencies(
      [&fit_rows](std::size_t first, std::size_t count) -> const Table& { return fit_rows.group(first, count); }, run,
      fit_rows.columns(), value_format, EstimateSharing{{}, threads, helper});
  // The fits were the helper's last shared work: it finishes what else it
  // has and ends, rather than wait to be woken when detection is done.
  if (helper != nullptr) helper->close();
  const Table row0 = rotary_row0_pairs(cos, sin, detection.layout, n);
  // cos and sin exchanged turn the angle a into pi/2 - a: the angles run backwards.
  detection.swapped = orientation(estimates) < 0;
  detection.inv_freq.assign(static_cast<std::size_t>(n), 0.0);
  detection.inv_freq_sigma.assign(static_cast<std::size_t>(n), std::numeric_limits<double>::infinity());
  for (FrequencyEstimate& e : estimates) {
    if (detection.swapped) e.w = -e.w;
    detection.inv_freq[static_cast<std::size_t>(e.frequency_index)] = e.w;
    detection.inv_freq_sigma[static_cast<std::size_t>(e.frequency_index)] = e.sigma;
  }
  // The unscaled rule's base: ln w_i = -(2i / d) ln base over the cache width d = 2n.
  if (const auto ladder = fit_ladder(estimates); ladder && ladder->slope < 0.0) {
    detection.fitted_base = std::exp(-ladder->slope * static_cast<double>(n));
  }

  std::optional<std::vector<double>> placing;  // the frequencies to place row 0 by, when not the rule's own
  if (given) {
    detection.convention = given;
    detection.convention_note = "given";
  } else {
    double best = std::numeric_limits<double>::infinity();
    std::vector<std::pair<RotaryConvention, double>> dynamic;
    const std::vector<RotaryConvention> candidates = candidate_conventions(detection, cos.rows);
    for (const RotaryConvention& candidate : candidates) {
      const double misfit = frequency_misfit(detection, rotary_inv_freqs(candidate, std::nullopt));
      if (candidate.scaling.kind == RotaryScalingKind::dynamic_ntk) dynamic.push_back({candidate, misfit});
      // The first (a preset before a fitted base) wins a tie within a factor 2.
      if (misfit < 0.5 * best || (misfit < best && !detection.convention)) {
        best = misfit;
        detection.convention = candidate;
      }
    }
    if (detection.convention && detection.convention->scaling.kind == RotaryScalingKind::dynamic_ntk) {
      // Every pairing that fits as well (a misfit of 1 or less is a fit) builds the same frequencies.
      detection.dynamic_ntk_alternatives.push_back(*detection.convention);
      for (const auto& [candidate, misfit] : dynamic) {
        const RotaryScaling& s = candidate.scaling;
        const RotaryScaling& chosen = detection.convention->scaling;
        const bool same = s.factor == chosen.factor && s.sequence_length == chosen.sequence_length &&
                          s.original_max_position == chosen.original_max_position && candidate.base == detection.convention->base;
        if (!same && misfit <= std::max(2.0 * best, 1.0)) detection.dynamic_ntk_alternatives.push_back(candidate);
      }
    }
    if (detection.convention) {
      detection.convention_note = "the rule whose frequencies fit the cache's best (median squared z-score " +
                                  std::to_string(best) + ")";
    }
    // The unrounded fitted base fits where a round one does not: the trace of
    // ggml's accumulation when a candidate's accumulated ladder fits too.
    const bool unrounded = detection.convention && detection.convention->base == detection.fitted_base &&
                           detection.convention->scaling.kind == RotaryScalingKind::none;
    if (detection.convention && (best > frequency_misfit_limit || unrounded)) {
      const RotaryConvention chosen = *detection.convention;
      const std::string chosen_note = detection.convention_note;
      placing = settle_unexplained(detection, cos, sin, value_format, row0, candidates, best);
      if (unrounded && best <= frequency_misfit_limit &&
          detection.convention->scaling.kind == RotaryScalingKind::fitted) {
        // The unrounded base explains them after all: no custom rule.
        detection.notes.pop_back();
        detection.convention = chosen;
        detection.convention_note = chosen_note;
        placing.reset();
      }
    }
  }

  // Successive identical rows: positions held in bfloat16 or float16. The
  // steps of the two formats repeat alike in different binades (bfloat16 at
  // 256..511 as float16 at 2048..4095): each format's candidates are kept,
  // and the angles choose.
  const SuccessiveRows& successive = successive_of_cos();
  detection.identical_pairs = successive.identical_pairs;
  std::vector<PositionSteps> steps;
  for (FormatId format : {FormatId::bfloat16, FormatId::float16}) {
    if (successive.identical_pairs == 0) break;
    if (auto fit = fit_position_steps(successive, 0, position_limit - cos.rows, {format})) steps.push_back(*fit);
  }
  // Where the angles place row 0, under the convention settled: the row
  // offset when none is given, and the evidence against a given one.
  std::optional<std::int64_t> placed;
  if (detection.convention) {
    placed = fit_first_position(row0_angles(row0, n, detection.swapped),
                                placing ? *placing : rotary_inv_freqs(*detection.convention, std::nullopt), cos.rows);
  }
  detection.placed_position = placed;
  if (first_position) {
    detection.first_position = *first_position;
    for (const PositionSteps& fit : steps) {
      const auto& p = fit.first_positions;
      if (std::find(p.begin(), p.end(), *first_position) != p.end()) detection.positions_held_in = fit.format;
    }
    // Past 256 P0 that fit, fit_position_steps lists none: the format groups the rows all the same.
    for (const PositionSteps& fit : steps) {
      if (!detection.positions_held_in && fit.first_positions.empty()) detection.positions_held_in = fit.format;
    }
  } else if (placed) {
    const std::int64_t held = *placed;
    detection.first_position = held;
    // Rows grouped by rounded positions: row 0 holds the rounded position of
    // some P0 the steps allow; the one whose rounding is nearest what the angles say.
    std::optional<std::pair<FormatId, std::int64_t>> chosen;
    std::int64_t distance = 0;
    for (const PositionSteps& fit : steps) {
      for (std::int64_t p0 : fit.first_positions) {
        const std::int64_t off = std::llabs(held_position(p0, fit.format) - held);
        if (!chosen || off < distance) chosen = std::pair{fit.format, p0}, distance = off;
      }
    }
    // The angles give row 0's rounded position exactly; a P0 of the steps
    // that rounds elsewhere is the other format's look-alike binade.
    if (chosen && distance <= 1) {
      detection.positions_held_in = chosen->first;
      detection.first_position = chosen->second;
      detection.notes.push_back("row 0 placed by the steps of identical rows (positions held in " +
                                std::string(format_of(chosen->first).name) + ")");
    } else {
      for (const PositionSteps& fit : steps) {
        if (!detection.positions_held_in && fit.first_positions.empty()) detection.positions_held_in = fit.format;
      }
    }
  }
  resolve_dynamic_ntk(detection, cos.rows);
  return detection;
}

}  // namespace pecheck::validate
