// libFuzzer target: a sweep part file (what `pecheck merge` reads) on
// arbitrary bytes. parse_result_json either returns a result that writes
// back to the same result and merges with itself alone to itself, or throws
// SweepFileError with one line naming the file. A crash, a hang, another
// exception or a sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "one_line_error.hpp"
#include "pecheck/sweep/merge.hpp"
#include "pecheck/sweep/result.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pecheck;
  const std::string name = "fuzz-part.json";
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const sweep::SweepResult result = sweep::parse_result_json(text, name);
    const sweep::SweepResult again = sweep::parse_result_json(sweep::result_json(result), "rewritten.json");
    fuzz::require(again == result);
    (void)sweep::result_summary(result);
    try {
      (void)sweep::merge_results({{name, result}});
    } catch (const sweep::SweepMergeError& error) {
      fuzz::check_one_line_error(error.what(), "");
    }
  } catch (const sweep::SweepFileError& error) {
    fuzz::check_one_line_error(error.what(), name);
  }
  return 0;
}
