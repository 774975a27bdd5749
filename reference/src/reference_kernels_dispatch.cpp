// Picks the reference's kernel table of the selected variant (baseline code:
// compiled once, never with a variant's flags).
#include <array>

#include "pecheck/isa.hpp"
#include "pecheck_isa_variants.hpp"
#include "reference_kernels.hpp"

PECHECK_ISA_KERNEL_TABLES(pecheck::reference::ReferenceKernels, reference_kernels, reference_tables);

namespace pecheck::reference {

const ReferenceKernels& reference_kernels() { return isa::pick(reference_tables); }
const ReferenceKernels& reference_kernels(std::size_t variant) { return *reference_tables.at(variant); }

}  // namespace pecheck::reference
