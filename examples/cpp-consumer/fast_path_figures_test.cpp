// pecheck::bench from the installed package: the figures `pecheck bench`
// prints, taken from your own code. Quick mode is a smoke run at tiny sizes,
// not a measurement, so nothing here is compared with a speed.
#include <gtest/gtest.h>

#include <cmath>

#include <pecheck/bench/figures.hpp>

namespace {

TEST(FastPathFigures, quickRunSamplesTheFastTableAgainstTheReference) {
  pecheck::bench::BenchOptions options;
  options.quick = true;
  options.threads = 1;
  options.reference = false;  // the accuracy sample still uses the reference, without timing it
  const pecheck::bench::Figures figures = pecheck::bench::measure_figures(options);
  EXPECT_GT(figures.pe_table_f32.sampled_entries, 0);
  EXPECT_TRUE(std::isfinite(figures.pe_table_f32.max_ulp));
  EXPECT_GT(figures.pe_table_f32.timing.melem_per_s(), 0.0);
}

}  // namespace
