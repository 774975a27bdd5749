// Rotated outputs written at test time by examples/rotated_outputs.py (the
// published forms in NumPy, or in PyTorch with --backend torch), cached in
// the build tree by a hash of the script, of rope_caches.py it imports, and
// of the arguments.
#pragma once

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <string>

#include "pecheck/testing/shell.hpp"

namespace pecheck::testing {

struct GeneratedRotation {
  std::filesystem::path output;
  std::filesystem::path input;
  std::filesystem::path positions;
  std::optional<std::string> failure;  // the script's output when it failed
};

inline std::string file_text(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// `arguments` are rotated_outputs.py's, without --input, --positions and --output.
inline GeneratedRotation generated_rotation(const std::string& python, const std::string& arguments) {
  const std::string script = std::string(PECHECK_EXAMPLES_DIR) + "/rotated_outputs.py";
  const std::string key =
      file_text(script) + file_text(std::string(PECHECK_EXAMPLES_DIR) + "/rope_caches.py") + "\n" + arguments;
  const std::filesystem::path dir =
      std::filesystem::path(PECHECK_TABLE_CACHE_DIR) / ("rotated-" + std::to_string(std::hash<std::string>{}(key)));
  GeneratedRotation files{dir / "out.npy", dir / "in.npy", dir / "pos.npy", std::nullopt};
  if (std::filesystem::exists(files.output)) return files;
  std::filesystem::create_directories(dir);
  // OUT is written last, under a temporary name and renamed: a reader that sees it sees all three.
  const CommandResult run =
      run_command(shell_quote(python) + " -B " + shell_quote(script) + " " + arguments + " --input " +
                  shell_quote(files.input.string()) + " --positions " + shell_quote(files.positions.string()) +
                  " --output " + shell_quote((dir / "out.tmp.npy").string()) + " 2>&1");
  if (run.status != 0) {
    files.failure = run.output;
    return files;
  }
  std::filesystem::rename(dir / "out.tmp.npy", files.output);
  return files;
}

}  // namespace pecheck::testing
