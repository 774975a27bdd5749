// pecheck.validate_rotated below the Python layer (pecheck/_validation.py):
// a RoPE kernel's output, its input and the positions in, one Validation out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "pecheck/validate/rotated_output.hpp"

namespace pecheck::python {

// What pecheck/_validation.py hands over for a rotated output: OUT and IN as
// rows of head_dim in their own format with the shape each came in, POS as
// int64, and the three names messages give them.
using RotatedArrays =
    std::tuple<pybind11::array, std::string, std::vector<std::int64_t>, pybind11::array, std::string,
               std::vector<std::int64_t>, pybind11::array_t<std::int64_t, pybind11::array::c_style>,
               std::vector<std::string>>;

// The subject reading OUT and IN where the caller holds them (the arrays
// must outlive it); POS, one position per token, is copied.
validate::RotatedSubject rotated_subject(const RotatedArrays& arrays);

// `name` as a QkvFormat (sbhd, bshd, bhsd, thd); nullopt for none.
// Throws std::invalid_argument naming the argument qkv_format.
std::optional<validate::QkvFormat> qkv_format_named(const std::optional<std::string>& name);

void bind_rotated(pybind11::module_& module);

}  // namespace pecheck::python
