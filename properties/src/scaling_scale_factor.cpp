// The scale factor itself: sqrt(d) as each format rounds it, and the variance
// Var(s E) = s^2 sigma^2 = s^2 / d it gives in closed form with sigma = d^-0.5.
#include <cmath>
#include <string>
#include <vector>

#include "pecheck/double_double.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/exact_arithmetic.hpp"
#include "scaling_checks.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties::scaling {

namespace {

using scaling_support::format_number;

constexpr std::int64_t kGemmaDim = 3072;  // Gemma 7B: bf16(sqrt(3072)) = 55.5

Outcome run_scale_factor(const Subject& subject, const RunConfig& config) {
  if (auto not_applicable = scaling_support::require_embedding_operations(subject)) return *not_applicable;
  if (auto no_format = scaling_support::require_formats(subject, true)) return *no_format;
  Outcome outcome;
  for (FormatId id : scaling_support::formats_of(subject, true)) {
    const Format& format = format_of(id);
    const std::string f(format.name);
    std::int64_t mismatches = 0;
    std::int64_t chain_errors = 0;  // float32's sqrt rounded again to the format
    double worst_relative = 0.0;
    for (std::int64_t d = 1; d <= max_dim; ++d) {
      const double expected = integer_sqrt_rounded(d, format);
      const double got = subject.embedding_scale(d, id);
      if (got != expected) {
        if (mismatches == 0) {
          scaling_support::fail(outcome, f + ": embedding_scale(" + std::to_string(d) + ") = " + hex_float(got) +
                                     ", sqrt(d) correctly rounded is " + hex_float(expected));
        }
        ++mismatches;
      }
      const double exact = std::sqrt(static_cast<double>(d));  // 2^-53 relative: far below the ratios printed
      worst_relative = std::max(worst_relative, std::fabs(expected - exact) / exact);
      const double via_float32 = round_to_format(static_cast<double>(std::sqrt(static_cast<float>(d))), format);
      if (via_float32 != expected) ++chain_errors;
    }
    outcome.cases += max_dim;
    outcome.statistics.push_back(
        scaling_support::statistic(per_format(Quantity::scale_mismatches, id),
                                   f + ": widths d in [1, 16384] where embedding_scale(d) is not "
                                       "sqrt(d) correctly rounded",
                                   static_cast<double>(mismatches), 0.0, 0.0));
    outcome.statistics.push_back(scaling_support::statistic(
        per_format(Quantity::scale_relative_error, id),
        f + ": largest relative error of sqrt(d) correctly rounded, d <= 16384", worst_relative, std::nullopt,
        scaling_support::unit_roundoff(format), "bound 2^-" + std::to_string(format.precision)));
    const double gemma = subject.embedding_scale(kGemmaDim, id);
    outcome.statistics.push_back(scaling_support::statistic(
        per_format(Quantity::scale_at_gemma_width, id), f + ": sqrt(3072) as the subject rounds it", gemma,
        std::nullopt, std::nullopt, "exact 55.4256258...; Gemma multiplies by bf16(sqrt(3072)) = 55.5"));
    if (id != FormatId::float64 && id != FormatId::float32) {
      outcome.statistics.push_back(scaling_support::statistic(
          per_format(Quantity::scale_double_roundings, id),
          f + ": widths d <= 16384 where rounding float32's sqrt(d) again differs from rounding once",
          static_cast<double>(chain_errors), std::nullopt, std::nullopt,
          "double rounding of sqrt is harmless when 24 >= 2p + 2 (Figueroa 1995) and rarely otherwise"));
    }
  }
  (void)config;
  if (outcome.verdict == Verdict::held) {
    outcome.message = "embedding_scale(d) is sqrt(d) correctly rounded for every d up to 16384 in every format";
  }
  return outcome;
}

Outcome run_closed_form_variance(const Subject& subject, const RunConfig& config) {
  if (auto not_applicable = scaling_support::require_embedding_operations(subject)) return *not_applicable;
  if (auto no_format = scaling_support::require_formats(subject, true)) return *no_format;
  Outcome outcome;
  for (FormatId id : scaling_support::formats_of(subject, true)) {
    const Format& format = format_of(id);
    const std::string f(format.name);
    const double u = scaling_support::unit_roundoff(format);
    // s = sqrt(d)(1 + theta), |theta| <= u, so s^2 / d - 1 = 2 theta + theta^2 in [-2u + u^2, 2u + u^2].
    const Interval bound{-2 * u + u * u, 2 * u + u * u};
    const auto deviation = [&](std::int64_t d) {
      // s^2 = hi + lo exactly; hi - d is exact (Sterbenz: hi is within a factor
      // 2 of d), and adding lo and dividing by d round once each: the result
      // is within 2^-52 relative of the exact s^2/d - 1, far inside the bound's margin.
      const double s = subject.embedding_scale(d, id);
      const DoubleDouble square = two_prod(s, s);
      return ((square.hi - static_cast<double>(d)) + square.lo) / static_cast<double>(d);
    };
    double worst = 0.0;
    std::int64_t worst_d = 1;
    for (std::int64_t d = 1; d <= max_dim; ++d) {
      const double r = deviation(d);
      if (std::fabs(r) > std::fabs(worst) || !std::isfinite(r)) {
        worst = r;
        worst_d = d;
      }
    }
    outcome.cases += max_dim;
    scaling_support::hold_within(
        outcome, per_format(Quantity::closed_form_variance_miss, id),
        f + ": largest |Var(s*E) - 1| over d <= 16384 (closed form s^2/d - 1)", worst, bound,
        "at d = " + std::to_string(worst_d) + "; bound 2u + u^2 with u = 2^-" + std::to_string(format.precision));
    outcome.statistics.push_back(scaling_support::statistic(at_width(Quantity::closed_form_variance, id, 512),
                                                            f + ": Var(s*E) at d = 512 (closed form s^2/d)",
                                                            1.0 + deviation(512)));
    outcome.statistics.push_back(scaling_support::statistic(
        at_width(Quantity::closed_form_variance, id, kGemmaDim), f + ": Var(s*E) at d = 3072 (closed form s^2/d)",
        1.0 + deviation(kGemmaDim), std::nullopt, std::nullopt, "bfloat16's 55.5 inflates the variance by 0.27%"));
  }
  (void)config;
  if (outcome.verdict == Verdict::held) {
    outcome.message = "with sigma = d^-0.5 the rounded scale gives Var(s*E) = s^2/d within 2u + u^2 of 1 for every d";
  }
  return outcome;
}

}  // namespace

