// Picks the rotated oracle's double-tier kernels of the selected variant
// (baseline code: compiled once, never with a variant's flags).
#include <array>

#include "pecheck/isa.hpp"
#include "pecheck_isa_variants.hpp"
#include "rotated_tier_kernels.hpp"

PECHECK_ISA_KERNEL_TABLES(pecheck::reference::RotatedTierKernels, rotated_tier_kernels, rotated_tier_tables);

namespace pecheck::reference {

const RotatedTierKernels& rotated_tier_kernels() { return isa::pick(rotated_tier_tables); }
const RotatedTierKernels& rotated_tier_kernels(std::size_t variant) { return *rotated_tier_tables.at(variant); }

}  // namespace pecheck::reference
