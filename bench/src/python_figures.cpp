#include "pecheck/bench/python_figures.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "child_run.hpp"
#include "rotated_workload.hpp"
#include "pecheck/bench/figures.hpp"
#include "pecheck/bench/targets.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/external_subjects.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/npy.hpp"
#include "pecheck/rotary_cache.hpp"

namespace pecheck::bench {

namespace {

// The child: `KIND RUNS FILE...`. It loads the files as a test holds its
// tensors (np.load, torch.from_numpy; the rotated output as bfloat16, which
// the .npy holds exactly as float32), then makes the call: the first call's
// peak memory over the resident size before it (Linux: writing 5 to
// clear_refs resets VmHWM, so loading does not count), and the best wall
// time of RUNS calls. One JSON line on stdout; a failure is Python's own
// traceback, whose last line becomes the figure's reason.
constexpr const char* child_script = R"PY(import json, sys, time
start = time.perf_counter()
import pecheck
imported = time.perf_counter() - start
kind, runs, paths = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
if kind == "import":
    print(json.dumps({"import_seconds": imported}))
    sys.exit(0)
import numpy as np
import torch


def load(path):
    return torch.from_numpy(np.load(path))


def resident(key):
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith(key))


if kind == "validate":
    call, args, options = pecheck.validate, [load(paths[0])], {}
elif kind == "validate_rope":
    call, args, options = pecheck.validate_rope, [load(paths[0]), load(paths[1])], {}
else:
    call = pecheck.validate_rotated
    args = [load(paths[0]).bfloat16(), load(paths[1]).bfloat16(), load(paths[2])]
    options = {"rope": paths[3]}
tensor_bytes = sum(t.element_size() * t.nelement() for t in args[:2])
with open("/proc/self/clear_refs", "w") as clear:
    clear.write("5")
before = resident("VmRSS:")
best = None
for run in range(runs):
    start = time.perf_counter()
    result = call(*args, **options)
    seconds = time.perf_counter() - start
    best = seconds if best is None else min(best, seconds)
    if run == 0:
        peak_added = resident("VmHWM:") - before
print(json.dumps({"seconds": best, "peak_added_bytes": peak_added, "tensor_bytes": tensor_bytes,
                  "verdict": result.verdict}))
)PY";

struct ChildOutput {
  nlohmann::json result;  // null when the child failed
  std::string failure;    // its last line of output then
};

ChildOutput run_python(const PythonSetup& setup, const std::filesystem::path& script,
                       const std::vector<std::string>& arguments) {
  std::string command;
  // Appended piece by piece: GCC 12 warns (-Wrestrict) on "literal" + string.
  if (!setup.package_directory.empty()) command.append("PYTHONPATH=").append(shell_quote(setup.package_directory)).append(" ");
  command.append(shell_quote(setup.interpreter)).append(" ").append(shell_quote(script.string()));
  for (const std::string& a : arguments) command.append(" ").append(shell_quote(a));
  command.append(" 2>&1");
  ChildOutput output;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    output.failure = "could not start " + setup.interpreter;
    return output;
  }
  std::string text;
  char buffer[4096];
  for (std::size_t got = 0; (got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, got);
  const int status = ::pclose(pipe);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  const std::string last = text.substr(text.find_last_of('\n') == std::string::npos ? 0 : text.find_last_of('\n') + 1);
  if (status == 0) {
    output.result = nlohmann::json::parse(last, nullptr, false);
    if (!output.result.is_discarded()) return output;
  }
  output.result = nullptr;
  output.failure = !last.empty()         ? last
                   : WIFEXITED(status) ? "the interpreter exited with status " + std::to_string(WEXITSTATUS(status))
                                       : "the interpreter was killed";
  return output;
}

void measure_call(const PythonSetup& setup, const std::filesystem::path& script, const std::string& kind,
                  const std::vector<std::string>& files, const std::string& extra, int runs,
                  double command_seconds, PythonCallFigure& figure) {
  figure.command_seconds = command_seconds;
  std::vector<std::string> arguments = {kind, std::to_string(std::max(runs, 1))};
  arguments.insert(arguments.end(), files.begin(), files.end());
  if (!extra.empty()) arguments.push_back(extra);
  const ChildOutput output = run_python(setup, script, arguments);
  if (output.result.is_null()) {
    figure.skipped = output.failure;
    return;
  }
  figure.seconds = output.result.value("seconds", 0.0);
  figure.peak_added_bytes = output.result.value("peak_added_bytes", 0.0);
  figure.tensor_bytes = output.result.value("tensor_bytes", 0.0);
  figure.verdict = output.result.value("verdict", "");
  // The data are a correct implementation's: any other verdict means the call
  // did not do what the command did, and its time would compare nothing.
  if (figure.verdict != "conforms") {
    figure.skipped = "the call's verdict was '" + figure.verdict + "', not 'conforms'";
    return;
  }
  figure.measured = figure.seconds > 0.0 && figure.tensor_bytes > 0.0;
}

std::string number(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

}  // namespace

