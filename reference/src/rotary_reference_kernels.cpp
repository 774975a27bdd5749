// This variant's table (rotary_reference_kernels.hpp): compiled into the part
// (the baseline) and once more per variant with its target flags, beside the
// sources the entries spend their time in (reference/CMakeLists.txt).
#include "rotary_reference_kernels.hpp"

#include "pecheck/isa.hpp"

extern "C" const pecheck::reference::RotaryReferenceKernels PECHECK_ISA_SYMBOL(rotary_reference_kernels) = {
    pecheck::reference::build_rotary_reference_cache, pecheck::reference::visit_rotary_reference_rows};
