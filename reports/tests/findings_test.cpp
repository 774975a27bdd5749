#include "pecheck/reports/findings.hpp"

#include <gtest/gtest.h>

#include "pecheck/properties/check_ids.hpp"

namespace pecheck::reports {
namespace {

CheckResult check_with(std::string id, properties::Family family, std::vector<properties::Statistic> statistics,
                       properties::Verdict verdict = properties::Verdict::held) {
  CheckResult check;
  check.id = std::move(id);
  check.family = family;
  check.claim = "claim of " + check.id;
  check.outcome.verdict = verdict;
  check.outcome.cases = 10;
  check.outcome.statistics = std::move(statistics);
  return check;
}

namespace ids = properties::check_ids;
using properties::Quantity;

// A statistic as a family files it: the key is what findings read; the label
// is deliberately not the family's, to show that no finding reads labels.
properties::Statistic stat(Quantity quantity, double value, std::optional<double> lower = std::nullopt,
                           std::optional<double> upper = std::nullopt, FormatId format = FormatId::float32) {
  return {"label " + std::string(properties::to_string(quantity)),
          value,
          lower,
          upper,
          "",
          properties::per_format(quantity, format)};
}

// As stat(), for a check that files the width it measured at in the key.
properties::Statistic stat_at(Quantity quantity, std::int64_t dim, double value,
                              std::optional<double> lower = std::nullopt, std::optional<double> upper = std::nullopt) {
  properties::Statistic s = stat(quantity, value, lower, upper);
  s.key.dim = dim;
  return s;
}

// The subspace check's statistics at width d over two context lengths.
std::vector<properties::Statistic> subspace(std::int64_t dim, std::int64_t shortest, std::int64_t longest) {
  std::vector<properties::Statistic> all;
  for (std::int64_t positions : {shortest, longest}) {
    for (Quantity q : {Quantity::subspace_token_share, Quantity::subspace_dimension, Quantity::numerical_rank_float32,
                       Quantity::quiet_columns_over_context}) {
      properties::Statistic s = stat_at(q, dim, positions == shortest ? 0.25 : 0.5);
      s.key.positions = positions;
      all.push_back(s);
    }
  }
  return all;
}

// A mean over draws, as the observations file them.
properties::Statistic drawn(Quantity quantity, std::int64_t dim, double mean, double sd, double closed_form) {
  properties::Statistic s{"label", mean, {}, {}, "", properties::at_width(quantity, FormatId::float32, dim)};
  s.spread = properties::Spread{sd, 30};
  s.closed_form = closed_form;
  return s;
}

std::vector<properties::Statistic> decomposition() {
  std::vector<properties::Statistic> all;
  for (std::int64_t d : {64, 512, 4096}) {
    all.push_back(drawn(Quantity::first_layer_logit_variance_scaled, d, 2.21, 0.31, 2.25));
    all.push_back(drawn(Quantity::first_layer_logit_variance_unscaled, d, 0.252, 0.03, 0.252));
    all.push_back(drawn(Quantity::first_layer_both_over_neither, d, 0.1432, 0.0201, 0.1397));
    all.push_back(drawn(Quantity::token_token_share_scaled, d, 0.44, 0.03, 0.444));
    all.push_back(drawn(Quantity::cross_share_scaled, d, 0.45, 0.02, 0.444));
    all.push_back(drawn(Quantity::position_position_share_scaled, d, 0.11, 0.02, 0.111));
    all.push_back(drawn(Quantity::position_position_share_unscaled, d, 0.992, 0.001, 0.992));
    all.push_back(drawn(Quantity::pre_ln_logit_variance_scaled, d, 1.01, 0.1, 1.0));
    all.push_back(drawn(Quantity::pre_ln_logit_variance_unscaled, d, 0.99, 0.1, 1.0));
  }
  return all;
}

Report measured_report() {
  using properties::Family;
  Report report;
  properties::Statistic unit{"label", 0.9987, {}, {}, "", properties::key_of(Quantity::unit_logit_variance)};
  report.checks = {
      check_with(std::string(ids::unit_variance_sampled), Family::scaling_variance,
                 {stat_at(Quantity::scaled_component_variance, 512, 1.0123, 0.99, 1.01),
                  stat_at(Quantity::unscaled_component_variance, 512, 0.0019531)}),
      check_with(std::string(ids::energy_ratio), Family::scaling_variance,
                 {stat_at(Quantity::encoding_energy, 512, 256.0), stat_at(Quantity::energy_ratio_scaled, 512, 2.0047),
                  stat_at(Quantity::energy_ratio_unscaled, 512, 0.0039154)}),
      check_with(std::string(ids::token_recoverability), Family::scaling_variance,
                 {stat(Quantity::recovered_position_unknown_unscaled, 0.0625),
                  stat(Quantity::recovered_position_unknown_scaled, 1.0, 1.0, 1.0),
                  stat(Quantity::recovered_position_known_unscaled, 1.0),
                  stat(Quantity::recovered_position_unknown_unscaled, 0.0547, {}, {}, FormatId::bfloat16),
                  stat(Quantity::rounding_loss_unscaled, 0.0921, {}, {}, FormatId::bfloat16)}),
      check_with(std::string(ids::attention_logit_variance), Family::scaling_variance,
                 {unit, stat(Quantity::input_variance_scaled, 1.503), stat(Quantity::input_variance_unscaled, 0.5021),
                  stat(Quantity::logit_variance_both_scales, 2.251),
                  stat(Quantity::logit_variance_neither_scale, 16.13), stat(Quantity::both_over_neither, 0.1396)}),
      check_with(std::string(ids::logit_decomposition), Family::scaling_variance, decomposition(),
                 properties::Verdict::info),
      check_with(std::string(ids::construction), Family::add_vs_concat, {}, properties::Verdict::failed),
  };
  return report;
}

std::string all_text(const Finding& finding) {
  std::string text = finding.question;
  for (const auto& list : {finding.answer, finding.supported, finding.unsupported}) {
    for (const std::string& line : list) text += "\n" + line;
  }
  return text;
}

TEST(Findings, threeFindingsEachSayingWhatIsAndIsNotSupported) {
  const std::vector<Finding> findings = write_findings(measured_report(), FigureData{});
  ASSERT_EQ(findings.size(), 3u);
  for (const Finding& finding : findings) {
    EXPECT_FALSE(finding.answer.empty()) << finding.id;
    EXPECT_FALSE(finding.supported.empty()) << finding.id;
    EXPECT_FALSE(finding.unsupported.empty()) << finding.id;
    for (const Evidence& e : finding.evidence) EXPECT_FALSE(e.source.empty()) << e.label;
  }
}

TEST(Findings, theScaleFindingQuotesThisRunsNumbers) {
  const Finding finding = write_findings(measured_report(), FigureData{})[0];
  const std::string text = all_text(finding);
  EXPECT_NE(text.find("1.012"), std::string::npos) << text;   // Var(s*E)
  EXPECT_NE(text.find("2.005"), std::string::npos) << text;   // energy ratio
  EXPECT_NE(text.find("100.0%"), std::string::npos) << text;  // recovered with the scale
  EXPECT_NE(text.find("6.2%"), std::string::npos) << text;    // recovered without (0.0625 -> "6.2%" at one decimal)
  EXPECT_NE(text.find("gives no reason"), std::string::npos);
  // Why before adding: scaling the sum keeps the unscaled ratio, this run's.
  EXPECT_NE(text.find("Why before adding"), std::string::npos) << text;
  EXPECT_NE(text.find("where it was without any scale (0.003915 measured here"), std::string::npos) << text;
  // The statistic outside its bounds is shown as such in the evidence.
  bool flagged = false;
  for (const Evidence& e : finding.evidence) flagged = flagged || e.value.find("OUTSIDE") != std::string::npos;
  EXPECT_TRUE(flagged);
}

TEST(Findings, theAttentionFindingSaysTheScalesDoNotCancel) {
  const std::string text = all_text(write_findings(measured_report(), FigureData{})[1]);
  EXPECT_EQ(text.find("No."), text.find("No. The two"));
  // The quotient over draws, with its spread, its count and its closed form.
  EXPECT_NE(text.find("0.143 \u00b1 0.02 over 30 draws (closed form 0.14)"), std::string::npos) << text;
  EXPECT_NE(text.find("2.83"), std::string::npos) << text;  // d_k^(1/4) for d_k = 64
}

// The sizes a sentence quotes come from the keys its statistics were filed
// under: change a check's constant (here d_k, the rotary width, V) and the
// sentence changes with it; a literal in the finding would not.
TEST(Findings, theSentencesQuoteTheSizesTheirStatisticsWereMeasuredAt) {
  Report report = measured_report();
  for (CheckResult& check : report.checks) {
    for (properties::Statistic& s : check.outcome.statistics) {
      if (check.id == ids::logit_decomposition) s.key.head_dim = 32;
      if (check.id == ids::unit_variance_sampled || check.id == ids::energy_ratio) s.key.dim = 256;
      if (check.id == ids::attention_logit_variance && s.key.quantity == Quantity::unit_logit_variance)
        s.key.head_dim = 16;
    }
  }
  std::vector<properties::Statistic> rotary;
  for (Quantity q : {Quantity::added_relative_share, Quantity::added_interaction_share,
                     Quantity::concatenated_relative_share, Quantity::concatenated_interaction_share,
                     Quantity::rotated_relative_share, Quantity::rotated_interaction_share}) {
    rotary.push_back({"label", 0.5, {}, {}, "", {q, std::nullopt, 96, 48, {}, std::nullopt, 0.0}});
  }
  report.checks.push_back(check_with(std::string(ids::add_concat_rotate), properties::Family::rotary, rotary));
  std::vector<properties::Statistic> sweep;
  for (double a : {0.0, 0.5, 1.0}) {
    for (Quantity q : {Quantity::recovered_token_naive, Quantity::recovered_position_naive,
                       Quantity::recovered_token_joint, Quantity::recovered_position_joint}) {
      properties::Statistic s{"label", 0.5, {}, {}, "", properties::at_width(q, FormatId::float32, 384)};
      s.key.positions = 256;
      s.key.vocabulary = 2048;
      s.key.scale_exponent = a;
      sweep.push_back(s);
    }
  }
  report.checks.push_back(check_with(std::string(ids::recovery_sweep), properties::Family::scaling_variance, sweep));
  report.checks.push_back(
      check_with(std::string(ids::encoding_subspace), properties::Family::add_vs_concat, subspace(512, 1024, 16384)));
  const std::vector<Finding> findings = write_findings(report, FigureData{});
  const std::string scale = all_text(findings[0]), attention = all_text(findings[1]), concat = all_text(findings[2]);
  EXPECT_NE(scale.find("V = 2048, d = 384, positions 0..255"), std::string::npos) << scale;
  EXPECT_NE(attention.find("at d = 512, d_k = 32:"), std::string::npos) << attention;
  EXPECT_NE(attention.find("unit-variance components, d_k = 16"), std::string::npos) << attention;
  EXPECT_NE(attention.find("2 for d_k = 16"), std::string::npos) << attention;  // 16^(1/4)
  EXPECT_EQ(attention.find("d_k = 64"), std::string::npos) << attention;
  EXPECT_NE(findings[1].key_figure.find("d = 512, d_k = 32"), std::string::npos) << findings[1].key_figure;
  EXPECT_NE(concat.find("unit-variance tokens and d = 96,"), std::string::npos) << concat;
  EXPECT_EQ(concat.find("d = 64"), std::string::npos) << concat;
  EXPECT_NE(scale.find("measured in float32 at d = 256"), std::string::npos) << scale;
  EXPECT_NE(scale.find("= d/2 at d = 256"), std::string::npos) << scale;
  EXPECT_NE(findings[0].key_figure.find("at d = 256"), std::string::npos) << findings[0].key_figure;
  EXPECT_NE(concat.find("at 1024 positions and"), std::string::npos) << concat;
  EXPECT_NE(concat.find("of 512 at 1024 positions to 0.5 at 16384"), std::string::npos) << concat;
  EXPECT_NE(findings[2].key_figure.find("at 16384 (d = 512)"), std::string::npos) << findings[2].key_figure;
  EXPECT_EQ(concat.find("8192"), std::string::npos) << concat;
}

TEST(Findings, aFailedCheckIsNamedInTheAnswer) {
  const std::string text = all_text(write_findings(measured_report(), FigureData{})[2]);
  EXPECT_NE(text.find(ids::construction), std::string::npos) << text;
  EXPECT_NE(text.find("not confirmed"), std::string::npos) << text;
}

TEST(Findings, missingMeasurementsAreSaidToBeMissing) {
  const std::vector<Finding> findings = write_findings(Report{}, FigureData{});
  EXPECT_NE(all_text(findings[0]).find("scaling-variance/token-recoverability did not run"), std::string::npos);
  EXPECT_NE(all_text(findings[1]).find(std::string(ids::logit_decomposition) + " did not run"), std::string::npos);
  EXPECT_NE(all_text(findings[2]).find("No add-vs-concat check ran"), std::string::npos);
  for (const Finding& finding : findings) EXPECT_TRUE(finding.evidence.empty()) << finding.id;
}

TEST(Findings, theEnergyCurveStandsInWhenTheCheckDidNotRun) {
  FigureData data;
  data.energy = EnergyRatioCurve{{256.0, 512.0}, {1.99, 2.01}, {0.0078, 0.0039}};
  const Finding finding = write_findings(Report{}, data)[0];
  EXPECT_NE(all_text(finding).find("2.01 (expected 2)"), std::string::npos) << all_text(finding);
  ASSERT_EQ(finding.evidence.size(), 1u);
  EXPECT_EQ(finding.evidence[0].source, "figure energy-ratio");
}

// Issue 12: a statistic renamed or dropped in properties/ must not vanish
// from the report while the tests stay green. A check that held without a
// statistic a finding reads fails the report, naming the check and the key.
TEST(Findings, aHeldCheckWithoutAStatisticTheFindingsReadFailsLoudly) {
  Report report = measured_report();
  for (CheckResult& check : report.checks) {
    if (check.id != ids::energy_ratio) continue;
    std::erase_if(check.outcome.statistics,
                  [](const properties::Statistic& s) { return s.key.quantity == Quantity::energy_ratio_scaled; });
  }
  try {
    write_findings(report, FigureData{});
    ADD_FAILURE() << "findings were written without the energy ratio";
  } catch (const properties::MissingStatistic& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(ids::energy_ratio), std::string::npos) << message;
    EXPECT_NE(message.find("energy-ratio-scaled"), std::string::npos) << message;
  }
}

// The same key in another format is a different statistic: bfloat16's ratio does not stand in for float32's.
TEST(Findings, aStatisticInAnotherFormatDoesNotStandIn) {
  Report report = measured_report();
  for (CheckResult& check : report.checks) {
    for (properties::Statistic& s : check.outcome.statistics) {
      if (s.key.quantity == Quantity::energy_ratio_scaled) s.key.format = FormatId::bfloat16;
    }
  }
  EXPECT_THROW(write_findings(report, FigureData{}), properties::MissingStatistic);
}

// A failed check may have stopped before filing everything: its missing
// numbers are said to be missing, and the run already fails on the check.
TEST(Findings, aFailedCheckWithoutTheStatisticIsNoCrash) {
  Report report = measured_report();
  for (CheckResult& check : report.checks) {
    if (check.id != ids::token_recoverability) continue;
    check.outcome.verdict = properties::Verdict::failed;
    check.outcome.message = "the subject could not be checked";
    check.outcome.statistics.clear();
  }
  const std::string text = all_text(write_findings(report, FigureData{})[0]);
  EXPECT_NE(text.find("Token recoverability was not measured"), std::string::npos) << text;
}

// Issue 13: the brief answers come from the same statistics the findings
// print, with their uncertainty; a finding with nothing measured has none.
TEST(Findings, theBriefAnswerCarriesTheKeyFigureWithItsSpread) {
  const std::vector<Finding> findings = write_findings(measured_report(), FigureData{});
  EXPECT_NE(findings[1].short_answer.find("No."), std::string::npos) << findings[1].short_answer;
  EXPECT_NE(findings[1].key_figure.find("0.143 \u00b1 0.02 over 30 draws"), std::string::npos)
      << findings[1].key_figure;
  EXPECT_FALSE(findings[1].caveat.empty());
  for (const Finding& finding : write_findings(Report{}, FigureData{})) EXPECT_TRUE(finding.short_answer.empty());
}

}  // namespace
}  // namespace pecheck::reports
