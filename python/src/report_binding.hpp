// A validation's report directory, as the extension module's _write_report
// (pecheck/_validation.py makes it Validation.write_report).
#pragma once

#include <pybind11/pybind11.h>

namespace pecheck::python {

void bind_report(pybind11::module_& module);

}  // namespace pecheck::python
