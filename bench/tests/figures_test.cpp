// The bench library in quick mode: every figure is measured, finite and
// positive, the accuracy sample finds the float32 table within its bound,
// and the JSON has the fields the command line and the report promise. No
// figure is compared with a target: timing is not a test.
#include "pecheck/bench/figures.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "pecheck/convention.hpp"

namespace pecheck::bench {
namespace {

TEST(BenchFigures, quickRunMeasuresEveryFigure) {
  BenchOptions options;
  options.quick = true;
  options.threads = 2;
  const Figures figures = measure_figures(options);
  EXPECT_EQ(figures.repetitions, 1);
  EXPECT_EQ(figures.threads, 2);
  for (const double value :
       {figures.write_bandwidth.gb_per_s(), figures.triad_bandwidth.gb_per_s(),
        figures.pe_table_f32.timing.melem_per_s(), figures.pe_table_f32.fraction_of_write_bw,
        figures.pe_table_f16.timing.melem_per_s(), figures.pe_table_bf16.timing.melem_per_s(),
        figures.rope_cache_f32.melem_per_s, figures.rope_cache_f32.time_per_entry_vs_pe_f32,
        figures.rope_cache_f32.first_run_seconds,
        figures.embed_forward.melem_per_s, figures.embed_forward.fraction_of_triad_bw,
        figures.reference_f32.melem_per_s}) {
    EXPECT_TRUE(std::isfinite(value) && value > 0.0) << value;
  }
  // rotated_rows.cpp: every float32 entry within 1 ulp.
  EXPECT_LE(figures.pe_table_f32.max_ulp, 1.0);
  EXPECT_EQ(figures.pe_table_f32.sampled_entries, 64);
  // rotary_fast.cpp: the additive tables' float32 bound, every value within 1 ulp.
  EXPECT_LE(figures.rope_cache_f32.max_ulp, 1.0);
  EXPECT_EQ(figures.rope_cache_f32.sampled_values, 64);  // 32 entries, cos and sin
  EXPECT_EQ(figures.rope_cache_f32.preset, "llama3.1");
  EXPECT_EQ(figures.rope_cache_f32.cols, 128);
  EXPECT_EQ(figures.rope_cache_f32.rounds, 1);
  EXPECT_TRUE(figures.reference_f32.measured);
  EXPECT_GE(figures.reference_f32.escalated, 0);
  EXPECT_TRUE(figures.reference_f64.measured);
  EXPECT_GE(figures.reference_f64.escalated, 0);

  const nlohmann::json json = nlohmann::json::parse(figures_json(figures));
  for (const char* key : {"melem_per_s", "fraction_of_write_bw", "max_ulp"}) {
    EXPECT_TRUE(json["pe_table_f32"][key].is_number()) << key;
  }
  EXPECT_TRUE(json["pe_table_f16"]["melem_per_s"].is_number());
  EXPECT_TRUE(json["pe_table_bf16"]["melem_per_s"].is_number());
  for (const char* key : {"melem_per_s", "time_per_entry_vs_pe_f32", "max_ulp", "first_run_seconds"}) {
    EXPECT_TRUE(json["rope_cache_f32"][key].is_number()) << key;
  }
  EXPECT_EQ(json["rope_cache_f32"]["sampled_values"], 64);
  EXPECT_NE(figures_text(figures).find("rope_cache_f32"), std::string::npos);
  EXPECT_TRUE(json["embed_forward"]["melem_per_s"].is_number());
  EXPECT_TRUE(json["embed_forward"]["fraction_of_triad_bw"].is_number());
  EXPECT_TRUE(json["reference_f32"]["melem_per_s"].is_number());
  EXPECT_TRUE(json["reference_f32"]["escalated"].is_number_integer());
  EXPECT_TRUE(json["reference_f64"]["escalated"].is_number_integer());
  EXPECT_NE(figures_text(figures).find("pe_table_f32"), std::string::npos);
}

TEST(BenchFigures, unknownConventionIsRefusedByName) {
  BenchOptions options;
  options.quick = true;
  options.convention = "no-such-preset";
  try {
    (void)measure_figures(options);
    ADD_FAILURE() << "no error";
  } catch (const ConventionError& error) {
    EXPECT_NE(std::string(error.what()).find("no-such-preset"), std::string::npos);
  }
}

}  // namespace
}  // namespace pecheck::bench
