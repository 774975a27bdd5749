// scaling-variance/energy-ratio: the energy a scaled token embedding brings
// against the encoding's, E||s e||^2 / ||PE||^2, at the paper's width in every
// format and, in float32, across widths (the report's energy-ratio figure
// plots the sweep's Series; reports measure nothing themselves).
#include <cmath>
#include <string>
#include <vector>

#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/tail_bounds.hpp"
#include "scaling_checks.hpp"
#include "scaling_moment_bounds.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties::scaling {

namespace {

using scaling_support::format_number;

// d = 8, 16, ..., the largest width of the run.
std::vector<std::int64_t> sweep_width_list(const RunConfig& config) {
  std::vector<std::int64_t> widths;
  for (std::int64_t d = 8; d <= scaling_support::sized(config, 1024, 4096, 4096); d *= 2) widths.push_back(d);
  return widths;
}

// The ratio's interval: E||s e||^2 is d times the per-component mean
// square, held to d times the per-component interval, over the measured
// encoding energy (exact for the paper's even d: d/2).
Interval ratio_interval(Interval per_component, std::int64_t d, double encoding_energy) {
  return {per_component.lower * static_cast<double>(d) / encoding_energy,
          per_component.upper * static_cast<double>(d) / encoding_energy};
}

// mean ||PE(p)||^2 over the subject's rows 0..positions-1 in the format.
double encoding_energy(const Subject& subject, std::int64_t positions, std::int64_t d, FormatId format) {
  const Table encoding = subject.encoding_table(scaling_support::paper_convention(), {positions, d, 0}, format);
  return scaling_support::mean_square(table_doubles(encoding)) * static_cast<double>(d);
}

// The ratios in float32 at every width of the sweep, each held to its
// interval as at d = 512, and traced as two Series over d.
void sweep_widths(const Subject& subject, const RunConfig& config, std::uint64_t seed, Outcome& outcome) {
  const std::vector<FormatId> offered = scaling_support::formats_of(subject, false);
  if (offered.empty() || offered.front() != FormatId::float32) return;  // float32 comes first when offered
  const std::vector<std::int64_t> widths = sweep_width_list(config);
  const std::int64_t tokens = scaling_support::sized(config, 64, 128, 512);
  const double delta = false_alarm_probability / static_cast<double>(offered.size() + widths.size());
  const Format& format = format_of(FormatId::float32);
  Series scaled{"with the sqrt(d) scale", "d", "energy ratio E||s e||^2 / ||PE||^2", {}, {}};
  Series unscaled{"without the scale", "d", "energy ratio E||s e||^2 / ||PE||^2", {}, {}};
  for (std::size_t k = 0; k < widths.size(); ++k) {
    const std::int64_t d = widths[k];
    const std::int64_t count = tokens * d;
    const ScaledDraw draw =
        draw_scaled(subject, scaling_support::stream_seed(seed, 200 + k), tokens, d, FormatId::float32);
    const double energy = encoding_energy(subject, 256, d, FormatId::float32);
    const double with_scale =
        scaling_support::mean_square(table_doubles(draw.scaled)) * static_cast<double>(d) / energy;
    const double without =
        scaling_support::mean_square(table_doubles(draw.embeddings)) * static_cast<double>(d) / energy;
    const std::string at = ", float32, d = " + std::to_string(d);
    scaling_support::hold_within(outcome, at_width(Quantity::energy_ratio_scaled_at_width, FormatId::float32, d),
                                 "energy ratio with s = sqrt(d)" + at, with_scale,
                                 ratio_interval(scaled_interval(format, draw.scale, count, delta), d, energy), "2");
    scaling_support::hold_within(outcome, at_width(Quantity::energy_ratio_unscaled_at_width, FormatId::float32, d),
                                 "energy ratio without the scale" + at, without,
                                 ratio_interval(unscaled_interval(format, d, count, delta), d, energy),
                                 "2/d = " + format_number(2.0 / static_cast<double>(d)));
    scaled.x.push_back(static_cast<double>(d));
    scaled.y.push_back(with_scale);
    unscaled.x.push_back(static_cast<double>(d));
    unscaled.y.push_back(without);
    outcome.cases += count;
  }
  outcome.series.push_back(std::move(scaled));
  outcome.series.push_back(std::move(unscaled));
}

Outcome run_energy_ratio(const Subject& subject, const RunConfig& config) {
  if (auto not_applicable = scaling_support::require_embedding_operations(subject)) return *not_applicable;
  if (auto no_format = scaling_support::require_formats(subject, false)) return *no_format;
  Outcome outcome;
  const std::vector<FormatId> formats = scaling_support::formats_of(subject, false);
  const std::int64_t d = kPaperDim;
  const std::int64_t positions = 512;
  const std::int64_t vocab = scaling_support::sized(config, 256, 1024, 4096);
  const std::int64_t count = vocab * d;
  // Each format at d = 512 and each width of the sweep is one test: the run fails < 10^-9 in all.
  const double delta = false_alarm_probability / static_cast<double>(formats.size() + sweep_width_list(config).size());
  const std::uint64_t seed = scaling_support::seed_of(config);
  outcome.seed = seed;
  for (std::size_t k = 0; k < formats.size(); ++k) {
    const Format& format = format_of(formats[k]);
    const std::string f(format.name);
    const ScaledDraw draw = draw_scaled(subject, scaling_support::stream_seed(seed, 100 + k), vocab, d, formats[k]);
    const Table encoding = subject.encoding_table(scaling_support::paper_convention(), {positions, d, 0}, formats[k]);
    // mean ||PE(p)||^2 over the rows: d/2 for the paper's even d (one per sin/cos pair).
    const double encoding_energy = scaling_support::mean_square(table_doubles(encoding)) * static_cast<double>(d);
    outcome.statistics.push_back(scaling_support::statistic(
        at_width(Quantity::encoding_energy, formats[k], d),
        f + ": mean ||PE(p)||^2 over positions 0.." + std::to_string(positions - 1) + ", d = " + std::to_string(d),
        encoding_energy, std::nullopt, std::nullopt, "d/2 = " + std::to_string(d / 2) + " exactly"));
    // E||s e||^2 = d s^2 sigma^2 = d; the numerator is d times the mean square,
    // held to d times the per-component interval.
    const auto ratio_interval = [&](Interval per_component) {
      return Interval{per_component.lower * d / encoding_energy, per_component.upper * d / encoding_energy};
    };
    const double scaled_ratio = scaling_support::mean_square(table_doubles(draw.scaled)) * d / encoding_energy;
    scaling_support::hold_within(outcome, at_width(Quantity::energy_ratio_scaled, formats[k], d),
                                 f + ": energy ratio E||s*e||^2 / ||PE||^2 with s = sqrt(d)", scaled_ratio,
                                 ratio_interval(scaled_interval(format, draw.scale, count, delta)),
                                 "paper's choices: d / (d/2) = 2");
    const double unscaled_ratio = scaling_support::mean_square(table_doubles(draw.embeddings)) * d / encoding_energy;
    scaling_support::hold_within(outcome, at_width(Quantity::energy_ratio_unscaled, formats[k], d),
                                 f + ": energy ratio E||e||^2 / ||PE||^2 without the scale", unscaled_ratio,
                                 ratio_interval(unscaled_interval(format, d, count, delta)),
                                 "1 / (d/2) = 2/d = " + format_number(2.0 / d));
    outcome.cases += count;
  }
  sweep_widths(subject, config, seed, outcome);
  if (outcome.verdict == Verdict::held) {
    outcome.message =
        "scaled, a token embedding carries twice the encoding's energy; unscaled, 2/d of it "
        "(the encoding would outweigh the token d/2 times over)";
  }
  return outcome;
}

}  // namespace

const CheckDefinition energy_ratio_check{
    .id = check_ids::energy_ratio,
    .family = Family::scaling_variance,
    .short_claim = "tokenEnergyIsTwiceTheEncodings",
    .claim =
        "With sigma = d^-0.5 and s = sqrt(d) the expected energy of a scaled token embedding is twice the "
        "encoding's, E||s*e||^2 / ||PE||^2 = d / (d/2) = 2; without the scale it is 2/d (at d = 512 in every "
        "format, and in float32 at every width d = 8, 16, ..., 4096).",
    .source = "the report's question (a) (the encoding would otherwise overwhelm the embedding)",
    .kind = CheckKind::measurement,
    .catches = {faults::scale_divided, faults::scale_missing, faults::scale_applied_twice, faults::embedding_dropped},
    .run = run_energy_ratio,
};

}  // namespace pecheck::properties::scaling
