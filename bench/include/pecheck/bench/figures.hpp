// The performance figures of the fast path, each with the in-run reference it
// is judged against: what `pecheck bench` prints and the report's
// performance section shows. Every fast figure is the best of several
// repetitions, taken in rounds (one run of each workload per round) so that
// a burst of load elsewhere on the machine touches all figures alike; the
// reference table is timed once (it takes seconds).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "pecheck/bench/end_to_end.hpp"
#include "pecheck/bench/python_figures.hpp"
#include "pecheck/bench/rotary_figures.hpp"
#include "pecheck/bench/rotated_figure.hpp"

namespace pecheck::bench {

struct BenchOptions {
  bool quick = false;            // tiny sizes, one round: a smoke test, not a measurement
  int repetitions = 0;           // rounds; 0: 21 (1 when quick)
  int threads = 0;               // 0: one per hardware thread
  std::string convention = "vaswani";
  bool reference = true;         // time the correctly rounded reference table too
  std::uint64_t seed = 1;        // token ids, vocabulary values, the accuracy sample
  // The pecheck program whose commands are timed end to end (table_cli,
  // validate_cli); empty: those figures are not measured.
  std::string executable;
  // The interpreter and package the Python calls are timed with
  // (python_figures.hpp); an empty interpreter: not measured.
  PythonSetup python;
  // Called with a line of progress before each slow step (may be empty).
  std::function<void(const std::string&)> progress;
};

struct Bandwidth {
  double bytes = 0.0;
  double best_seconds = 0.0;
  double gb_per_s() const { return best_seconds > 0.0 ? bytes / best_seconds / 1e9 : 0.0; }
};

struct TableTiming {
  std::int64_t rows = 0;
  std::int64_t dim = 0;
  double best_seconds = 0.0;
  double melem_per_s() const;
};

struct ReferenceFigure {
  bool measured = false;
  std::int64_t rows = 0;
  std::int64_t dim = 0;
  double seconds = 0.0;
  double melem_per_s = 0.0;
  std::int64_t escalated = 0;  // entries MPFR decided
  std::int64_t fallbacks = 0;  // entries the double tier left to the double-word tier
};

struct Figures {
  // How and where they were taken.
  bool quick = false;
  int threads = 0;
  int repetitions = 0;
  std::string convention;
  double load_average_before = -1.0;  // 1-minute load average (/proc/loadavg), -1 if unknown
  double load_average_after = -1.0;

  // The in-run references: a streaming store of the float32 table's size, and
  // a float32 triad with arrays of the forward pass's output size.
  Bandwidth write_bandwidth;
  Bandwidth triad_bandwidth;

  // 1. The float32 table, its fraction of the write bandwidth (the store's
  //    time over the table's: both write the same bytes), and its accuracy
  //    against the reference on a sample of entries.
  struct {
    TableTiming timing;
    double fraction_of_write_bw = 0.0;
    double max_ulp = 0.0;
    std::int64_t sampled_entries = 0;
  } pe_table_f32;

  // 3. float16 and bfloat16: time per element over float32's.
  struct HalfTable {
    TableTiming timing;
    double time_per_element_vs_f32 = 0.0;
  };
  HalfTable pe_table_f16;
  HalfTable pe_table_bf16;

  // 2. The fused embedding forward pass; its bytes (read a vocabulary row,
  //    read an encoding row, write the output) over the triad's.
  struct {
    std::int64_t batch = 0;
    std::int64_t sequence = 0;
    std::int64_t vocabulary = 0;
    std::int64_t dim = 0;
    double best_seconds = 0.0;
    double melem_per_s = 0.0;
    double fraction_of_triad_bw = 0.0;
  } embed_forward;

  // 3b. The fast rotary cache (llama3.1, head_dim 128) in float32, as
  //     `pecheck rope --impl fast` builds it, into tables reused run after
  //     run as pe_table_f32's buffer is: its time per entry (a
  //     position x column, holding one cos and one sin) over the float32
  //     table's time per entry, and its accuracy against the exact encoding
  //     on a sample of entries (cos and sin each measured).
  struct {
    std::string preset;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    int rounds = 0;  // the best of this many rounds
    double best_seconds = 0.0;
    double melem_per_s = 0.0;  // entries (cos and sin pairs) per second
    double time_per_entry_vs_pe_f32 = 0.0;
    double first_run_seconds = 0.0;  // the untimed first run, which allocates the two tables
    double max_ulp = 0.0;
    std::int64_t sampled_values = 0;
  } rope_cache_f32;

  // 4. The correctly rounded reference tables (float32, float64), timed once
  //    each, as `pecheck table --impl reference` builds them (the rounded
  //    values alone, ExactValues::none); `escalated` counts
  //    the entries left to MPFR, `fallbacks` those the double tier left to
  //    the double-word tier.
  ReferenceFigure reference_f32;
  ReferenceFigure reference_f64;
  // 5. The commands as users run them (end_to_end.hpp).
  EndToEndFigures end_to_end;
  // 6. The computation model's fast path, the rotary reference and rotary
  //    validate as a command (rotary_figures.hpp).
  RotaryFigures rotary;
  RotatedCliFigure rotated_cli;  // rotated_figure.hpp
  // 7. The same validations as Python calls on tensors (python_figures.hpp).
  PythonFigures python;
};

// Builds the workloads, measures them and samples the accuracy. Throws
// ConventionError for an unknown convention name.
Figures measure_figures(const BenchOptions& options);

// The load average before the run above which the machine counts as busy,
// per thread used. The 1-minute average of an idle 2-core machine here was
// 0.05-0.3; during another build it was above 4, and the float32 table then
// measured 0.47 of the write bandwidth against 0.89 idle. The figure after
// the run includes the run's own threads, so only the one before is judged.
inline constexpr double busy_load_per_thread = 0.25;
bool machine_was_busy(const Figures& figures);

// "vaswani, 2 threads, best of 21 rounds; load average 0.12 before, 0.10
// after" (and that a quick run is not a measurement, or the machine busy).
std::string conditions_text(const Figures& figures);

// The figures as aligned text, one line each with its ratio and target.
std::string figures_text(const Figures& figures);

// The figures as one JSON object: pe_table_f32 {melem_per_s,
// fraction_of_write_bw, max_ulp}, pe_table_f16 and pe_table_bf16
// {melem_per_s}, rope_cache_f32 {melem_per_s, time_per_entry_vs_pe_f32,
// max_ulp}, embed_forward {melem_per_s, fraction_of_triad_bw},
// reference_f32 and reference_f64 {melem_per_s, escalated}, with the sizes, the references and
// the conditions beside them.
std::string figures_json(const Figures& figures);

}  // namespace pecheck::bench
