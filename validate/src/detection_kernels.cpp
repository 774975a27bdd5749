// This variant's table (detection_kernels.hpp): compiled into the part (the
// baseline) and once more per variant with its target flags, beside the
// source the entry spends its time in (validate/CMakeLists.txt).
#include "detection_kernels.hpp"

#include "pecheck/isa.hpp"

extern "C" const pecheck::validate::DetectionKernels PECHECK_ISA_SYMBOL(detection_kernels) = {
    pecheck::validate::estimate_lanes, pecheck::validate::float_block_extent};