PythonFigures measure_python_figures(const PythonSetup& setup, const Figures& figures, bool quick, int runs) {
  PythonFigures python;
  python.attempted = true;
  const std::filesystem::path dir = scratch_directory();
  const std::string tag = "pecheck-bench-python-" + std::to_string(::getpid());
  const std::filesystem::path script = dir / (tag + ".py");
  std::ofstream(script) << child_script;

  // The import, alone, in fresh interpreters; its failure says why no call can run.
  for (int run = 0; run < (quick ? 1 : 5); ++run) {
    const ChildOutput output = run_python(setup, script, {"import", "1"});
    if (output.result.is_null()) {
      python.skipped = "import pecheck failed (" + output.failure + ")";
      std::filesystem::remove(script);
      return python;
    }
    const double seconds = output.result.value("import_seconds", 0.0);
    python.import_seconds = run == 0 ? seconds : std::min(python.import_seconds, seconds);
  }

  const EndToEndFigure& table = figures.end_to_end.validate_cli;
  python.validate.call = "pecheck.validate(table)";
  python.validate.compared_with = "validate_cli";
  if (table.measured) {
    const std::filesystem::path path = dir / (tag + "-table.npy");
    write_npy(path, fast_table(*find_preset("vaswani"), {table.rows, table.dim, 0}, FormatId::float32));
    measure_call(setup, script, "validate", {path.string()}, "", runs, table.seconds, python.validate);
    std::filesystem::remove(path);
  } else {
    python.validate.skipped = "validate_cli was not measured";
  }

  const EndToEndFigure& rope = figures.rotary.validate_cli;
  python.validate_rope.call = "pecheck.validate_rope(cos, sin)";
  python.validate_rope.compared_with = "rope_validate_cli";
  const std::optional<RotaryConvention> rope_convention = find_rotary_preset(figures.rope_cache_f32.preset);
  if (rope.measured && rope_convention) {
    const std::filesystem::path cos_path = dir / (tag + "-cos.npy"), sin_path = dir / (tag + "-sin.npy");
    {
      const RotaryCache cache = fast_rotary_cache(*rope_convention, {0, rope.rows, FormatId::float32});
      write_npy(cos_path, cache.cos);
      write_npy(sin_path, cache.sin);
    }
    measure_call(setup, script, "validate_rope", {cos_path.string(), sin_path.string()}, "", runs, rope.seconds,
                 python.validate_rope);
    std::filesystem::remove(cos_path);
    std::filesystem::remove(sin_path);
  } else {
    python.validate_rope.skipped = "rope_validate_cli was not measured";
  }

  const RotatedCliFigure& rotated = figures.rotated_cli;
  python.validate_rotated.call = "pecheck.validate_rotated(out, input, positions, rope=\"" +
                                 std::string(rotated_preset) + "\")";
  python.validate_rotated.compared_with = "rotated_cli";
  if (rotated.measured && rotated.shape.size() == 4) {
    const RotatedFiles files = write_rotated_files(dir, tag + "-rotated", rotated.shape[1], rotated.shape[2]);
    measure_call(setup, script, "validate_rotated", {files.out.string(), files.in.string(), files.positions.string()},
                 rotated_preset, runs, rotated.seconds, python.validate_rotated);
    remove_rotated_files(files);
  } else {
    python.validate_rotated.skipped = "rotated_cli was not measured";
  }
  std::filesystem::remove(script);
  return python;
}

void append_python_figures(const PythonFigures& python, std::vector<JudgedFigure>& out) {
  bool first = true;
  // The bytes of tensors per entry compared: a float32 table entry, a float32
  // cos or sin, a bfloat16 entry of OUT and of IN.
  for (const auto& [id, figure, bytes_per_entry] :
       {std::tuple{"python_validate", &python.validate, 4.0},
        std::tuple{"python_validate_rope", &python.validate_rope, 4.0},
        std::tuple{"python_validate_rotated", &python.validate_rotated, 4.0}}) {
    if (!figure->measured) continue;
    std::vector<Criterion> criteria = {
        {"time over the command's on the same files (" + figure->compared_with + ")",
         figure->seconds / figure->command_seconds, Comparison::at_most, python_max_time_vs_command,
         "issue 27: a call from a test is no slower than the command line"},
        {"memory added over the tensors", figure->peak_added_bytes / figure->tensor_bytes, Comparison::at_most,
         python_max_added_memory_vs_tensors, "issue 27: the tensors are read in place"}};
    if (first) {
      criteria.push_back({"import pecheck s", python.import_seconds, Comparison::below, python_max_import_seconds,
                          "issue 27: importing costs a test little"});
    }
    first = false;
    const double entries = figure->tensor_bytes / bytes_per_entry;
    out.push_back({id,
                   figure->call + " on tensors of " + number("%.0f", figure->tensor_bytes / 1048576) + " MiB",
                   figure->seconds,
                   entries / figure->seconds / 1e6,
                   criteria,
                   "the command " + number("%.3f", figure->command_seconds) + " s; added " +
                       number("%.1f", figure->peak_added_bytes / 1048576) + " MiB; verdict " + figure->verdict});
  }
}

std::string python_figures_json(const PythonFigures& python) {
  if (!python.attempted) return "null";
  const auto call = [](const PythonCallFigure& f) {
    nlohmann::json figure = {{"call", f.call}, {"compared_with", f.compared_with}, {"measured", f.measured}};
    if (!f.skipped.empty()) figure["skipped"] = f.skipped;
    if (!f.measured) return figure;
    figure.update({{"seconds", f.seconds},
                   {"command_seconds", f.command_seconds},
                   {"tensor_bytes", f.tensor_bytes},
                   {"peak_added_bytes", f.peak_added_bytes},
                   {"verdict", f.verdict}});
    return figure;
  };
  nlohmann::json out = {{"import_seconds", python.import_seconds},
                        {"validate", call(python.validate)},
                        {"validate_rope", call(python.validate_rope)},
                        {"validate_rotated", call(python.validate_rotated)}};
  if (!python.skipped.empty()) out = {{"skipped", python.skipped}};
  return out.dump();
}

}  // namespace pecheck::bench
