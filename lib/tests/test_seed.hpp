// Seeds for the randomised tests: fixed by default, overridden by the
// environment variable PECHECK_SEED, and always printed so a failure can be
// replayed. Never taken from the clock.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace pecheck::testing {

inline std::uint64_t seed(const char* what) {
  std::uint64_t value = 20240917;
  if (const char* text = std::getenv("PECHECK_SEED")) value = std::strtoull(text, nullptr, 0);
  std::printf("%s: seed %llu (set PECHECK_SEED to change)\n", what, static_cast<unsigned long long>(value));
  return value;
}

}  // namespace pecheck::testing
