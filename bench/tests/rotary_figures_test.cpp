// The rotary figures (rotary_figures.hpp): a quick run measures the model's
// fast path and the reference with nothing left to MPFR, and each target is
// judged on its own figure. Synthetic figures for the judging: no timing here.
#include "pecheck/bench/rotary_figures.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "pecheck/bench/targets.hpp"

namespace pecheck::bench {
namespace {

TEST(RotaryFigures, quickRunMeasuresTheModelAndTheReference) {
  const RotaryConvention c = *find_rotary_preset("llama3.1");
  const RotaryFigures f = measure_rotary_figures(c, true, 2, 1, "");
  ASSERT_TRUE(f.measured);
  EXPECT_EQ(f.cols, 128);
  EXPECT_TRUE(std::isfinite(f.model_seconds) && f.model_seconds > 0.0);
  EXPECT_TRUE(std::isfinite(f.reference_seconds) && f.reference_seconds > 0.0);
  EXPECT_EQ(f.reference_mpfr_values, 0);
  EXPECT_FALSE(f.validate_cli.measured);  // no executable given
}

RotaryFigures meeting_every_target() {
  RotaryFigures f;
  f.measured = true;
  f.rows = 1000;
  f.cols = 100;  // 2e5 values
  f.rounds = 3;
  // 1% faster than the targets (a ratio exactly at a bound would hang on rounding).
  f.model_seconds = 0.99 * 2e5 / (rope_model_min_melem_per_s * 1e6);
  f.reference_seconds = 0.99 * 2e5 / (rope_reference_min_melem_per_s * 1e6);
  f.validate_cli = {true, "pecheck validate", 1000, 100, 0.3, 150.0, 100.0, 0.1, -1.0, 0.0, ""};
  return f;
}

std::vector<std::string> missed(const RotaryFigures& f) {
  std::vector<JudgedFigure> judged;
  append_rotary_figures(f, judged);
  std::vector<std::string> ids;
  for (const JudgedFigure& figure : judged) {
    if (!figure.met()) ids.push_back(figure.id);
  }
  return ids;
}

TEST(RotaryFigures, eachMissIsItsFiguresAlone) {
  using Ids = std::vector<std::string>;
  std::vector<JudgedFigure> judged;
  append_rotary_figures(meeting_every_target(), judged);
  ASSERT_EQ(judged.size(), 3u);
  EXPECT_EQ(judged[0].id, "rope_model_f32");
  EXPECT_EQ(judged[1].id, "rope_reference_f32");
  EXPECT_EQ(judged[2].id, "rope_validate_cli");
  EXPECT_EQ(missed(meeting_every_target()), Ids{});
  RotaryFigures f = meeting_every_target();
  f.model_seconds *= 1.02;
  EXPECT_EQ(missed(f), Ids{"rope_model_f32"});
  f = meeting_every_target();
  f.reference_seconds *= 1.02;
  EXPECT_EQ(missed(f), Ids{"rope_reference_f32"});
  f = meeting_every_target();
  f.reference_mpfr_values = 2;  // fast enough, but MPFR was needed
  EXPECT_EQ(missed(f), Ids{"rope_reference_f32"});
  f = meeting_every_target();
  f.validate_cli.seconds = 0.31;  // 3.1 times the baseline
  EXPECT_EQ(missed(f), Ids{"rope_validate_cli"});
  f = meeting_every_target();
  f.validate_cli.peak_rss_bytes = 151.0;  // 1.51 times the files
  EXPECT_EQ(missed(f), Ids{"rope_validate_cli"});
}

TEST(RotaryFigures, unmeasuredFiguresAreNotJudged) {
  std::vector<JudgedFigure> judged;
  append_rotary_figures(RotaryFigures{}, judged);
  EXPECT_TRUE(judged.empty());
  RotaryFigures f = meeting_every_target();
  f.validate_cli.measured = false;
  append_rotary_figures(f, judged);
  EXPECT_EQ(judged.size(), 2u);
}

}  // namespace
}  // namespace pecheck::bench
