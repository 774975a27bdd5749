// Tables written by NumPy with examples/numpy_tables.py, for the validate
// tests: one Python run writes every table a test needs.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace pecheck::testing {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "pecheck-validate-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int status = -1;
  std::string output;
};

inline CommandResult run_command(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  std::size_t got = 0;
  while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), got);
  result.status = ::pclose(pipe);
  return result;
}

inline std::string quote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// A Python that imports NumPy: $PECHECK_PYTHON, python3 on PATH, or the
// system's /usr/bin/python3 (a PATH python3 from a version manager often
// lacks the distribution's numpy).
inline std::optional<std::string> python_with_numpy() {
  std::vector<std::string> candidates;
  if (const char* chosen = std::getenv("PECHECK_PYTHON")) candidates.emplace_back(chosen);
  candidates.emplace_back("python3");
  candidates.emplace_back("/usr/bin/python3");
  for (const auto& candidate : candidates) {
    if (run_command(quote(candidate) + " -c 'import numpy' 2>/dev/null").status == 0) return candidate;
  }
  return std::nullopt;
}

inline std::string numpy_tables_script() { return std::string(PECHECK_EXAMPLES_DIR) + "/numpy_tables.py"; }

struct NumpyTables {
  std::filesystem::path dir;        // the tables, by the OUTPUT names of the lines
  std::optional<std::string> failure;  // the script's output when it failed
};

// The tables of `lines` (numpy_tables.py arguments, OUTPUT a file name),
// written once into a directory of the build tree named by a hash of the
// lines and the script, and reused by every test process after that (ctest
// runs each test case in its own process). Written into a temporary sibling
// and renamed, so a reader never sees half a directory.
inline NumpyTables numpy_tables(const std::string& python, const std::vector<std::string>& lines) {
  std::ifstream script_file(numpy_tables_script());
  std::string key((std::istreambuf_iterator<char>(script_file)), std::istreambuf_iterator<char>());
  for (const std::string& line : lines) key += "\n" + line;
  const std::filesystem::path cache = PECHECK_TABLE_CACHE_DIR;
  NumpyTables tables;
  tables.dir = cache / std::to_string(std::hash<std::string>{}(key));
  if (std::filesystem::exists(tables.dir)) return tables;
  std::filesystem::create_directories(cache);
  std::string pattern = (cache / "writing-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + pattern);
  const std::filesystem::path writing = pattern;
  std::ofstream batch(writing / "batch.txt");
  for (const std::string& line : lines) batch << line << '\n';
  batch.close();
  const CommandResult run = run_command("cd " + quote(writing.string()) + " && " + quote(python) + " -B " +
                                        quote(numpy_tables_script()) + " --batch batch.txt 2>&1");
  std::error_code ignored;
  if (run.status != 0) {
    tables.failure = run.output;
  } else {
    std::filesystem::rename(writing, tables.dir, ignored);  // another process may have won: theirs is the same
  }
  std::filesystem::remove_all(writing, ignored);
  return tables;
}

}  // namespace pecheck::testing
