#include "pecheck/bench/end_to_end.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "alternated_runs.hpp"
#include "child_run.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/npy.hpp"

namespace pecheck::bench {

namespace {

// One write() of bytes from a buffer already in memory: the floor for writing a file.
double write_once_seconds(const std::filesystem::path& path, const std::vector<char>& bytes) {
  const auto start = std::chrono::steady_clock::now();
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return 0.0;
  const ssize_t wrote = ::write(fd, bytes.data(), bytes.size());
  ::close(fd);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::filesystem::remove(path);
  return wrote == static_cast<ssize_t>(bytes.size()) ? seconds : 0.0;
}

// What validate cannot avoid: reading the file into a table and computing
// the same table by pecheck's fast path (all threads); 0 when the file does
// not hold the table.
double read_and_fast_path_seconds(const std::filesystem::path& path, std::int64_t rows, std::int64_t dim) {
  const auto start = std::chrono::steady_clock::now();
  const TableFile file = read_npy(path);
  const Table fast = fast_table(*find_preset("vaswani"), {rows, dim, 0}, FormatId::float32);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return file.table.rows == rows && fast.rows == rows ? seconds : 0.0;
}

// NumPy's own float64-angle table and np.save, timed inside Python (the
// interpreter's start and the import are left out: they are not the table).
double numpy_seconds(const std::filesystem::path& path, std::int64_t rows, std::int64_t dim) {
  const std::string script =
      "import sys, time\n"
      "import numpy as np\n"
      "rows, dim, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]\n"
      "t = time.perf_counter()\n"
      "p = np.arange(rows, dtype=np.float64)[:, None]\n"
      "w = np.power(10000.0, -np.arange(0, dim, 2, dtype=np.float64) / dim)\n"
      "pe = np.empty((rows, dim), dtype=np.float32)\n"
      "pe[:, 0::2] = np.sin(p * w)\n"
      "pe[:, 1::2] = np.cos(p * w)\n"
      "np.save(out, pe)\n"
      "print(time.perf_counter() - t)\n";
  const std::string command = "/usr/bin/python3 -c '" + script + "' " + std::to_string(rows) + " " +
                              std::to_string(dim) + " " + path.string() + " 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return -1.0;
  double seconds = -1.0;
  if (std::fscanf(pipe, "%lf", &seconds) != 1) seconds = -1.0;
  if (::pclose(pipe) != 0) seconds = -1.0;
  std::filesystem::remove(path);
  return seconds;
}

}  // namespace

EndToEndFigures measure_end_to_end(const std::string& executable, bool quick, int runs) {
  EndToEndFigures figures;
  const std::filesystem::path dir = scratch_directory();
  const std::string tag = std::to_string(::getpid());

  EndToEndFigure& table = figures.table_cli;
  table.rows = quick ? 64 : 8192;
  table.dim = quick ? 64 : 1024;
  const std::filesystem::path table_path = dir / ("pecheck-bench-" + tag + ".npy");
  const std::vector<std::string> table_argv = {executable, "table", "--convention", "vaswani", "--rows",
                                               std::to_string(table.rows), "--dim", std::to_string(table.dim),
                                               "--output", table_path.string()};
  for (const std::string& a : table_argv) table.command += (table.command.empty() ? "" : " ") + a;
  for (int run = 0; run < std::max(runs, 1); ++run) {
    // A fresh path each run, as the write() baseline has: replacing the last
    // run's file would add freeing its 32 MiB of pages to the command's time.
    std::filesystem::remove(table_path);
    const ChildRun child = run_child(table_argv);
    if (child.status != 0) {
      table.skipped = "pecheck table exited with status " + std::to_string(child.status);
      break;
    }
    if (run == 0 || child.seconds < table.seconds) table.seconds = child.seconds;
    table.peak_rss_bytes = std::max(table.peak_rss_bytes, child.peak_rss_bytes);
  }
  if (table.skipped.empty()) {
    table.file_bytes = static_cast<double>(std::filesystem::file_size(table_path));
    const std::vector<char> bytes(static_cast<std::size_t>(table.file_bytes), 1);
    for (int run = 0; run < std::max(runs, 1); ++run) {
      const double seconds = write_once_seconds(dir / ("pecheck-bench-" + tag + ".bin"), bytes);
      if (run == 0 || seconds < table.baseline_seconds) table.baseline_seconds = seconds;
    }
    table.measured = table.baseline_seconds > 0.0;
    table.numpy_seconds = numpy_seconds(dir / ("pecheck-bench-" + tag + "-numpy.npy"), table.rows, table.dim);
    std::vector<std::string> tiny_argv = table_argv;
    tiny_argv[5] = "1";  // --rows
    tiny_argv[7] = "2";  // --dim
    for (int run = 0; run < std::max(runs, 1); ++run) {
      std::filesystem::remove(table_path);
      const ChildRun child = run_child(tiny_argv);
      if (child.status != 0) break;
      if (run == 0 || child.seconds < table.startup_seconds) table.startup_seconds = child.seconds;
    }
  }
  std::filesystem::remove(table_path);

  EndToEndFigure& validate = figures.validate_cli;
  validate.rows = quick ? 256 : 32768;
  validate.dim = quick ? 64 : 1024;
  const std::filesystem::path validate_path = dir / ("pecheck-bench-" + tag + "-validate.npy");
  {
    const Table written = fast_table(*find_preset("vaswani"), {validate.rows, validate.dim, 0}, FormatId::float32);
    write_npy(validate_path, written);
  }
  validate.file_bytes = static_cast<double>(std::filesystem::file_size(validate_path));
  const std::vector<std::string> validate_argv = {executable, "validate", validate_path.string()};
  for (const std::string& a : validate_argv) validate.command += (validate.command.empty() ? "" : " ") + a;
  bool baseline_held = true;  // every baseline run read the table it wrote
  alternated_runs(
      runs,
      [&](int) { return keep_command_run(validate_argv, validate); },
      [&](int run) {
        const double seconds = read_and_fast_path_seconds(validate_path, validate.rows, validate.dim);
        baseline_held = baseline_held && seconds > 0.0;
        if (run == 0 || seconds < validate.baseline_seconds) validate.baseline_seconds = seconds;
      });
  if (!baseline_held) validate.baseline_seconds = 0.0;
  std::filesystem::remove(validate_path);
  return figures;
}

}  // namespace pecheck::bench
