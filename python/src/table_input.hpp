// Tables handed over from Python: a view of the caller's NumPy buffer, in the
// format the Python side named (pecheck/_arrays.py has already turned a
// PyTorch tensor into a NumPy view of its storage, bfloat16 as its 16-bit
// patterns, and the shape into rows by columns).
#pragma once

#include <string>

#include <pybind11/numpy.h>

#include "pecheck/format.hpp"
#include "pecheck/table.hpp"

namespace pecheck::python {

// A view of `array` (2-D, native byte order, each row's entries adjacent,
// elements of the format's storage size). The array must outlive the view.
// Throws std::invalid_argument naming `argument` when it is not so.
TableView table_view(const pybind11::array& array, FormatId format, const std::string& argument);

// `format` as Python names it ("float64", "float32", "float16", "bfloat16").
FormatId format_named(const std::string& format, const std::string& argument);

// A table's values as a NumPy array that owns the table (no copy): float64,
// float32 and float16 in their own dtype; bfloat16, which NumPy lacks, as
// float32 holding the bfloat16 values exactly (as `pecheck table` writes .npy).
pybind11::array table_to_numpy(Table table);

}  // namespace pecheck::python
