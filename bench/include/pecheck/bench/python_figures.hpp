// The Python calls kernel developers make in their tests, timed as they make
// them: `pecheck.validate(table)`, `pecheck.validate_rope(cos, sin)` and
// `pecheck.validate_rotated(out, input, positions, rope=...)` on live torch
// tensors, each in a fresh interpreter of its own, on the very files the
// matching command was timed on (validate_cli, rope_validate_cli,
// rotated_cli), loaded with np.load before the clock starts. Judged against
// the command on the same data (issue 27: within 1.2x of the command line)
// and by the memory the call adds over the tensors it is given (within 1.2x
// of them: the tensors are read in place). `import pecheck` in a fresh
// interpreter is timed beside them (issue 27: under 0.3 s).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pecheck::bench {

// The interpreter to run and the directory that holds the package (put on
// PYTHONPATH; empty: the interpreter's own, an installed package).
struct PythonSetup {
  std::string interpreter;
  std::string package_directory;
};

struct PythonCallFigure {
  bool measured = false;
  std::string call;             // "pecheck.validate_rope(cos, sin)"
  std::string compared_with;    // the command figure's id: "rope_validate_cli"
  double seconds = 0.0;         // the call's best wall time over the runs (tensors already in memory)
  double command_seconds = 0.0; // the command's best on the same files, from its own figure
  double tensor_bytes = 0.0;    // the bytes of the tensors passed
  double peak_added_bytes = 0.0;// VmHWM during the first call over VmRSS before it
  std::string verdict;          // the call's verdict: the data are a correct implementation's
  std::string skipped;          // why it was not measured
};

struct PythonFigures {
  bool attempted = false;
  std::string skipped;          // why none was measured (no interpreter, no module)
  double import_seconds = 0.0;  // `import pecheck` in a fresh interpreter, best of the runs
  PythonCallFigure validate;
  PythonCallFigure validate_rope;
  PythonCallFigure validate_rotated;
};

// The bounds.
inline constexpr double python_max_time_vs_command = 1.2;
inline constexpr double python_max_added_memory_vs_tensors = 1.2;
inline constexpr double python_max_import_seconds = 0.3;

struct Figures;
// Measures the three calls on the shapes the command figures in `figures`
// were measured on (a call whose command was not measured is skipped).
PythonFigures measure_python_figures(const PythonSetup& setup, const Figures& figures, bool quick, int runs);

struct JudgedFigure;
// Appends python_validate, python_validate_rope, python_validate_rotated
// (those measured), the first carrying the import time.
void append_python_figures(const PythonFigures& figures, std::vector<JudgedFigure>& out);
// The figures as a JSON object ("null" when not attempted).
std::string python_figures_json(const PythonFigures& figures);

}  // namespace pecheck::bench
