// Picks the reference's kernel table of the selected variant (baseline code:
// compiled once, never with a variant's flags).
#include <array>

#include "pecheck/isa.hpp"
#include "pecheck_isa_variants.hpp"
#include "reference_kernels.hpp"

#define PECHECK_REFERENCE_DECLARE(name, cpu, about) \
  extern "C" const pecheck::reference::ReferenceKernels pecheck_isa_##name##_reference_kernels;
extern "C" const pecheck::reference::ReferenceKernels pecheck_isa_baseline_reference_kernels;
PECHECK_ISA_FOR_EACH_VARIANT(PECHECK_REFERENCE_DECLARE)

namespace pecheck::reference {

namespace {

#define PECHECK_REFERENCE_ADDRESS(name, cpu, about) , &pecheck_isa_##name##_reference_kernels
const std::array<const ReferenceKernels*, 1 PECHECK_ISA_FOR_EACH_VARIANT(PECHECK_ISA_COUNT)> tables{
    &pecheck_isa_baseline_reference_kernels PECHECK_ISA_FOR_EACH_VARIANT(PECHECK_REFERENCE_ADDRESS)};

}  // namespace

const ReferenceKernels& reference_kernels() { return isa::pick(tables); }
const ReferenceKernels& reference_kernels(std::size_t variant) { return *tables.at(variant); }

}  // namespace pecheck::reference
