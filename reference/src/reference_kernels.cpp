// This variant's table (reference_kernels.hpp): compiled into the part (the
// baseline) and once more per variant with its target flags, beside the
// sources the entries spend their time in (reference/CMakeLists.txt).
#include "reference_kernels.hpp"

#include "pecheck/isa.hpp"

extern "C" const pecheck::reference::ReferenceKernels PECHECK_ISA_SYMBOL(reference_kernels) = {
    pecheck::reference::build_reference_table, pecheck::reference::visit_reference_rows};
