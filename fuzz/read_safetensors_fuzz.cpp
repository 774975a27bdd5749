// libFuzzer target: read_safetensors_bytes on arbitrary bytes, with no tensor
// name and with the name "pe" (see fuzz_checks.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "fuzz_checks.hpp"
#include "pecheck/safetensors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pecheck;
  constexpr std::string_view name = "fuzz-input.safetensors";
  for (const std::optional<std::string>& tensor : {std::optional<std::string>(), std::optional<std::string>("pe")}) {
    try {
      const TableFile file = read_safetensors_bytes(std::as_bytes(std::span(data, size)), name, tensor);
      fuzz::check_table(file);
      const TableFile again = read_safetensors_bytes(
          encode_safetensors(file.table, "rewritten.safetensors", file.info.tensor_name, file.info.metadata),
          "rewritten.safetensors");
      fuzz::check_same_values(file.table, again.table);
      fuzz::check(again.info.metadata == file.info.metadata);
    } catch (const TableFileError& error) {
      fuzz::check_error(error, name);
    }
  }
  return 0;
}
