// What the tests comparing instruction-set variants share. Test support
// only, never installed.
#pragma once

#include <cstdint>

#include <gtest/gtest.h>

#include "pecheck/isa.hpp"

namespace pecheck::testing {

// A test that compared the variants this CPU runs beside the baseline must
// have compared something; on a CPU that runs only the baseline there is
// nothing to compare.
inline void expect_compared_if_any_variant_runs(std::int64_t compared) {
  const auto& variants = isa::variants();
  bool another_runs = false;
  for (std::size_t v = 1; v < variants.size(); ++v) another_runs = another_runs || variants[v].runs_here;
  if (another_runs) {
    EXPECT_GT(compared, 0);
  }
}

}  // namespace pecheck::testing