const CheckDefinition scale_factor_check{
    .id = check_ids::scale_factor_rounding,
    .family = Family::scaling_variance,
    .short_claim = "scaleIsSqrtDCorrectlyRounded",
    .claim =
        "The subject's embedding scale is sqrt(d) correctly rounded to the format for every d up to 16384 "
        "(bfloat16 rounds sqrt(3072) to 55.5, as Gemma's scale is).",
    .source = "CONVENTIONS.md, numeric fault 7 (scale rounded in the activation dtype); Gemma's bf16(sqrt(3072))",
    .kind = CheckKind::measurement,
    .catches = {faults::scale_truncated, faults::scale_rounded_bfloat16},
    .run = run_scale_factor,
};

const CheckDefinition closed_form_variance_check{
    .id = check_ids::unit_variance_closed_form,
    .family = Family::scaling_variance,
    .short_claim = "scaledEmbeddingHasUnitVarianceInClosedForm",
    .claim =
        "With sigma = d^-0.5, Var(s*E) = s^2 sigma^2 = s^2/d lies within 2u + u^2 of 1 for the subject's rounded "
        "scale s, for every d up to 16384 and every format (u = 2^-p).",
    .source = "tensor2tensor and fairseq initialisation (std d^-0.5) with the paper's sqrt(d) scale",
    .kind = CheckKind::measurement,
    // It restates scale-factor-rounding's claim through the variance, but it does fail on a wrongly
    // rounded scale (the fault matrix proves it), so it stays a claim.
    .catches = {faults::scale_truncated, faults::scale_rounded_bfloat16},
    .run = run_closed_form_variance,
};

}  // namespace pecheck::properties::scaling
