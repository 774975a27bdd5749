// The commands users run, timed as they run them: `pecheck table` writing a
// file and `pecheck validate` reading one, each a process of its own with its
// wall time and peak resident memory (getrusage of the child), judged against
// figures taken in the same run (one write() of the same bytes from a
// buffer; the file's own size).
#pragma once

#include <cstdint>
#include <string>

namespace pecheck::bench {

struct EndToEndFigure {
  bool measured = false;
  std::string command;           // as run, with the file in the scratch directory
  std::int64_t rows = 0;
  std::int64_t dim = 0;
  double seconds = 0.0;          // best of the runs (validate: its one run)
  double peak_rss_bytes = 0.0;   // the child's ru_maxrss
  double file_bytes = 0.0;
  // table_cli: one write() of file_bytes from a buffer; validate_cli: reading
  // the file (read_npy) and running the fast path over the same table, in this
  // process; best of the runs.
  double baseline_seconds = 0.0;
  double numpy_seconds = -1.0;   // table_cli: NumPy's float64-angle table + np.save, in-process time; -1 if absent
  // table_cli: the same command writing a 1 x 2 table, best of the runs: what
  // starting the process and writing any file costs before the table does (0: not measured).
  double startup_seconds = 0.0;
  std::string skipped;           // why it was not measured
};

struct EndToEndFigures {
  EndToEndFigure table_cli;
  EndToEndFigure validate_cli;
};

// executable: the pecheck program to run (tools passes its own path). The
// files go to /dev/shm when it is writable (tmpfs), else to TMPDIR or /tmp,
// and are removed afterwards. quick: tiny sizes, one run.
EndToEndFigures measure_end_to_end(const std::string& executable, bool quick, int runs);

}  // namespace pecheck::bench
