// pecheck.validate_rotated below the Python layer (pecheck/_validation.py):
// a RoPE kernel's output, its input and the positions in, one Validation out.
#pragma once

#include <pybind11/pybind11.h>

namespace pecheck::python {

void bind_rotated(pybind11::module_& module);

}  // namespace pecheck::python
