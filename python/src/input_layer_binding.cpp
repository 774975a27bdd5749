// pecheck.validate_input_layer: an input layer's output x = s E[id] + PE[pos]
// with its vocabulary and ids, as `pecheck validate OUTPUT --vocabulary V
// --ids I [--positions P]` reads them. The library takes the arrays as
// NpyArray (values as doubles, as the command line reads them from .npy), so
// the arrays are copied here; pecheck/_validation.py has made them C-ordered
// float64 or int64.
#include "input_layer_binding.hpp"

#include <optional>
#include <string>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "pecheck/convention.hpp"
#include "pecheck/validate/input_layer.hpp"
#include "result_binding.hpp"
#include "table_input.hpp"

namespace py = pybind11;

namespace pecheck::python {

namespace {

// `array` (C-ordered float64, or int64 when `format` is empty) as NpyArray;
// `dtype` is the dtype the caller's array had, in NumPy's notation ("<f4").
NpyArray npy_array(const py::array& array, const std::string& format, const std::string& dtype) {
  NpyArray out;
  for (py::ssize_t k = 0; k < array.ndim(); ++k) out.shape.push_back(static_cast<std::int64_t>(array.shape(k)));
  out.dtype = dtype;
  const auto n = static_cast<std::size_t>(array.size());
  if (format.empty()) {
    out.integer = true;
    const auto* p = static_cast<const std::int64_t*>(array.data());
    out.integers.assign(p, p + n);
  } else {
    out.format = format_named(format, "format");
    const auto* p = static_cast<const double*>(array.data());
    out.values.assign(p, p + n);
  }
  return out;
}

using Input = std::tuple<py::array, std::string, std::string>;  // values, format ("" for integers), dtype

Validation validate_input_layer_arrays(const Input& output, const Input& vocabulary, const Input& ids,
                                       const std::optional<Input>& positions, const std::string& name,
                                       const std::vector<std::string>& names,
                                       const std::optional<std::string>& convention, std::optional<double> max_ulp,
                                       std::optional<double> max_abs_error, int threads) {
  const auto array = [](const Input& in) { return npy_array(std::get<0>(in), std::get<1>(in), std::get<2>(in)); };
  validate::InputLayerFiles files{array(output), array(vocabulary), array(ids), std::nullopt};
  if (positions) files.positions = array(*positions);
  files.output_name = names.at(0);
  files.vocabulary_name = names.at(1);
  files.ids_name = names.at(2);
  files.positions_name = names.at(3);
  validate::ValidationOptions options;
  if (convention) {
    const std::optional<Convention> found = find_preset(*convention);
    if (!found) throw std::invalid_argument("convention: '" + *convention + "' is not a convention (pecheck.conventions() lists them)");
    options.convention = *found;
  }
  options.max_ulp = max_ulp;
  options.max_abs_error = max_abs_error;
  options.threads = threads;
  Validation validation{name, {}};
  py::gil_scoped_release release;
  validation.result = validate::validate_input_layer(files, options);
  return validation;
}

}  // namespace

void bind_input_layer(py::module_& m) {
  m.def("_validate_input_layer", &validate_input_layer_arrays, py::arg("output"), py::arg("vocabulary"),
        py::arg("ids"), py::arg("positions"), py::arg("name"), py::arg("names"), py::arg("convention"),
        py::arg("max_ulp"), py::arg("max_abs_error"), py::arg("threads"));
}

}  // namespace pecheck::python
