// The input layer's validation as the extension module's _validate_input_layer.
#pragma once

#include <pybind11/pybind11.h>

namespace pecheck::python {

void bind_input_layer(pybind11::module_& module);

}  // namespace pecheck::python
