// Picks detection's kernel table of the selected variant (baseline code:
// compiled once, never with a variant's flags).
#include <array>

#include "detection_kernels.hpp"
#include "pecheck/isa.hpp"
#include "pecheck_isa_variants.hpp"

PECHECK_ISA_KERNEL_TABLES(pecheck::validate::DetectionKernels, detection_kernels, detection_tables);

namespace pecheck::validate {

const DetectionKernels& detection_kernels() { return isa::pick(detection_tables); }
const DetectionKernels& detection_kernels(std::size_t variant) { return *detection_tables.at(variant); }

}  // namespace pecheck::validate
