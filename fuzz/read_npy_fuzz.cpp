// libFuzzer target: read_npy_bytes on arbitrary bytes (see fuzz_checks.hpp).
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_checks.hpp"
#include "pecheck/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pecheck;
  constexpr std::string_view name = "fuzz-input.npy";
  try {
    const TableFile file = read_npy_bytes(std::as_bytes(std::span(data, size)), name);
    fuzz::check_table(file);
    const TableFile again = read_npy_bytes(encode_npy(file.table), "rewritten.npy");
    fuzz::check_same_values(file.table, again.table);
  } catch (const TableFileError& error) {
    fuzz::check_error(error, name);
  }
  return 0;
}
