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
                       Quantity::quiet_columns_over_context, Quantity::recovered_projected_unscaled,
                       Quantity::recovered_mean_subtracted_unscaled, Quantity::mean_row_energy_share,
                       Quantity::cross_varying_share_closed, Quantity::column_mean_square_min,
                       Quantity::column_mean_square_max}) {
      properties::Statistic s = stat_at(q, dim, positions == shortest ? 0.25 : 0.5);
      s.key.positions = positions;
      if (q == Quantity::recovered_projected_unscaled || q == Quantity::recovered_mean_subtracted_unscaled) {
        s.key.vocabulary = 64;
      }
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

std::vector<properties::Statistic> rotary_shares() {
  std::vector<properties::Statistic> all;
  for (Quantity q : {Quantity::added_relative_share, Quantity::added_interaction_share,
                     Quantity::concatenated_relative_share, Quantity::concatenated_interaction_share,
                     Quantity::rotated_relative_share, Quantity::rotated_interaction_share}) {
    all.push_back({"label", 0.5, {}, {}, "", {q, std::nullopt, 64, 48, {}, std::nullopt, 0.0}});
  }
  for (Quantity q : {Quantity::concatenated_relative_share_projected,
                     Quantity::concatenated_interaction_share_projected}) {
    properties::Statistic s{"label", 0.15, {}, {}, "", {q, std::nullopt, 64, 48, {}, std::nullopt, 0.0}};
    s.spread = properties::Spread{0.02, 10};
    all.push_back(s);
  }
  return all;
}

std::vector<properties::Statistic> initialisations() {
  std::vector<properties::Statistic> all;
  for (std::int64_t d : {128, 512}) {
    for (auto scheme : {properties::InitScheme::paper, properties::InitScheme::keras_uniform,
                        properties::InitScheme::torch_normal, properties::InitScheme::xavier_8192,
                        properties::InitScheme::xavier_32000}) {
      for (Quantity q : {Quantity::init_scaled_variance, Quantity::init_encoding_share}) {
        all.push_back({"label", q == Quantity::init_scaled_variance ? 1.0 : 0.0009737, {}, {}, "",
                       {q, FormatId::float32, d, 0, {}, scheme, 0.0}});
      }
    }
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
      check_with(std::string(ids::encoding_subspace), Family::add_vs_concat, subspace(512, 512, 32768),
                 properties::Verdict::info),
      check_with(std::string(ids::add_concat_rotate), Family::rotary, rotary_shares(), properties::Verdict::info),
      check_with(std::string(ids::initialisation_variance), Family::scaling_variance, initialisations(),
                 properties::Verdict::info),
      check_with(std::string(ids::scale_factor_rounding), Family::scaling_variance,
                 {stat(Quantity::scale_at_gemma_width, 55.42562584)}),
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
  std::erase_if(report.checks, [](const CheckResult& c) {
    return c.id == ids::add_concat_rotate || c.id == ids::encoding_subspace;
  });
  std::vector<properties::Statistic> rotary = rotary_shares();
  for (properties::Statistic& s : rotary) s.key.dim = 96;
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

// Issue 28: each statistic a corrected sentence rests on is read from this
// run. Change the statistic and the text must change: a sentence that kept
// the old number would be written from a constant, not a measurement.
std::string every_text(const std::vector<Finding>& findings) {
  std::string text;
  for (const Finding& f : findings) text += all_text(f) + "\n" + f.short_answer + "\n" + f.key_figure + "\n" + f.caveat;
  return text;
}

void set_all(Report& report, std::string_view check_id, Quantity quantity, double value) {
  for (CheckResult& check : report.checks) {
    if (check.id != check_id) continue;
    for (properties::Statistic& s : check.outcome.statistics) {
      if (s.key.quantity == quantity) s.value = value;
    }
  }
}

struct Quoted {
  std::string_view check;
  Quantity quantity;
};

void expect_each_statistic_moves_the_text(Report report, const std::vector<Quoted>& quoted) {
  for (const Quoted& q : quoted) {
    set_all(report, q.check, q.quantity, 0.2345);
    const std::string before = every_text(write_findings(report, FigureData{}));
    set_all(report, q.check, q.quantity, 0.6789);
    const std::string after = every_text(write_findings(report, FigureData{}));
    EXPECT_NE(before, after) << q.check << " " << properties::to_string(q.quantity)
                             << ": the findings kept the old number";
  }
}

TEST(Findings, theCorrectedSentencesFollowTheirStatistics) {
  expect_each_statistic_moves_the_text(
      measured_report(),
      {{ids::encoding_subspace, Quantity::recovered_projected_unscaled},
       {ids::encoding_subspace, Quantity::recovered_mean_subtracted_unscaled},
       {ids::encoding_subspace, Quantity::subspace_dimension},
       {ids::encoding_subspace, Quantity::mean_row_energy_share},
       {ids::encoding_subspace, Quantity::cross_varying_share_closed},
       {ids::encoding_subspace, Quantity::column_mean_square_min},
       {ids::encoding_subspace, Quantity::column_mean_square_max},
       {ids::add_concat_rotate, Quantity::concatenated_relative_share_projected},
       {ids::add_concat_rotate, Quantity::concatenated_interaction_share_projected},
       {ids::initialisation_variance, Quantity::init_encoding_share},
       {ids::scale_factor_rounding, Quantity::scale_at_gemma_width},
       {ids::token_recoverability, Quantity::recovered_position_unknown_unscaled}});
}

// The six overstatements the review found are gone, and the corrected forms are there.
TEST(Findings, theAnswersSayNoMoreThanWasMeasured) {
  const std::vector<Finding> findings = write_findings(measured_report(), FigureData{});
  const std::string text = every_text(findings);
  EXPECT_EQ(text.find("a decoder that does not know the position recovers only part"), std::string::npos);
  EXPECT_NE(findings[0].short_answer.find("-dimensional subspace recovers 25.0% without knowing the position"),
            std::string::npos)
      << findings[0].short_answer;
  EXPECT_EQ(text.find("Each component of the encoding has mean square 1/2"), std::string::npos);
  EXPECT_NE(text.find("ranges from 0.25 to 0.25"), std::string::npos) << text;
  EXPECT_EQ(text.find("rotated: concatenation separates"), std::string::npos);  // unqualified
  EXPECT_NE(text.find("with identity projections concatenation separates"), std::string::npos);
  EXPECT_NE(text.find("0.15 \u00b1 0.02 over 10 draws"), std::string::npos) << text;
  EXPECT_NE(findings[2].short_answer.find("At the same total width, adding can express"), std::string::npos);
  EXPECT_NE(text.find("the token drowns the position"), std::string::npos);
  for (const char* source : {"TUPE (Ke et al. 2020)", "Wang and Chen 2020", "Gemma", "Adam"}) {
    EXPECT_NE(text.find(source), std::string::npos) << source;
  }
  EXPECT_NE(text.find("pecheck report --training"), std::string::npos);  // learning: said not measured here
}

// The training finding (d): present only when the family ran, every number from its checks.
Report trained_report() {
  Report report = measured_report();
  std::vector<properties::Statistic> curves, unit, scale, concat, nope, repeat;
  const auto keyed = [](Quantity q, const std::string& run, std::int64_t step, double value, bool spread) {
    properties::StatisticKey key = properties::key_of(q);
    key.run = run;
    key.step = step;
    properties::Statistic s{"label", value, {}, {}, "", key};
    if (spread) s.spread = properties::Spread{0.05, 5};
    return s;
  };
  for (const char* task : {"reverse", "sort"}) {
    for (const char* norm : {"post-ln", "pre-ln"}) {
      const std::string tn = std::string(task) + "/" + norm;
      for (const char* c : {"paper", "no-scale", "unit-unscaled", "unit-scaled", "keras-scaled", "concat", "learned",
                            "rotary", "nope"}) {
        curves.push_back(keyed(Quantity::training_accuracy_at_step, tn + "/" + c, 100, 0.5, true));
        curves.push_back(keyed(Quantity::training_steps_to_90, tn + "/" + c, 0, 140, true));
      }
      for (const auto& [list, pair] : {std::pair{&unit, "paper-vs-unit-scaled"}, std::pair{&scale, "paper-vs-no-scale"},
                                       std::pair{&scale, "paper-vs-unit-unscaled"}, std::pair{&concat, "concat-vs-paper"}}) {
        list->push_back(keyed(Quantity::training_accuracy_gain, tn + "/" + pair, 100, 0.3, false));
        list->push_back(keyed(Quantity::training_welch_p, tn + "/" + pair, 100, 0.001, false));
      }
    }
  }
  for (const char* norm : {"post-ln", "pre-ln"}) {
    properties::Statistic limit = keyed(Quantity::training_accuracy_lower_limit, std::string("reverse/") + norm + "/nope",
                                        0, 0.3, false);
    limit.lower_bound = 0.0625;
    nope.push_back(limit);
  }
  repeat.push_back(keyed(Quantity::training_repeat_difference, "reverse/post-ln/paper", 0, 0.0, false));
  using properties::Family;
  report.checks.push_back(check_with(std::string(ids::learning_curves), Family::training, curves,
                                     properties::Verdict::info));
  report.checks.back().outcome.message = "180 runs (L = 8, V = 16, d = 64)";
  report.checks.push_back(check_with(std::string(ids::unit_init_with_scale_lags), Family::training, unit,
                                     properties::Verdict::info));
  report.checks.push_back(check_with(std::string(ids::scale_at_small_sigma), Family::training, scale,
                                     properties::Verdict::info));
  report.checks.push_back(check_with(std::string(ids::concat_against_add), Family::training, concat,
                                     properties::Verdict::info));
  report.checks.push_back(check_with(std::string(ids::nope_learns), Family::training, nope, properties::Verdict::info));
  report.checks.push_back(check_with(std::string(ids::same_seed_same_run), Family::training, repeat,
                                     properties::Verdict::info));
  return report;
}

TEST(Findings, theTrainingFindingAppearsOnlyWhenTheFamilyRan) {
  EXPECT_EQ(write_findings(measured_report(), FigureData{}).size(), 3u);
  const std::vector<Finding> findings = write_findings(trained_report(), FigureData{});
  ASSERT_EQ(findings.size(), 4u);
  const Finding& d = findings[3];
  EXPECT_FALSE(d.short_answer.empty());
  EXPECT_NE(d.short_answer.find("reverse/post-ln +0.3 (p = 0.001)"), std::string::npos) << d.short_answer;
  EXPECT_NE(all_text(d).find("0.5 \u00b1 0.05"), std::string::npos) << all_text(d);
  EXPECT_NE(d.key_figure.find("the paper's 0.5 \u00b1 0.05, N(0, 1) with the scale 0.5"), std::string::npos)
      << d.key_figure;
  EXPECT_NE(all_text(d).find("against chance 0.062"), std::string::npos) << all_text(d);
  EXPECT_NE(all_text(d).find("180 runs"), std::string::npos);
  // Learning measured: (a) and (c) no longer say it was not.
  EXPECT_EQ(every_text(findings).find("pecheck report --training"), std::string::npos);
  expect_each_statistic_moves_the_text(trained_report(),
                                       {{ids::learning_curves, Quantity::training_accuracy_at_step},
                                        {ids::learning_curves, Quantity::training_steps_to_90},
                                        {ids::unit_init_with_scale_lags, Quantity::training_accuracy_gain},
                                        {ids::unit_init_with_scale_lags, Quantity::training_welch_p},
                                        {ids::scale_at_small_sigma, Quantity::training_accuracy_gain},
                                        {ids::concat_against_add, Quantity::training_accuracy_gain},
                                        {ids::nope_learns, Quantity::training_accuracy_lower_limit},
                                        {ids::same_seed_same_run, Quantity::training_repeat_difference}});
}

}  // namespace
}  // namespace pecheck::reports
