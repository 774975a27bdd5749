// The output and input are read where the caller holds them: pecheck/_arrays.py
// hands over each tensor's storage as a (rows, head_dim) array in its own
// format (bfloat16 as its 16-bit patterns) and the shape it came in; the
// subject views them (validate::borrowed_tensor), so nothing is copied.
#include "rotated_binding.hpp"

#include <optional>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "pecheck/validate/rotated_output.hpp"
#include "result_binding.hpp"
#include "table_input.hpp"
#include "validate_binding.hpp"

namespace py = pybind11;

namespace pecheck::python {

validate::RotatedSubject rotated_subject(const RotatedArrays& arrays) {
  const auto& [out, out_format, out_shape, in, in_format, in_shape, positions, names] = arrays;
  validate::RotatedSubject subject;
  subject.output = validate::borrowed_tensor(out_shape, table_view(out, format_named(out_format, "out"), "out"));
  subject.input = validate::borrowed_tensor(in_shape, table_view(in, format_named(in_format, "input"), "input"));
  // POS is one position per token: small, copied.
  subject.positions.dtype = "<i8";
  subject.positions.integer = true;
  // M-RoPE's (3, L) and (3, B, L) ids keep their shape; anything else is one position per token.
  if (positions.ndim() >= 2 && positions.shape(0) == 3) {
    subject.positions.shape.assign(positions.shape(), positions.shape() + positions.ndim());
  } else {
    subject.positions.shape = {static_cast<std::int64_t>(positions.size())};
  }
  subject.positions.integers.assign(positions.data(), positions.data() + positions.size());
  subject.output_name = names.at(0);
  subject.input_name = names.at(1);
  subject.positions_name = names.at(2);
  return subject;
}

std::optional<validate::QkvFormat> qkv_format_named(const std::optional<std::string>& name) {
  if (!name) return std::nullopt;
  const std::optional<validate::QkvFormat> format = validate::parse_qkv_format(*name);
  if (!format) throw std::invalid_argument("qkv_format: '" + *name + "' (expected sbhd, bshd, bhsd or thd)");
  return format;
}

namespace {

Validation validate_rotated_arrays(const RotatedArrays& arrays, const std::optional<std::string>& rope,
                                   const std::optional<std::string>& config, const std::string& config_name,
                                   const std::optional<std::string>& layout,
                                   const std::optional<std::string>& qkv_format, std::optional<double> max_ulp,
                                   int threads) {
  const validate::RotatedSubject subject = rotated_subject(arrays);
  validate::RotatedOptions options;
  options.convention = rotary_convention(rope, config, config_name, layout, 0);
  if (layout) options.layout = parse_rotary_layout(*layout);  // checked by rotary_convention
  options.qkv_format = qkv_format_named(qkv_format);
  options.max_ulp = max_ulp;
  options.threads = threads;
  Validation validation{subject.output_name, {}};
  {
    py::gil_scoped_release release;
    validation.result = validate::validate_rotated_output(subject, options);
  }
  return validation;
}

}  // namespace

void bind_rotated(py::module_& m) {
  m.def("_validate_rotated", &validate_rotated_arrays, py::arg("arrays"), py::arg("rope"), py::arg("config"),
        py::arg("config_name"), py::arg("layout"), py::arg("qkv_format"), py::arg("max_ulp"), py::arg("threads"));
}

}  // namespace pecheck::python
