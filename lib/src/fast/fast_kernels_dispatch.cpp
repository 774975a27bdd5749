// Picks the fast path's kernel table of the selected variant (baseline code:
// compiled once, never with a variant's flags).
#include "fast_kernels.hpp"

#include <array>

#include "pecheck/isa.hpp"
#include "pecheck_isa_variants.hpp"

#define PECHECK_FAST_DECLARE(name, cpu, about) extern "C" const pecheck::FastKernels pecheck_isa_##name##_fast_kernels;
extern "C" const pecheck::FastKernels pecheck_isa_baseline_fast_kernels;
PECHECK_ISA_FOR_EACH_VARIANT(PECHECK_FAST_DECLARE)

namespace pecheck {

namespace {

#define PECHECK_FAST_ADDRESS(name, cpu, about) , &pecheck_isa_##name##_fast_kernels
const std::array<const FastKernels*, 1 PECHECK_ISA_FOR_EACH_VARIANT(PECHECK_ISA_COUNT)> tables{
    &pecheck_isa_baseline_fast_kernels PECHECK_ISA_FOR_EACH_VARIANT(PECHECK_FAST_ADDRESS)};

}  // namespace

const FastKernels& fast_kernels() { return isa::pick(tables); }
const FastKernels& fast_kernels(std::size_t variant) { return *tables.at(variant); }

}  // namespace pecheck
