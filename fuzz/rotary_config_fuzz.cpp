// libFuzzer target: parse_rotary_config on arbitrary bytes. It either returns
// a convention whose derived values are finite and within the ranges the
// arithmetic supports (check_rotary_results passes again), or throws
// RotaryConfigError with one line naming the file. A crash, a hang, another
// exception or a sanitizer report is a bug.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "one_line_error.hpp"
#include "pecheck/rotary_config.hpp"
#include "pecheck/rotary_convention.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pecheck;
  constexpr std::string_view name = "fuzz-config.json";
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const RotaryConvention convention = parse_rotary_config(text, name);
    check_rotary_results(convention);  // throws if the reader let a bad value through
    const RotaryDerived derived = rotary_derived(convention);
    fuzz::require(derived.dims > 0 && derived.dims % 2 == 0 && derived.frequencies * 2 == derived.dims);
    fuzz::require(std::isfinite(derived.effective_base) && std::isfinite(derived.attention_factor));
    fuzz::require(std::isfinite(derived.yarn_low) && std::isfinite(derived.yarn_high));
  } catch (const RotaryConfigError& error) {
    fuzz::check_one_line_error(error.what(), name);
  }
  return 0;
}
