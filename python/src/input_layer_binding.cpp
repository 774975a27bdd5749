// pecheck.validate_input_layer: an input layer's output x = s E[id] + PE[pos]
// with its vocabulary and ids, as `pecheck validate OUTPUT --vocabulary V
// --ids I [--positions P]` reads them. The output and vocabulary are read
// where the caller holds them: pecheck/_validation.py hands over each one's
// storage as rows of its last axis in its own format (bfloat16 as its 16-bit
// patterns) with the shape it came in, and the library views them
// (validate::borrowed_tensor): nothing is copied or widened. The ids and
// positions, one integer per token, arrive as int64 and are copied.
#include "input_layer_binding.hpp"

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "pecheck/convention.hpp"
#include "pecheck/validate/input_layer.hpp"
#include "result_binding.hpp"
#include "table_input.hpp"

namespace py = pybind11;

namespace pecheck::python {

namespace {

// (rows of the last axis, format, shape as given)
using Values = std::tuple<py::array, std::string, std::vector<std::int64_t>>;
// (C-ordered int64 values, shape and dtype as given, in NumPy's notation: "<i4")
using Integers = std::tuple<py::array_t<std::int64_t, py::array::c_style>, std::vector<std::int64_t>, std::string>;

validate::HeldTensor borrowed(const Values& in, const std::string& argument) {
  const auto& [rows, format, shape] = in;
  return validate::borrowed_tensor(shape, table_view(rows, format_named(format, argument), argument));
}

NpyArray integers(const Integers& in) {
  const auto& [values, shape, dtype] = in;
  NpyArray out;
  out.shape = shape;
  out.dtype = dtype;
  out.integer = true;
  out.integers.assign(values.data(), values.data() + values.size());
  return out;
}

Validation validate_input_layer_arrays(const Values& output, const Values& vocabulary, const Integers& ids,
                                       const std::optional<Integers>& positions, const std::string& name,
                                       const std::vector<std::string>& names,
                                       const std::optional<std::string>& convention, std::optional<double> max_ulp,
                                       std::optional<double> max_abs_error, int threads) {
  validate::InputLayerFiles files;
  files.output = borrowed(output, "output");
  files.vocabulary = borrowed(vocabulary, "vocabulary");
  files.ids = integers(ids);
  if (positions) files.positions = integers(*positions);
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
