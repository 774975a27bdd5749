// The rotary figures beyond the exact fast cache (rope_cache_f32): the
// hf-float32 computation model by the fast path, the correctly rounded
// rotary reference, and `pecheck validate` of a cos/sin pair as a command,
// on the same llama3.1 shape (65536 x 128, float32). A value is one cos or
// one sin, so an entry of the cache (position x column) is two values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pecheck/bench/end_to_end.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::bench {

struct JudgedFigure;

struct RotaryFigures {
  bool measured = false;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  // rope_model_f32: fast_rotary_model_cache for hf-float32, best of `rounds`.
  int rounds = 0;
  double model_seconds = 0.0;
  // rope_reference_f32: the reference's rounded cache (as pecheck rope
  // --impl reference writes it), exact encoding, timed once; the values its
  // cheap tiers left to MPFR.
  double reference_seconds = 0.0;
  std::int64_t reference_mpfr_values = 0;
  // rope_validate_cli: `pecheck validate COS --sin SIN` of the fast cache's
  // files, every value; baseline_seconds: reading both files (read_npy) and
  // building the same cache by the fast path in this process, best of the runs.
  EndToEndFigure validate_cli;
  // The CPU time (user + system) of the command's fastest run and of the
  // baseline's fastest: a busy machine moves them far less than wall times.
  double validate_cpu_seconds = 0.0;
  double validate_baseline_cpu_seconds = 0.0;

  std::int64_t values() const { return 2 * rows * cols; }
};

// The minimum throughputs (values per second, cos and sin each counted) and
// the command's ratio, issue 31: the model's fast path at the additive
// tables' scale, the reference cheap enough to compare every value.
inline constexpr double rope_model_min_melem_per_s = 100.0;
inline constexpr double rope_reference_min_melem_per_s = 50.0;
inline constexpr double rope_validate_max_time_vs_baseline = 3.0;
inline constexpr double rope_validate_max_rss_vs_files = 1.5;

// executable: the pecheck program timed for rope_validate_cli (empty: not
// measured). quick: tiny sizes, one round.
RotaryFigures measure_rotary_figures(const RotaryConvention& convention, bool quick, int threads, int rounds,
                                     const std::string& executable);

// The figures as judged lines (appended in this order: rope_model_f32,
// rope_reference_f32, rope_validate_cli).
void append_rotary_figures(const RotaryFigures& figures, std::vector<JudgedFigure>& out);

}  // namespace pecheck::bench
