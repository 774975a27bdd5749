// Rotary caches written at test time by examples/rope_caches.py (the Hugging
// Face formulas in NumPy, or in PyTorch with --backend torch), cached in the
// build tree by a hash of the script and the arguments.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>

#include "pecheck/table_file.hpp"
#include "pecheck/testing/shell.hpp"

namespace pecheck::testing {

struct GeneratedCache {
  std::filesystem::path cos;
  std::filesystem::path sin;
  std::optional<std::string> failure;  // the script's output when it failed
};

inline std::string rope_caches_script() { return std::string(PECHECK_EXAMPLES_DIR) + "/rope_caches.py"; }

// `arguments` are rope_caches.py's, without --cos and --sin.
inline GeneratedCache generated_cache(const std::string& python, const std::string& arguments) {
  std::ifstream script(rope_caches_script());
  std::string key((std::istreambuf_iterator<char>(script)), std::istreambuf_iterator<char>());
  key += "\n" + arguments;
  const std::filesystem::path dir =
      std::filesystem::path(PECHECK_TABLE_CACHE_DIR) / ("rope-" + std::to_string(std::hash<std::string>{}(key)));
  GeneratedCache cache{dir / "cos.npy", dir / "sin.npy", std::nullopt};
  if (std::filesystem::exists(cache.sin)) return cache;
  std::filesystem::create_directories(dir);
  // Written under temporary names and renamed: a reader never sees half a pair.
  const CommandResult run =
      run_command(shell_quote(python) + " -B " + shell_quote(rope_caches_script()) + " " + arguments + " --cos " +
                  shell_quote((dir / "cos.tmp.npy").string()) + " --sin " + shell_quote((dir / "sin.tmp.npy").string()) +
                  " 2>&1");
  if (run.status != 0) {
    cache.failure = run.output;
    return cache;
  }
  std::filesystem::rename(dir / "cos.tmp.npy", cache.cos);
  std::filesystem::rename(dir / "sin.tmp.npy", cache.sin);
  return cache;
}

inline bool python_imports_torch(const std::string& python) {
  return run_command(shell_quote(python) + " -c 'import torch' 2>/dev/null").status == 0;
}

}  // namespace pecheck::testing
