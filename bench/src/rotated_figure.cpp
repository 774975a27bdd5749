#include "pecheck/bench/rotated_figure.hpp"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "alternated_runs.hpp"
#include "child_run.hpp"
#include "pecheck/bench/targets.hpp"
#include "pecheck/npy_tensor.hpp"
#include "pecheck/parallel_for.hpp"
#include "rotated_workload.hpp"

namespace pecheck::bench {

namespace {

double process_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// What validating cannot avoid: reading OUT and IN in their stored format
// (at once, as validate reads them),
// and one float32 rotation of IN (a float32 angle and float32 sin and cos for
// every pair of every row, as a kernel computing them on the fly does) held
// against OUT, on every core: one run's seconds, and its CPU time in `cpu`;
// 0 when OUT is not IN rotated (the files are not what was written).
double read_and_rotate_seconds(const std::filesystem::path& out_path, const std::filesystem::path& in_path,
                               std::int64_t heads, double& cpu) {
  constexpr std::int64_t head_dim = rotated_head_dim;
  std::vector<float> freqs(head_dim / 2);
  for (std::int64_t i = 0; i < head_dim / 2; ++i) {
    freqs[static_cast<std::size_t>(i)] = static_cast<float>(rotated_inv_freq(i));
  }
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = process_cpu_seconds();
  NpyTensor out, in;  // at once, as validate reads them
  both_at_once([&] { out = read_npy_tensor(out_path); }, [&] { in = read_npy_tensor(in_path); });
  const int workers = machine_threads();
  std::vector<float> largest(static_cast<std::size_t>(workers));
  parallel_for(workers, [&](int worker) {
    float worst = 0.0F;
    constexpr std::size_t half = head_dim / 2;
    const std::span<const float> xs = in.values.storage<float>(), ys = out.values.storage<float>();
    for (std::int64_t r = worker; r < in.values.rows; r += workers) {
      const std::span<const float> x = xs.subspan(static_cast<std::size_t>(r * head_dim), 2 * half);
      const std::span<const float> y = ys.subspan(static_cast<std::size_t>(r * head_dim), 2 * half);
      const auto p = static_cast<float>(r / heads);
      for (std::size_t i = 0; i < half; ++i) {
        const float t = p * freqs[i];
        const float c = std::cos(t), s = std::sin(t);
        const float a = x[i] * c - x[i + half] * s;
        const float b = x[i] * s + x[i + half] * c;
        worst = std::max({worst, std::fabs(a - y[i]), std::fabs(b - y[i + half])});
      }
    }
    largest[static_cast<std::size_t>(worker)] = worst;
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // A correct output is within a few bfloat16 ULP of 2 * sqrt(2) of the float32 rotation: used, so not optimised
  // away.
  if (!(*std::max_element(largest.begin(), largest.end()) < 1.0F)) return 0.0;
  cpu = process_cpu_seconds() - cpu_start;
  return seconds;
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string text;
  for (const std::int64_t extent : shape) text += (text.empty() ? "(" : ", ") + std::to_string(extent);
  return text + ")";
}

}  // namespace

RotatedCliFigure measure_rotated_cli(const std::string& executable, bool quick, int runs) {
  RotatedCliFigure figure;
  const std::int64_t length = quick ? 64 : 8192, heads = quick ? 4 : 32;
  figure.shape = {1, length, heads, rotated_head_dim};
  const std::string tag = "pecheck-bench-rotated-" + std::to_string(::getpid());
  const RotatedFiles files = write_rotated_files(scratch_directory(), tag, length, heads);
  figure.files_bytes = files.files_bytes;
  const std::vector<std::string> argv = {executable,        "validate",    files.out.string(),       "--input",
                                         files.in.string(), "--positions", files.positions.string(), "--rope",
                                         rotated_preset};
  for (const std::string& a : argv) figure.command += (figure.command.empty() ? "" : " ") + a;
  bool baseline_held = true;  // every baseline run found OUT to be IN rotated
  alternated_runs(
      runs,
      [&](int) { return keep_command_run(argv, figure, &figure.cpu_seconds); },
      [&](int run) {
        double cpu = 0.0;
        const double seconds = read_and_rotate_seconds(files.out, files.in, heads, cpu);
        baseline_held = baseline_held && seconds > 0.0;
        if (run == 0 || seconds < figure.baseline_seconds) {
          figure.baseline_seconds = seconds;
          figure.baseline_cpu_seconds = cpu;
        }
      });
  if (!baseline_held) figure.baseline_seconds = 0.0;
  if (figure.baseline_seconds <= 0.0 && figure.measured) {
    figure.measured = false;
    figure.skipped = "the float32 rotation of IN is more than 1 from OUT: the files are not what was written";
  }
  remove_rotated_files(files);
  return figure;
}

void add_rotated_cli(const RotatedCliFigure& f, std::vector<JudgedFigure>& figures) {
  if (!f.measured) return;
  double entries = 1.0;
  for (const std::int64_t extent : f.shape) entries *= static_cast<double>(extent);
  char detail[256];
  std::snprintf(detail, sizeof detail,
                "read + float32 rotation %.3f s; CPU time %.2f s against %.2f s (%.2fx); peak RSS %lld MiB, files "
                "%lld MiB",
                f.baseline_seconds, f.cpu_seconds, f.baseline_cpu_seconds,
                f.baseline_cpu_seconds > 0.0 ? f.cpu_seconds / f.baseline_cpu_seconds : 0.0,
                static_cast<long long>(f.peak_rss_bytes / 1048576), static_cast<long long>(f.files_bytes / 1048576));
  figures.push_back({"rotated_cli",
                     "pecheck validate OUT --input IN " + shape_text(f.shape) + " bfloat16, every entry",
                     f.seconds,
                     entries / f.seconds / 1e6,
                     {{"time over reading the files and a float32 rotation", f.seconds / f.baseline_seconds,
                       Comparison::at_most, 3.0, "issue 25: comparing every entry costs little more than reading"},
                      {"peak RSS over the files' size", f.peak_rss_bytes / f.files_bytes, Comparison::at_most, 1.5,
                       "issue 25: memory follows the payload"}},
                     detail});
}

std::string rotated_cli_json(const RotatedCliFigure& f) {
  if (!f.measured) return "null";
  return nlohmann::json{{"command", f.command},         {"shape", f.shape},
                        {"seconds", f.seconds},         {"peak_rss_bytes", f.peak_rss_bytes},
                        {"files_bytes", f.files_bytes}, {"read_and_rotate_seconds", f.baseline_seconds},
                        {"cpu_seconds", f.cpu_seconds}, {"read_and_rotate_cpu_seconds", f.baseline_cpu_seconds}}
      .dump();
}

}  // namespace pecheck::bench
