#include "pecheck/bench/rotary_figures.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>

#include <time.h>

#include <unistd.h>

#include "alternated_runs.hpp"
#include "child_run.hpp"
#include "pecheck/bench/targets.hpp"
#include "pecheck/npy.hpp"
#include "pecheck/parallel_for.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/rotary_cache.hpp"

namespace pecheck::bench {

namespace {

double seconds_of(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void keep_best(double& best, double seconds) { best = best == 0.0 ? seconds : std::min(best, seconds); }

std::string shape(std::int64_t rows, std::int64_t cols) { return std::to_string(rows) + " x " + std::to_string(cols); }

std::string number(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

double process_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void measure_validate(const RotaryConvention& convention, const RotaryCacheRequest& request, int runs,
                      const std::string& executable, RotaryFigures& figures) {
  EndToEndFigure& figure = figures.validate_cli;
  figure.rows = request.rows;
  figure.dim = rotary_columns(convention);
  const std::filesystem::path dir = scratch_directory();
  const std::string tag = std::to_string(::getpid());
  const std::filesystem::path cos_path = dir / ("pecheck-bench-" + tag + "-cos.npy");
  const std::filesystem::path sin_path = dir / ("pecheck-bench-" + tag + "-sin.npy");
  {
    const RotaryCache cache = fast_rotary_cache(convention, request);
    write_npy(cos_path, cache.cos);
    write_npy(sin_path, cache.sin);
  }
  figure.file_bytes = static_cast<double>(std::filesystem::file_size(cos_path) + std::filesystem::file_size(sin_path));
  const std::vector<std::string> argv = {executable, "validate", cos_path.string(), "--sin", sin_path.string()};
  for (const std::string& a : argv) figure.command += (figure.command.empty() ? "" : " ") + a;
  const auto command = [&](int) { return keep_command_run(argv, figure, &figures.validate_cpu_seconds); };
  // What validate cannot avoid: reading both files (at once, as validate
  // reads them), and the cache itself computed once by the fast path.
  const auto baseline = [&](int) {
    const double cpu_start = process_cpu_seconds();
    const double seconds = seconds_of([&] {
      TableFile cos, sin;
      both_at_once([&] { cos = read_npy(cos_path); }, [&] { sin = read_npy(sin_path); });
      const RotaryCache fast = fast_rotary_cache(convention, request);
    });
    const double cpu = process_cpu_seconds() - cpu_start;
    if (figure.baseline_seconds == 0.0 || seconds < figure.baseline_seconds) {
      figures.validate_baseline_cpu_seconds = cpu;
    }
    keep_best(figure.baseline_seconds, seconds);
  };
  alternated_runs(runs, command, baseline);
  std::filesystem::remove(cos_path);
  std::filesystem::remove(sin_path);
}

}  // namespace

RotaryFigures measure_rotary_figures(const RotaryConvention& convention, bool quick, int threads, int rounds,
                                     const std::string& executable) {
  RotaryFigures f;
  const RotaryCacheRequest request{0, quick ? 256 : 65536, FormatId::float32};
  f.rows = request.rows;
  f.cols = rotary_columns(convention);
  f.rounds = std::max(rounds, 1);
  const ComputationModel model = *find_computation_model("hf-float32");
  for (int round = 0; round < f.rounds; ++round) {
    RotaryCache cache;
    keep_best(f.model_seconds, seconds_of([&] { cache = fast_rotary_model_cache(convention, request, model); }));
  }
  reference::RotaryReferenceCache oracle;
  f.reference_seconds = seconds_of([&] {
    oracle =
        reference::rotary_reference_cache(convention, request, std::nullopt, threads, reference::ExactValues::none);
  });
  f.reference_mpfr_values = oracle.mpfr_entries;
  f.measured = true;
  if (!executable.empty()) measure_validate(convention, request, quick ? 1 : f.rounds, executable, f);
  return f;
}

void append_rotary_figures(const RotaryFigures& f, std::vector<JudgedFigure>& out) {
  if (!f.measured) return;
  const double values = static_cast<double>(f.values());
  const std::string cache = shape(f.rows, f.cols) + " llama3.1 cos + sin, float32";
  const double model_rate = values / f.model_seconds / 1e6;
  out.push_back({"rope_model_f32",
                 cache + ", hf-float32 by the fast path",
                 f.model_seconds,
                 model_rate,
                 {{"Melem/s", model_rate, Comparison::at_least, rope_model_min_melem_per_s,
                   "issue 31: the computation model at the additive tables' scale"}},
                 "values (cos and sin each) per second; best of " + std::to_string(f.rounds) +
                     (f.rounds == 1 ? " round" : " rounds")});
  const double reference_rate = values / f.reference_seconds / 1e6;
  out.push_back({"rope_reference_f32",
                 cache + ", correctly rounded (as pecheck rope --impl reference)",
                 f.reference_seconds,
                 reference_rate,
                 {{"Melem/s", reference_rate, Comparison::at_least, rope_reference_min_melem_per_s,
                   "issue 31: validate compares every value, so the oracle must be cheap"},
                  {"values left to MPFR", static_cast<double>(f.reference_mpfr_values), Comparison::at_most, 0.0,
                   "issue 31: the cheap tiers decide the bench's cache"}},
                 "timed once"});
  const EndToEndFigure& v = f.validate_cli;
  if (!v.measured) return;
  out.push_back({"rope_validate_cli",
                 "pecheck validate " + shape(v.rows, v.dim) + " float32 cos + sin .npy, every value",
                 v.seconds,
                 values / v.seconds / 1e6,
                 {{"time over reading the files and the fast path", v.seconds / v.baseline_seconds, Comparison::at_most,
                   rope_validate_max_time_vs_baseline, "issue 31: as validate_cli for the additive tables"},
                  {"peak RSS over the files' size", v.peak_rss_bytes / v.file_bytes, Comparison::at_most,
                   rope_validate_max_rss_vs_files, "issue 31: memory follows the payload"}},
                 "read + fast path " + number("%.3f", v.baseline_seconds) + " s; CPU time " +
                     number("%.2f", f.validate_cpu_seconds) + " s against " +
                     number("%.2f", f.validate_baseline_cpu_seconds) + " s (" +
                     number("%.2f", f.validate_baseline_cpu_seconds > 0.0
                                        ? f.validate_cpu_seconds / f.validate_baseline_cpu_seconds
                                        : 0.0) +
                     "x); peak RSS " + std::to_string(static_cast<long long>(v.peak_rss_bytes / 1048576)) +
                     " MiB, files " + std::to_string(static_cast<long long>(v.file_bytes / 1048576)) + " MiB"});
}

}  // namespace pecheck::bench
