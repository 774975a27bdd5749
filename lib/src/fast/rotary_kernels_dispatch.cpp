// Picks the rotary caches' kernel table of the selected variant (baseline
// code: compiled once, never with a variant's flags).
#include <array>

#include "pecheck/isa.hpp"
#include "pecheck_isa_variants.hpp"
#include "rotary_kernels.hpp"

PECHECK_ISA_KERNEL_TABLES(pecheck::RotaryKernels, rotary_kernels, rotary_tables);

namespace pecheck {

const RotaryKernels& rotary_kernels() { return isa::pick(rotary_tables); }
const RotaryKernels& rotary_kernels(std::size_t variant) { return *rotary_tables.at(variant); }

}  // namespace pecheck
