// The references as the extension module's functions (_table, _rope_cache)
// and the names of the conventions, presets and computation models.
#pragma once

#include <pybind11/pybind11.h>

namespace pecheck::python {

void bind_references(pybind11::module_& module);

}  // namespace pecheck::python
