// Tables written by NumPy with examples/numpy_tables.py, for the validate
// tests: one Python run writes every table a test needs.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "pecheck/table_file.hpp"
#include "pecheck/testing/shell.hpp"

namespace pecheck::testing {

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
  std::ifstream input_layer_file(std::string(PECHECK_EXAMPLES_DIR) + "/numpy_input_layer.py");  // "input-layer" lines
  key.append(std::istreambuf_iterator<char>(input_layer_file), std::istreambuf_iterator<char>());
  std::ifstream relative_file(std::string(PECHECK_EXAMPLES_DIR) + "/relative_tables.py");  // relative conventions
  key.append(std::istreambuf_iterator<char>(relative_file), std::istreambuf_iterator<char>());
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
  const CommandResult run = run_command("cd " + shell_quote(writing.string()) + " && " + shell_quote(python) + " -B " +
                                        shell_quote(numpy_tables_script()) + " --batch batch.txt 2>&1");
  std::error_code ignored;
  if (run.status != 0) {
    tables.failure = run.output;
  } else {
    std::filesystem::rename(writing, tables.dir, ignored);  // another process may have won: theirs is the same
  }
  std::filesystem::remove_all(writing, ignored);
  return tables;
}

// A test suite over the tables of Lines() (numpy_tables.py lines), written
// once for the suite; its tests skip when no python3 has NumPy, and fail
// when the script did.
template <const std::vector<std::string>& (*Lines)()>
class NumpyTablesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    python_ = python_with_numpy();
    if (python_) tables_ = numpy_tables(*python_, Lines());
  }
  void SetUp() override {
    if (!python_) GTEST_SKIP() << "no python3 with numpy";
    ASSERT_FALSE(tables_.failure.has_value()) << *tables_.failure;
  }
  static Table table(const std::string& name) { return read_table_file(tables_.dir / name).table; }
  static std::filesystem::path file(const std::string& name) { return tables_.dir / name; }

 private:
  static inline std::optional<std::string> python_;
  static inline NumpyTables tables_;
};

}  // namespace pecheck::testing
