// This variant's table (accumulator_kernels.hpp): compiled into the part (the
// baseline) and once more per variant with its target flags, beside the
// sources the entries spend their time in (accuracy/CMakeLists.txt).
#include "accumulator_kernels.hpp"

#include "pecheck/isa.hpp"

namespace pecheck::accuracy {

extern template void AccumulatorRows::add<double, DoubleDouble>(Accumulator&, std::int64_t, std::span<const double>,
                                                                std::span<const DoubleDouble>, std::int64_t,
                                                                const RowColumns&);
extern template void AccumulatorRows::add<float, DoubleDouble>(Accumulator&, std::int64_t, std::span<const float>,
                                                               std::span<const DoubleDouble>, std::int64_t,
                                                               const RowColumns&);
extern template void AccumulatorRows::add<double, double>(Accumulator&, std::int64_t, std::span<const double>,
                                                          std::span<const double>, std::int64_t, const RowColumns&);
extern template void AccumulatorRows::add<float, double>(Accumulator&, std::int64_t, std::span<const float>,
                                                         std::span<const double>, std::int64_t, const RowColumns&);

}  // namespace pecheck::accuracy

extern "C" const pecheck::accuracy::AccumulatorKernels PECHECK_ISA_SYMBOL(accumulator_kernels) = {
    pecheck::accuracy::AccumulatorRows::add<double, pecheck::DoubleDouble>,
    pecheck::accuracy::AccumulatorRows::add<float, pecheck::DoubleDouble>,
    pecheck::accuracy::AccumulatorRows::add<double, double>, pecheck::accuracy::AccumulatorRows::add<float, double>,
    pecheck::accuracy::libm_row_bounds};
