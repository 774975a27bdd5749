// The performance targets as data: each figure of `pecheck bench` with the
// in-run ratio (or accuracy, or time) it is judged by and the bound that
// ratio must meet. `pecheck bench` prints them, the report's performance
// section tabulates them; both read this one list, so a target is stated
// once.
#pragma once

#include <string>
#include <vector>

#include "pecheck/bench/figures.hpp"

namespace pecheck::bench {

enum class Comparison { at_least, at_most, below };

// One measured quantity and the bound it must meet.
struct Criterion {
  std::string quantity;  // "fraction of write bandwidth"
  double value = 0.0;
  Comparison comparison = Comparison::at_least;
  double bound = 0.0;
  std::string why;  // where the bound comes from

  bool met() const;
  // "fraction of write bandwidth 0.8003 (target >= 0.5)"
  std::string text() const;
};

// One figure: what was timed, how fast, and its criteria.
struct JudgedFigure {
  std::string id;        // the key in `pecheck bench --json`: "pe_table_f32"
  std::string workload;  // "8192 x 1024 float32 table"
  double seconds = 0.0;  // best of the rounds (the reference: its one run)
  double melem_per_s = 0.0;
  std::vector<Criterion> criteria;
  std::string detail;  // what else was counted: "90 entries escalated"

  bool met() const;  // every criterion met
};

// The reference's throughput on 2 cores, correctly rounded entries per
// second (issue 11; the MPFR-only oracle gave 1.1 million).
inline constexpr double reference_f32_min_melem_per_s = 50.0;
inline constexpr double reference_f64_min_melem_per_s = 10.0;

// The rotary cache's time per entry over the float32 table's. An entry of
// the cache holds a cos and a sin of one angle: one rotation, as a sin and cos
// pair of the additive table is, i.e. two additive entries. So 2 is parity in
// work per value written; above it the rotary path is doing more than its
// share of the same rotations.
inline constexpr double rope_cache_max_time_per_entry_vs_pe_f32 = 2.0;

// The figures in the issues' order: pe_table_f32, pe_table_f16,
// pe_table_bf16, rope_cache_f32, embed_forward, reference_f32, reference_f64
// (the last two absent when not measured), then the commands'.
std::vector<JudgedFigure> judged_figures(const Figures& figures);

std::string_view symbol(Comparison comparison);

}  // namespace pecheck::bench
