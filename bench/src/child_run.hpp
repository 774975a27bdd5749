// Running a pecheck command as a user runs it, for the figures that time
// commands end to end (end_to_end.cpp, rotated_figure.cpp).
#pragma once

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

// /dev/shm when it is writable (tmpfs: the files' reading is not a disk's), else TMPDIR or /tmp.
std::filesystem::path scratch_directory();

}  // namespace pecheck::bench
