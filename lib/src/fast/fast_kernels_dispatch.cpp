// Picks the fast path's kernel table of the selected variant (baseline code:
// compiled once, never with a variant's flags).
#include "fast_kernels.hpp"

#include <array>

#include "pecheck/isa.hpp"
#include "pecheck_isa_variants.hpp"

PECHECK_ISA_KERNEL_TABLES(pecheck::FastKernels, fast_kernels, fast_tables);

namespace pecheck {

const FastKernels& fast_kernels() { return isa::pick(fast_tables); }
const FastKernels& fast_kernels(std::size_t variant) { return *fast_tables.at(variant); }

}  // namespace pecheck
