// The accumulator's row work and the libm allowance's row bounds, compiled
// once per instruction-set variant (cmake/PecheckDispatch.cmake;
// accuracy/CMakeLists.txt lists the sources): Accumulator::add_row and
// LibmAllowance::row_bounds call the selected variant's once per row. What
// the rows call outside these sources (the ULP kernel's dispatch, an entry's
// scalar metric, an allowance's virtual functions) is the baseline's code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/double_double.hpp"

namespace pecheck::accuracy {

template <typename Value, typename Exact>
using AddRow = void (*)(Accumulator& accumulator, std::int64_t row, std::span<const Value> values,
                        std::span<const Exact> exact, std::int64_t table, const RowColumns& columns);

// One row of LibmAllowance::row_bounds' plain path (libm_row_bounds.cpp has
// the reasoning): bounds[c] for c in [0, count), inv_freq_of_column[c %
// columns] (a cache row's columns, or a planned row's entries repeating every
// `columns`, LibmAllowance::plan_columns); or, when `column` is given, entry c's
// inv_freq is inv_freq_of_column[column[c]] for columns below `columns`
// (false when one is not).
struct LibmRowBounds {
  double position = 0.0;
  double factor = 0.0;
  double relative = 0.0;
  const double* inv_freq_of_column = nullptr;
  std::size_t columns = 0;
  const std::int64_t* column = nullptr;
  std::int64_t min_exponent = 0;  // the angle format's
  int shift = 0;                  // its precision - 1
  // inv_freq_of_column[c + period] is inv_freq_of_column[c] for every c
  // (a row's sin columns after its cos columns); 0 when not known.
  std::size_t period = 0;
};

struct AccumulatorKernels {
  AddRow<double, DoubleDouble> double_against_double_double;
  AddRow<float, DoubleDouble> float_against_double_double;
  AddRow<double, double> double_against_double;
  AddRow<float, double> float_against_double;
  bool (*libm_row_bounds)(const LibmRowBounds& row, double* bounds, std::size_t count);
};

// The selected variant's (pecheck/isa.hpp); variant i of isa::variants() for
// the tests that compare them.
const AccumulatorKernels& accumulator_kernels();
const AccumulatorKernels& accumulator_kernels(std::size_t variant);

// accumulator_rows.cpp and libm_row_bounds.cpp: this variant's entries.
struct AccumulatorRows {
  template <typename Value, typename Exact>
  static void add(Accumulator& accumulator, std::int64_t row, std::span<const Value> values,
                  std::span<const Exact> exact, std::int64_t table, const RowColumns& columns);
};
bool libm_row_bounds(const LibmRowBounds& row, double* bounds, std::size_t count);

}  // namespace pecheck::accuracy
