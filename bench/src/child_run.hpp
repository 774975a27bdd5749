// A pecheck command timed as a process of its own, for the figures that time
// commands as users run them (end_to_end.cpp, rotary_figures.cpp, rotated_figure.cpp).
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace pecheck::bench {

struct ChildRun {
  int status = -1;
  double seconds = 0.0;
  double peak_rss_bytes = 0.0;
  double cpu_seconds = 0.0;  // its user and system time (wait4's rusage: this child's alone)
};

// Runs argv with stdout and stderr to /dev/null; its wall time, and the peak
// RSS it reports through PECHECK_PEAK_RSS_FILE (lib/include/pecheck/process_limits.hpp: the
// rusage of a child would count this process's own memory too).
ChildRun run_child(const std::vector<std::string>& argv);

// One timed run of argv (a pecheck command) for a figure that keeps the
// command's best run (EndToEndFigure, RotatedCliFigure): its wall time, with
// that run's CPU time in *best_cpu when given, and the largest peak RSS of
// the runs. False, with the figure not measured and why, when the command
// failed.
template <typename Figure>
bool keep_command_run(const std::vector<std::string>& argv, Figure& figure, double* best_cpu = nullptr) {
  const ChildRun child = run_child(argv);
  if (child.status != 0) {
    figure.measured = false;
    figure.skipped = "pecheck " + argv.at(1) + " exited with status " + std::to_string(child.status);
    return false;
  }
  if (!figure.measured || child.seconds < figure.seconds) {
    figure.seconds = child.seconds;
    if (best_cpu != nullptr) *best_cpu = child.cpu_seconds;
  }
  figure.measured = true;
  figure.peak_rss_bytes = std::max(figure.peak_rss_bytes, child.peak_rss_bytes);
  return true;
}

// /dev/shm when it is writable (tmpfs), else TMPDIR or /tmp.
std::filesystem::path scratch_directory();

}  // namespace pecheck::bench
