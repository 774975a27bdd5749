// The rotated-output oracle's double tier (rotated_double_tier.hpp), compiled
// once per instruction-set variant (cmake/PecheckDispatch.cmake;
// reference/CMakeLists.txt lists the sources): rotated_reference.cpp calls
// the selected variant's row by row. The rest of the rotated oracle (its
// state, the double-word tier and MPFR for what the row leaves) is the
// baseline's code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rotated_double_tier.hpp"

namespace pecheck::reference {

struct RotatedTierKernels {
  void (*row_trig)(std::int64_t position, const StepsFrequencies& frequencies, RotatedRowTrig& trig);
  void (*double_tier)(const RotatedRowTrig& trig, const double* x_first, const double* x_second, std::size_t count,
                      double factor, const NarrowFormat& format, double exact_tolerance, const RotatedRowOutputs& out);
};

// The selected variant's (pecheck/isa.hpp); variant i of isa::variants() for
// the tests that compare them.
const RotatedTierKernels& rotated_tier_kernels();
const RotatedTierKernels& rotated_tier_kernels(std::size_t variant);

}  // namespace pecheck::reference
