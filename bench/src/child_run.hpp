// A pecheck command timed as a process of its own, for the figures that time
// commands as users run them (end_to_end.cpp, rotary_figures.cpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pecheck::bench {

struct ChildRun {
  int status = -1;
  double seconds = 0.0;
  double peak_rss_bytes = 0.0;
};

// Runs argv with stdout and stderr to /dev/null; its wall time, and the peak
// RSS it reports through PECHECK_PEAK_RSS_FILE (lib/include/pecheck/process_limits.hpp: the
// rusage of a child would count this process's own memory too).
ChildRun run_child(const std::vector<std::string>& argv);

// /dev/shm when it is writable (tmpfs), else TMPDIR or /tmp.
std::filesystem::path scratch_directory();

}  // namespace pecheck::bench
