// The one result every validation gives Python (pecheck.Validation): the
// library's one Validation, the name it is printed under, and what Python
// reads from it. This file and result_binding.cpp are the only ones that know
// the library's result type.
#pragma once

#include <optional>
#include <string>

#include <pybind11/pybind11.h>

#include "pecheck/table.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::python {

struct Validation {
  std::string name;  // what the text and the JSON call the subject (the CLI prints its file there)
  validate::Validation result;
};

// The values the validated subject should have held: the settled convention
// at the settled offset, correctly rounded to float64, rows by columns (for a
// rotary cache, the cos table's columns then the sin table's). Empty when
// nothing was settled.
std::optional<Table> reference_values(const Validation& validation);

void bind_result(pybind11::module_& module);

}  // namespace pecheck::python
