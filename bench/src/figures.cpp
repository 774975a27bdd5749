#include "pecheck/bench/figures.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <limits>
#include <optional>
#include <thread>

#include "accuracy_sample.hpp"
#include "pecheck/bench/workloads.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/count_text.hpp"
#include "pecheck/parallel_for.hpp"

namespace pecheck::bench {

namespace {

// The sizes of the issue: an 8192 x 1024 table, a forward pass of 8 x 1024
// ids into a 32000 x 1024 vocabulary, the reference for the same table; a
// rotary cache of 65536 positions (llama3.1's trained context is 131072)
// x 128 columns, as many entries as the table.
// Quick mode keeps the shapes' kinds and shrinks them to run in well under
// a second.
struct Sizes {
  TableRequest table;
  ForwardShape forward;
  TableRequest reference;
  std::int64_t sampled_entries;
  RotaryCacheRequest rope;
  std::int64_t rope_sampled_entries;  // each measured in cos and sin
};

// The rotary preset timed: llama3.1's scaling rule is the costliest
// frequency rule of the common presets, and its head_dim of 128 is typical.
constexpr const char* rope_preset = "llama3.1";
// The rotary cache is timed in every round, as the tables are: each run
// writes the tables its first run allocated (RotaryCacheBuild::run). The
// rest of the rotary path (rotary_figures.hpp) runs for seconds a round, so
// its figures are the best of the first 3 rounds: a run that long spans many
// scheduler slices, so a burst of load moves it little.
constexpr int rotary_max_rounds = 3;

Sizes sizes_for(bool quick) {
  if (quick) return {{256, 128, 0}, {2, 64, 500, 128}, {16, 32, 0}, 64, {0, 256, FormatId::float32}, 32};
  return {{8192, 1024, 0}, {8, 1024, 32000, 1024}, {8192, 1024, 0}, 512, {0, 65536, FormatId::float32}, 256};
}

double load_average() {
  std::ifstream file("/proc/loadavg");
  double one_minute = -1.0;
  if (!(file >> one_minute)) return -1.0;
  return one_minute;
}

double seconds_of(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void keep_best(double& best, double seconds) { best = best == 0.0 ? seconds : std::min(best, seconds); }

void report(const BenchOptions& options, const std::string& line) {
  if (options.progress) options.progress(line);
}

}  // namespace

double TableTiming::melem_per_s() const {
  return best_seconds > 0.0 ? static_cast<double>(rows * dim) / best_seconds / 1e6 : 0.0;
}

Figures measure_figures(const BenchOptions& options) {
  const std::optional<Convention> convention = find_preset(options.convention);
  if (!convention) throw ConventionError("bench: unknown convention '" + options.convention + "' (see pecheck conventions)");
  const Sizes sizes = sizes_for(options.quick);

  Figures figures;
  figures.quick = options.quick;
  figures.threads = options.threads > 0 ? options.threads : machine_threads();
  figures.repetitions = options.repetitions > 0 ? options.repetitions : (options.quick ? 1 : 21);
  figures.convention = convention->name;
  figures.load_average_before = load_average();
  const int threads = figures.threads;

  report(options, "building the workloads");
  // Each reference writes the buffer of the figure it is compared with, so
  // both write the same memory pages.
  EncodingTable table_f32(*convention, sizes.table, FormatId::float32);
  StreamingStore store(table_f32.float32_buffer());
  EncodingTable table_f16(*convention, sizes.table, FormatId::float16);
  EncodingTable table_bf16(*convention, sizes.table, FormatId::bfloat16);
  const ForwardShape& shape = sizes.forward;
  EmbedForward forward(*convention, shape, options.seed);
  Triad triad(forward.output_buffer());
  const std::optional<RotaryConvention> rope_convention = find_rotary_preset(rope_preset);
  if (!rope_convention) throw ConventionError(std::string("bench: the rotary preset '") + rope_preset + "' is missing");
  RotaryCacheBuild rope(*rope_convention, sizes.rope);

  report(options, "timing the fast path: best of " + count_of(figures.repetitions, "round"));
  double store_best = 0.0;
  double triad_best = 0.0;
  double f32_best = 0.0;
  double f16_best = 0.0;
  double bf16_best = 0.0;
  double forward_best = 0.0;
  double rope_best = 0.0;
  // The first run allocates the cache's tables: timed apart, not a round.
  const double rope_first = seconds_of([&] { rope.run(); });
  for (int round = 0; round < figures.repetitions; ++round) {
    keep_best(store_best, seconds_of([&] { store.run(threads); }));
    keep_best(f32_best, seconds_of([&] { table_f32.run(threads); }));
    keep_best(f16_best, seconds_of([&] { table_f16.run(threads); }));
    keep_best(bf16_best, seconds_of([&] { table_bf16.run(threads); }));
    keep_best(triad_best, seconds_of([&] { triad.run(threads); }));
    keep_best(forward_best, seconds_of([&] { forward.run(threads); }));
    keep_best(rope_best, seconds_of([&] { rope.run(); }));
  }

  figures.write_bandwidth = {static_cast<double>(store.bytes()), store_best};
  figures.triad_bandwidth = {static_cast<double>(triad.bytes()), triad_best};
  const auto timing = [&](double best) { return TableTiming{sizes.table.rows, sizes.table.dim, best}; };
  figures.pe_table_f32.timing = timing(f32_best);
  figures.pe_table_f32.fraction_of_write_bw = store_best / f32_best;
  figures.pe_table_f16 = {timing(f16_best), f16_best / f32_best};
  figures.pe_table_bf16 = {timing(bf16_best), bf16_best / f32_best};

  auto& rope_figure = figures.rope_cache_f32;
  rope_figure.preset = rope_convention->name;
  rope_figure.rows = sizes.rope.rows;
  rope_figure.cols = rotary_columns(*rope_convention);
  rope_figure.rounds = figures.repetitions;
  rope_figure.first_run_seconds = rope_first;
  rope_figure.best_seconds = rope_best;
  rope_figure.melem_per_s = static_cast<double>(rope.entries()) / rope_best / 1e6;
  rope_figure.time_per_entry_vs_pe_f32 =
      (rope_best / static_cast<double>(rope.entries())) / (f32_best / static_cast<double>(table_f32.elements()));

  auto& embed = figures.embed_forward;
  embed.batch = shape.batch;
  embed.sequence = shape.sequence;
  embed.vocabulary = shape.vocabulary;
  embed.dim = shape.dim;
  embed.best_seconds = forward_best;
  embed.melem_per_s = static_cast<double>(forward.elements()) / forward_best / 1e6;
  // Both move three float32 arrays of the same element count (the forward
  // pass reads a vocabulary row and an encoding row per output row).
  embed.fraction_of_triad_bw = triad_best / forward_best;

  report(options, "sampling the float32 table's accuracy against the reference");
  table_f32.run(threads);  // its buffer is the streaming store's too
  const AccuracySample sample = sample_float32_accuracy(*convention, sizes.table, table_f32.float32_values(),
                                                        sizes.sampled_entries, options.seed);
  figures.pe_table_f32.max_ulp = sample.max_ulp;
  figures.pe_table_f32.sampled_entries = sample.entries;
  report(options, "sampling the " + std::string(rope_preset) + " rotary cache's accuracy against the reference");
  const AccuracySample rope_sample = sample_rotary_float32_accuracy(*rope_convention, sizes.rope, rope.cache(),
                                                                    sizes.rope_sampled_entries, options.seed);
  rope_figure.max_ulp = rope_sample.max_ulp;
  rope_figure.sampled_values = rope_sample.entries;

  if (options.reference) {
    const TableRequest& request = sizes.reference;
    const auto time_reference = [&](FormatId format, ReferenceFigure& figure) {
      report(options, "timing the correctly rounded " + std::string(format_of(format).name) + " reference table (" +
                          std::to_string(request.rows) + " x " + std::to_string(request.dim) + ", once)");
      reference::ReferenceTable table;
      // The table `pecheck table --impl reference` writes: the rounded values
      // alone (ExactValues::none), no exact value kept per entry.
      figure.seconds = seconds_of([&] {
        table = reference::reference_table(*convention, request, format, threads, reference::ExactValues::none);
      });
      figure.measured = true;
      figure.rows = request.rows;
      figure.dim = request.dim;
      figure.melem_per_s = static_cast<double>(request.rows * request.dim) / figure.seconds / 1e6;
      figure.escalated = table.escalations;
      figure.fallbacks = table.double_word_fallbacks;
    };
    time_reference(FormatId::float32, figures.reference_f32);
    time_reference(FormatId::float64, figures.reference_f64);
  }
  if (!options.executable.empty()) {
    report(options, "timing pecheck table and pecheck validate as commands");
    figures.end_to_end = measure_end_to_end(options.executable, options.quick, options.quick ? 1 : 5);
    report(options, "timing pecheck validate on a rotated output as a command");
    figures.rotated_cli = measure_rotated_cli(options.executable, options.quick, options.quick ? 1 : 3);
  }
  report(options, "timing the hf-float32 fast path, the rotary reference and rotary validate");
  figures.rotary = measure_rotary_figures(*rope_convention, options.quick, threads,
                                          std::min(figures.repetitions, rotary_max_rounds),
                                          options.executable);
  if (!options.executable.empty() && !options.python.interpreter.empty()) {
    report(options, "timing pecheck.validate, validate_rope and validate_rotated as Python calls");
    figures.python = measure_python_figures(options.python, figures, options.quick, options.quick ? 1 : 3);
  }
  figures.load_average_after = load_average();
  return figures;
}

}  // namespace pecheck::bench
