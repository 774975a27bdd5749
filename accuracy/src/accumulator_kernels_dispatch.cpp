// Picks the accumulator's kernel table of the selected variant (baseline
// code: compiled once, never with a variant's flags).
#include <array>

#include "accumulator_kernels.hpp"
#include "pecheck/isa.hpp"
#include "pecheck_isa_variants.hpp"

PECHECK_ISA_KERNEL_TABLES(pecheck::accuracy::AccumulatorKernels, accumulator_kernels, accumulator_tables);

namespace pecheck::accuracy {

const AccumulatorKernels& accumulator_kernels() { return isa::pick(accumulator_tables); }
const AccumulatorKernels& accumulator_kernels(std::size_t variant) { return *accumulator_tables.at(variant); }

}  // namespace pecheck::accuracy
