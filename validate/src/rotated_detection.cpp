#include "rotated_detection.hpp"

#include <algorithm>
#include <cmath>

#include "pecheck/number_text.hpp"
#include "rotary_diagnosis.hpp"
#include "rotary_frequency_match.hpp"

namespace pecheck::validate {

namespace {

// detect_rotary fits frequencies on the first 2048 positions: POS must cover them.
constexpr std::int64_t fit_positions = 2048;
// A pairing is a rotation when this share of the pairs keeps its norm (a fault may spoil a few).
constexpr double rotated_fraction = 0.9;

RotaryLayout pairing_of(RotaryLayout layout) {
  return layout == RotaryLayout::complex_form ? RotaryLayout::interleaved : layout;
}

// The frequency faults the cache diagnosis names (the attention factor is judged here).
std::optional<HazardKind> rotated_kind(HazardKind kind) {
  switch (kind) {
    case HazardKind::inv_freq_precision:
      return HazardKind::inv_freq_precision;
    case HazardKind::wrong_base:
      return HazardKind::wrong_base;
    case HazardKind::wrong_scaling:
      return HazardKind::wrong_scaling;
    case HazardKind::custom_rule:
      return HazardKind::custom_rule;
    default:
      return std::nullopt;
  }
}

// The median |out| / |in| against the convention's factor, within the pairing's
// own tolerance (rotation_norm_tolerance): missing (1), applied twice (A^2), or another value.
std::optional<Hazard> attention_factor_hazard(double measured, double expected, FormatId format) {
  const double relative = rotation_norm_tolerance(format);
  const auto near = [&](double a, double b) { return std::fabs(a - b) <= relative * std::max(a, b); };
  if (near(measured, expected)) return std::nullopt;
  std::string what = "the median |out| / |in| over the pairs is " + significant(measured, 6) +
                     ", the convention's attention factor " + significant(expected, 6);
  if (near(measured, 1.0)) {
    what += ": the attention factor is missing";
  } else if (near(measured, expected * expected)) {
    what += ": the attention factor is applied twice (" + significant(expected * expected, 6) + " = factor^2)";
  }
  return Hazard{HazardKind::attention_factor,
                       what + " (transformers multiplies cos and sin by attention_scaling once)."};
}

// A truncated partial rotary whose kernel pairs across the whole head and
// changes only the first d/2 columns of each half: the proportional form
// (frequencies over head_dim) where the rotary width's is expected.
std::string proportional_note(const RotaryConvention& given, std::int64_t width, std::int64_t changed,
                              std::int64_t head_dim) {
  const RotaryDerived d = rotary_derived(given);
  if (given.partial_form != PartialRotaryForm::truncated || width != head_dim || d.dims >= head_dim ||
      changed != head_dim / 2 + d.frequencies) {
    return "";
  }
  return "; it pairs (i, i + head_dim/2) and changes the first " + std::to_string(d.frequencies) +
         " columns of each half: the proportional form (frequencies over head_dim) where the convention's are over "
         "the rotary width (pie-project/pie PR 603)";
}

}  // namespace

RotatedDetection detect_rotated(const RotatedValues& values, const RotatedTokens& tokens, FormatId format,
                                const RotatedOptions& options, RotatedFindings& findings) {
  RotatedDetection out;
  findings.shape = tokens.shape;
  findings.sequence_axis = tokens.sequence_axis;
  findings.sequence_axis_note = tokens.sequence_axis_note;
  findings.format = format;
  findings.head_dim = tokens.head_dim;
  const std::optional<RotaryConvention>& given = options.convention;
  const std::int64_t given_width = given ? rotary_derived(*given).dims : 0;

  // The width: the convention's first (a tie keeps it), then what changed, then the whole head.
  const std::int64_t changed = changed_width(values);
  std::vector<std::int64_t> widths;
  if (given_width > 0) widths.push_back(given_width);
  widths.push_back(changed + changed % 2);
  widths.push_back(tokens.head_dim);
  const PairingFit fit = fit_pairing(values, format, widths);
  findings.layout = fit.layout;
  findings.rotary_width = fit.width;
  findings.pairing_fraction = fit.fraction;
  findings.attention_factor = fit.factor;
  if (changed == 0) out.notes.push_back("the output equals the input bit for bit: every angle is zero");
  if (fit.width == 0 || fit.fraction < rotated_fraction) {
    out.hazards.push_back({HazardKind::not_rotated,
                           "no pairing keeps |out| / |in| constant: at best " + significant(100.0 * fit.fraction, 6) +
                               "% of the pairs (" + std::string(to_string(fit.layout)) + ", width " +
                               std::to_string(fit.width) + ") within " + significant(pairing_tolerance(format), 6) +
                               " of the median " + significant(fit.factor, 6) + "."});
    return out;
  }
  out.rotated = true;
  if (changed > fit.width) {
    out.hazards.push_back({HazardKind::pass_through_changed,
                           "columns " + std::to_string(fit.width) + " to " + std::to_string(changed - 1) +
                               " lie beyond the rotary width and differ from the input (column " +
                               std::to_string(changed - 1) + " is the last that does): they must pass unchanged."});
  }
  const std::optional<RotaryLayout> expected_layout =
      options.layout ? options.layout : (given ? std::optional<RotaryLayout>(given->layout) : std::nullopt);
  if (expected_layout && pairing_of(*expected_layout) != fit.layout) {
    out.hazards.push_back({HazardKind::layout_mismatch,
                           "the pairs that keep their norm are " + std::string(to_string(fit.layout)) + " (" +
                               significant(100.0 * fit.fraction, 6) + "% of them), the convention's are " +
                               std::string(to_string(*expected_layout)) +
                               " (NEOX against NORMAL: llama.cpp issue 3018)."});
  }
  if (given_width > 0 && fit.width != given_width) {
    out.hazards.push_back(
        {HazardKind::partial_width,
         "the kernel rotates " + std::to_string(fit.width) + " columns (" + significant(100.0 * fit.fraction, 6) +
             "% of its pairs keep their norm), the convention " + std::to_string(given_width) + " (int(head_dim " +
             std::to_string(given->head_dim) + " x rotary fraction " + significant(given->rotary_fraction, 6) + "))" +
             proportional_note(*given, fit.width, changed, tokens.head_dim) + "."});
  }

  // The angles as a cache: rows are positions first .. first + count - 1.
  std::vector<std::int64_t> sorted = tokens.row_position;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  findings.first_position = sorted.front();
  const std::int64_t count = sorted.back() - sorted.front() + 1;
  const std::int64_t run = std::min(count, fit_positions);
  const bool covered = run >= 2 && sorted.size() >= static_cast<std::size_t>(run) &&
                       sorted[static_cast<std::size_t>(run - 1)] == sorted.front() + run - 1;
  if (!covered || tokens.mrope_ids_differ) {
    // A cache row holds one position: M-RoPE ids that differ turn a row's
    // pairs by up to three, which no cache row is.
    out.notes.push_back(tokens.mrope_ids_differ
                            ? "POS holds M-RoPE ids that differ between temporal, height and width: frequencies, "
                              "direction and offset are not fitted; the convention given is compared as it is, each "
                              "pair at its own section's id"
                            : "POS does not cover a run of consecutive positions: frequencies, direction and offset "
                              "are not fitted; the convention given is compared as it is");
    // At the kernel's width, as the fitted path reads it (the pairs compared are the pairing's).
    if (given) findings.convention = at_cache_width(*given, fit.layout, fit.width / 2);
    if (findings.convention) findings.convention->layout = given->layout;
    findings.convention_note = given ? "given, read at the rotary width " + std::to_string(fit.width) : "";
    return out;
  }
  findings.frequencies_fitted = true;
  const std::int64_t n = fit.width / 2;
  RotationTables tables = rotation_tables(values, tokens.row_position, fit.layout, fit.width, sorted.front(), run);
  std::optional<RotaryConvention> given_at_width;
  if (given) given_at_width = at_cache_width(*given, RotaryLayout::complex_form, n);
  RotaryDetection cache = detect_rotary(tables.cos, tables.sin, format, given_at_width, std::nullopt);
  if (cache.swapped) {
    // Rotation by -theta: the angles run backwards. Read it forwards, and say so.
    for (std::int64_t r = 0; r < tables.sin.rows; ++r) {
      for (std::int64_t i = 0; i < n; ++i) tables.sin.set(r, i, -tables.sin.at(r, i));
    }
    cache = detect_rotary(tables.cos, tables.sin, format, given_at_width, std::nullopt);
    findings.reversed = true;
    out.hazards.push_back({HazardKind::direction,
                           "the angle of out against in decreases with the position: the pairs are rotated by "
                           "-theta (sin negated)."});
  }
  findings.inv_freq = cache.inv_freq;
  findings.fitted_base = cache.fitted_base;
  findings.convention = given_at_width ? given_at_width : cache.convention;
  // Read as a cache in the complex form; the kernel pairs as detected (or as the convention given says).
  if (findings.convention) findings.convention->layout = given ? given->layout : fit.layout;
  findings.convention_note =
      given ? "given, read at the rotary width " + std::to_string(fit.width) : cache.convention_note;
  for (const std::string& note : cache.notes) out.notes.push_back(note);
  if (findings.convention) {
    findings.position_offset = cache.first_position - sorted.front();
    if (findings.position_offset != 0) {
      out.hazards.push_back({HazardKind::position_offset,
                             "the angles put position " + std::to_string(cache.first_position) + " where POS says " +
                                 std::to_string(sorted.front()) + ": the kernel rotates by POS " +
                                 (findings.position_offset > 0 ? "+ " : "- ") +
                                 std::to_string(std::llabs(findings.position_offset)) + "."});
    }
    if (auto h = attention_factor_hazard(fit.factor, rotary_derived(*findings.convention).attention_factor, format)) {
      out.hazards.push_back(*h);
    }
    if (given_at_width) {
      for (const Hazard& h : frequency_hazards(cache, *given_at_width, run)) {
        if (const auto kind = rotated_kind(h.kind)) out.hazards.push_back({*kind, h.evidence});
      }
    }
  }
  out.cache = std::move(cache);
  return out;
}

}  // namespace pecheck::validate
