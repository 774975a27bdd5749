// Validation.write_report(directory): the files `pecheck validate ...
// --output-dir DIR` writes, through the one report adapter
// (reports/validation_report.hpp): validation.json and .txt, and the HTML,
// Markdown, JSON and JUnit report of the checks on the values validated,
// for every kind of subject.
#include "report_binding.hpp"

#include <optional>
#include <string>

#include <pybind11/stl.h>

#include "pecheck/reports/report_directory.hpp"
#include "pecheck/reports/validation_report.hpp"
#include "result_binding.hpp"
#include "rotated_binding.hpp"
#include "table_input.hpp"

namespace py = pybind11;

namespace pecheck::python {

namespace {

// The format the validation compared in: the report's checks read the values so.
FormatId compared_format(const validate::Validation& v) {
  if (const auto* t = std::get_if<validate::TableFindings>(&v.findings)) return t->compared_format;
  return v.rotary().format;
}

// The report the command line writes from what it holds: the values handed
// over (none for an input layer, whose recovered encoding is in its findings).
void write_handed(const Validation& validation, const std::string& directory, const reports::ValidatedValues& handed,
                  const std::string& reproduce) {
  py::gil_scoped_release release;
  reports::ReportDirectory report(directory);
  reports::write_validation_report(report.staging(), validation.result, validation.name, handed, reproduce);
  report.commit();
}

void write_report(const Validation& validation, const std::string& directory, const std::optional<py::array>& values,
                  const std::string& format, const std::optional<py::array>& sin,
                  const std::optional<std::string>& sin_format, const std::string& model,
                  const std::string& reproduce) {
  if (validation.result.kind == validate::SubjectKind::input_layer) {
    write_handed(validation, directory, {}, reproduce);
    return;
  }
  if (validation.result.kind == validate::SubjectKind::rotated) {
    throw std::invalid_argument("write_report: a rotated output's report needs its arrays (_write_rotated_report)");
  }
  if (!values) throw std::invalid_argument("write_report: this validation holds no values to report on");
  const FormatId compared = compared_format(validation.result);
  // Converted (exactly: the validation found every value to be one of the
  // format) into the format compared, as the command line hands its files over.
  const Table table = convert_table(table_view(*values, format_named(format, "values"), "values"), compared);
  std::optional<Table> sin_table;
  if (sin) sin_table = convert_table(table_view(*sin, format_named(sin_format.value_or(""), "sin"), "sin"), compared);
  reports::ValidatedValues handed;
  handed.table = &table;
  handed.sin = sin_table ? &*sin_table : nullptr;
  handed.model = model;
  write_handed(validation, directory, handed, reproduce);
}

// A rotated output's report: the checks on its own outputs (pair norms,
// relative positions) run on the rows the caller holds, read in place, at
// their positions, as `validate OUT --input IN --positions POS --output-dir`
// runs them on the files it read.
void write_rotated_report(const Validation& validation, const std::string& directory, const RotatedArrays& arrays,
                          const std::optional<std::string>& qkv_format, const std::string& reproduce) {
  if (validation.result.kind != validate::SubjectKind::rotated) {
    throw std::invalid_argument("write_report: not a rotated output's validation");
  }
  const validate::RotatedSubject subject = rotated_subject(arrays);
  reports::ValidatedValues handed;
  handed.rotated_input = subject.input.values;
  handed.rotated_output = subject.output.values;
  handed.row_position = validate::resolve_tokens(subject, qkv_format_named(qkv_format)).row_position;
  write_handed(validation, directory, handed, reproduce);
}

}  // namespace

void bind_report(py::module_& m) {
  m.def("_write_report", &write_report, py::arg("validation"), py::arg("directory"), py::arg("values"),
        py::arg("format"), py::arg("sin"), py::arg("sin_format"), py::arg("model"), py::arg("reproduce"));
  m.def("_write_rotated_report", &write_rotated_report, py::arg("validation"), py::arg("directory"), py::arg("arrays"),
        py::arg("qkv_format"), py::arg("reproduce"));
}

}  // namespace pecheck::python
