// The validations as the extension module's functions (_validate_table,
// _validate_rope); pecheck/__init__.py wraps them with the documented API.
#pragma once

#include <pybind11/pybind11.h>

namespace pecheck::python {

void bind_validate(pybind11::module_& module);

}  // namespace pecheck::python
