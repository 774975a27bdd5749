// This variant's table (rotated_tier_kernels.hpp): compiled into the part (the
// baseline) and once more per variant with its target flags, beside
// rotated_double_tier.cpp and double_tier.cpp (reference/CMakeLists.txt).
#include "rotated_tier_kernels.hpp"

#include "pecheck/isa.hpp"

extern "C" const pecheck::reference::RotatedTierKernels PECHECK_ISA_SYMBOL(rotated_tier_kernels) = {
    pecheck::reference::rotated_row_trig, pecheck::reference::rotated_double_tier};
