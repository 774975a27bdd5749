// `rotated_cli`: `pecheck validate OUT --input IN --positions POS` on a
// (1, 8192, 32, 128) bfloat16 output (a llama2 kernel's rotated queries, one
// batch of 8192 tokens and 32 heads), every entry compared, as a command:
// its wall time against reading the two files and one float32 rotation over
// them in this process, and its peak memory against the two files' size.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pecheck::bench {

struct RotatedCliFigure {
  bool measured = false;
  std::string command;  // as run, with the files in the scratch directory
  std::vector<std::int64_t> shape;
  double seconds = 0.0;          // best of the runs
  double peak_rss_bytes = 0.0;   // the command's own (VmHWM)
  double files_bytes = 0.0;      // OUT and IN together
  double baseline_seconds = 0.0; // reading OUT and IN (typed) + one float32 rotation of IN, best of the runs
  // CPU time (user + system) of the command's fastest run and of the
  // baseline's: on a busy machine, where wall times follow the load, their
  // ratio is the work each does.
  double cpu_seconds = 0.0;
  double baseline_cpu_seconds = 0.0;
  std::string skipped;           // why it was not measured
};

// quick: a (1, 64, 4, 128) output, one run. executable: the pecheck program.
RotatedCliFigure measure_rotated_cli(const std::string& executable, bool quick, int runs);

struct JudgedFigure;
// Appends the judged figure when it was measured (targets.cpp's list).
void add_rotated_cli(const RotatedCliFigure& figure, std::vector<JudgedFigure>& figures);
// The figure as a JSON object ("null" when not measured).
std::string rotated_cli_json(const RotatedCliFigure& figure);

}  // namespace pecheck::bench
