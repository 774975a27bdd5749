#include "pecheck/reports/findings.hpp"

#include <gtest/gtest.h>

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

// Statistics named as the scaling-variance family names them.
Report measured_report() {
  using properties::Family;
  Report report;
  report.checks = {
      check_with("scaling-variance/unit-variance-sampled", Family::scaling_variance,
                 {{"float32: Var(s*E) per component, E ~ N(0, 1/d), s = sqrt(d), d = 512", 1.0123, 0.99, 1.01, ""},
                  {"float32: Var(E) per component without the scale", 0.0019531, {}, {}, ""}}),
      check_with("scaling-variance/energy-ratio", Family::scaling_variance,
                 {{"float32: mean ||PE(p)||^2 over positions 0..511, d = 512", 256.0, {}, {}, ""},
                  {"float32: energy ratio E||s*e||^2 / ||PE||^2 with s = sqrt(d)", 2.0047, {}, {}, ""},
                  {"float32: energy ratio E||e||^2 / ||PE||^2 without the scale", 0.0039154, {}, {}, ""}}),
      check_with(
          "scaling-variance/token-recoverability", Family::scaling_variance,
          {{"float32: tokens recovered, position unknown, no scale (d = 256, 256 tokens)", 0.0625, {}, {}, ""},
           {"float32: tokens recovered, position unknown, s = sqrt(d) (d = 256, 256 tokens)", 1.0, 1.0, 1.0, ""}}),
      check_with("scaling-variance/attention-logit-variance", Family::scaling_variance,
                 {{"Var(q.k / sqrt(d_k)), q and k with unit-variance components, d_k = 64", 0.9987, {}, {}, ""},
                  {"float32: first-layer logit variance, input scaled, / sqrt(d_k)", 2.251, {}, {}, ""},
                  {"float32: first-layer logit variance, input unscaled, no / sqrt(d_k)", 16.13, {}, {}, ""},
                  {"float32: both scales / neither (1 if sqrt(d) cancelled 1/sqrt(d_k))", 0.1396, {}, {}, ""}}),
      check_with("add-vs-concat/construction", Family::add_vs_concat, {}, properties::Verdict::failed),
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
  // The statistic outside its bounds is shown as such in the evidence.
  bool flagged = false;
  for (const Evidence& e : finding.evidence) flagged = flagged || e.value.find("OUTSIDE") != std::string::npos;
  EXPECT_TRUE(flagged);
}

TEST(Findings, theAttentionFindingSaysTheScalesDoNotCancel) {
  const std::string text = all_text(write_findings(measured_report(), FigureData{})[1]);
  EXPECT_EQ(text.find("No."), text.find("No. The two"));
  EXPECT_NE(text.find("0.1396"), std::string::npos) << text;
  EXPECT_NE(text.find("2.83"), std::string::npos) << text;  // d_k^(1/4) for d_k = 64
}

TEST(Findings, aFailedCheckIsNamedInTheAnswer) {
  const std::string text = all_text(write_findings(measured_report(), FigureData{})[2]);
  EXPECT_NE(text.find("add-vs-concat/construction"), std::string::npos) << text;
  EXPECT_NE(text.find("not confirmed"), std::string::npos) << text;
}

TEST(Findings, missingMeasurementsAreSaidToBeMissing) {
  const std::vector<Finding> findings = write_findings(Report{}, FigureData{});
  EXPECT_NE(all_text(findings[0]).find("scaling-variance/token-recoverability did not run"), std::string::npos);
  EXPECT_NE(all_text(findings[1]).find("scaling-variance/attention-logit-variance did not run"), std::string::npos);
  EXPECT_NE(all_text(findings[2]).find("No add-vs-concat check ran"), std::string::npos);
  for (const Finding& finding : findings) EXPECT_TRUE(finding.evidence.empty()) << finding.id;
}

TEST(Findings, theEnergyCurveStandsInWhenTheCheckDidNotRun) {
  FigureData data;
  data.energy = EnergyRatioCurve{{256.0, 512.0}, {1.99, 2.01}, {0.0078, 0.0039}, 64, 256, true};
  const Finding finding = write_findings(Report{}, data)[0];
  EXPECT_NE(all_text(finding).find("2.01 (expected 2)"), std::string::npos) << all_text(finding);
  ASSERT_EQ(finding.evidence.size(), 1u);
  EXPECT_EQ(finding.evidence[0].source, "figure energy-ratio");
}

}  // namespace
}  // namespace pecheck::reports
