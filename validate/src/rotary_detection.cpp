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
#include "rotary_dynamic_ntk.hpp"
#include "rotary_frequency_match.hpp"
#include "rotary_layout.hpp"
#include "pecheck/validate/rotary_validation.hpp"

namespace pecheck::validate {

namespace {

constexpr double two_pi = 2.0 * std::numbers::pi;
constexpr std::int64_t position_limit = std::int64_t{1} << 24;
// Rows the frequencies are fitted on (consecutive, from row 0) and rows the
// norms are read on (spread): enough to pin a frequency to ~10^-11.
constexpr std::int64_t fit_rows = 2048;
constexpr std::int64_t norm_rows = 256;

double wrap(double angle) { return angle - two_pi * std::nearbyint(angle / two_pi); }

// [sin of each frequency | cos of each frequency] in float64, rows 0..count-1.
Table angle_table(const Table& cos, const Table& sin, RotaryLayout layout, std::int64_t n, std::int64_t count) {
  Table pairs = make_table(count, 2 * n, FormatId::float64);
  for (std::int64_t r = 0; r < count; ++r) {
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t c = frequency_column(layout, cos.cols, i);
      pairs.set(r, i, sin.at(r, c));
      pairs.set(r, n + i, cos.at(r, c));
    }
  }
  return pairs;
}

// The median of sqrt(cos^2 + sin^2) and the largest distance from it.
void measure_norms(const Table& cos, const Table& sin, FormatId format, RotaryDetection& detection) {
  std::vector<double> norms;
  for (std::int64_t r : spread_rows(cos.rows, norm_rows)) {
    for (std::int64_t i = 0; i < detection.frequencies; ++i) {
      const std::int64_t c = frequency_column(detection.layout, cos.cols, i);
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

// The position p of row 0 with p * v_i = angle_i (mod 2 pi) for every i: the
// slowest frequency pins p modulo 2 pi / v_min; each candidate below 2^24 is
// walked up the ladder, every faster frequency correcting it by its wrapped
// angle error (safe while that error times the next frequency stays below pi,
// as the ladder's small ratios ensure), then rounded and scored by the sum of
// squared angle errors over every frequency.
std::int64_t fit_first_position(const std::vector<double>& angles, const std::vector<double>& inv_freq,
                                std::int64_t rows) {
  std::vector<std::size_t> order(inv_freq.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return inv_freq[a] < inv_freq[b]; });
  const double slowest = inv_freq[order.front()];
  const auto last_first = static_cast<double>(position_limit - rows);
  std::int64_t best = 0;
  double best_score = std::numeric_limits<double>::infinity();
  for (double start = wrap(angles[order.front()]) < 0 ? wrap(angles[order.front()]) + two_pi : wrap(angles[order.front()]);
       start / slowest <= last_first + 1.0; start += two_pi) {
    double p = start / slowest;
    for (std::size_t k = 1; k < order.size(); ++k) {
      const std::size_t i = order[k];
      p += wrap(angles[i] - p * inv_freq[i]) / inv_freq[i];
    }
    const auto candidate = static_cast<std::int64_t>(std::clamp(std::nearbyint(p), 0.0, last_first));
    double score = 0.0;
    for (std::size_t i = 0; i < inv_freq.size(); ++i) {
      const double e = wrap(angles[i] - static_cast<double>(candidate) * inv_freq[i]);
      score += e * e;
    }
    if (score < best_score) best_score = score, best = candidate;
  }
  return best;
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
  const Table pairs = angle_table(cos, sin, detection.layout, n, std::min(cos.rows, fit_rows));
  std::vector<FrequencyColumns> columns;
  for (std::int64_t i = 0; i < n; ++i) columns.push_back({i, i, n + i});
  std::vector<std::int64_t> run;
  for (std::int64_t r = 0; r < pairs.rows; ++r) run.push_back(r);
  std::vector<FrequencyEstimate> estimates = estimate_frequencies(pairs, run, columns, value_format);
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

  if (given) {
    detection.convention = given;
    detection.convention_note = "given";
  } else {
    double best = std::numeric_limits<double>::infinity();
    std::vector<std::pair<RotaryConvention, double>> dynamic;
    for (const RotaryConvention& candidate : candidate_conventions(detection, cos.rows)) {
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
  }

  // Successive identical rows: positions held in bfloat16 or float16. The
  // steps of the two formats repeat alike in different binades (bfloat16 at
  // 256..511 as float16 at 2048..4095): each format's candidates are kept,
  // and the angles choose.
  const SuccessiveRows successive = successive_rows(cos.view());
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
    std::vector<double> angles(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      const double s = pairs.at(0, i);
      const double c = pairs.at(0, n + i);
      angles[static_cast<std::size_t>(i)] = detection.swapped ? std::atan2(c, s) : std::atan2(s, c);
    }
    placed = fit_first_position(angles, rotary_inv_freqs(*detection.convention, std::nullopt), cos.rows);
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
