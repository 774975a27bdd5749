// Validation.write_report(directory): the files `pecheck validate ...
// --output-dir DIR` writes, through the one report adapter
// (reports/validation_report.hpp): validation.json and .txt, and the HTML,
// Markdown, JSON and JUnit report of the checks on the values validated.
#include "report_binding.hpp"

#include <optional>
#include <string>

#include <pybind11/stl.h>

#include "pecheck/reports/report_directory.hpp"
#include "pecheck/reports/validation_report.hpp"
#include "result_binding.hpp"
#include "table_input.hpp"

namespace py = pybind11;

namespace pecheck::python {

namespace {

// The format the validation compared in: the report's checks read the values so.
FormatId compared_format(const validate::Validation& v) {
  if (const auto* t = std::get_if<validate::TableFindings>(&v.findings)) return t->compared_format;
  return v.rotary().format;
}

void write_report(const Validation& validation, const std::string& directory, const std::optional<py::array>& values,
                  const std::string& format, const std::optional<py::array>& sin,
                  const std::optional<std::string>& sin_format, const std::string& model,
                  const std::string& reproduce) {
  if (validation.result.kind == validate::SubjectKind::input_layer)
    throw std::invalid_argument("write_report: an input layer's report is not written from Python");
  if (validation.result.kind == validate::SubjectKind::rotated) {
    // The properties of its own outputs ran inside the validation:
    // validation.json and .txt carry them (the command line's report also
    // runs them as checks on the files it read; here no rows are handed over).
    py::gil_scoped_release release;
    reports::ReportDirectory report(directory);
    reports::ValidatedValues handed;
    handed.model = model;
    reports::write_validation_report(report.staging(), validation.result, validation.name, handed, reproduce);
    report.commit();
    return;
  }
  if (!values) throw std::invalid_argument("write_report: this validation holds no values to report on");
  const FormatId compared = compared_format(validation.result);
  // Converted (exactly: the validation found every value to be one of the
  // format) into the format compared, as the command line hands its files over.
  const Table table = convert_table(table_view(*values, format_named(format, "values"), "values"), compared);
  std::optional<Table> sin_table;
  if (sin) sin_table = convert_table(table_view(*sin, format_named(sin_format.value_or(""), "sin"), "sin"), compared);
  py::gil_scoped_release release;
  reports::ReportDirectory report(directory);
  reports::ValidatedValues handed;
  handed.table = &table;
  handed.sin = sin_table ? &*sin_table : nullptr;
  handed.model = model;
  reports::write_validation_report(report.staging(), validation.result, validation.name, handed, reproduce);
  report.commit();
}

}  // namespace

void bind_report(py::module_& m) {
  m.def("_write_report", &write_report, py::arg("validation"), py::arg("directory"), py::arg("values"),
        py::arg("format"), py::arg("sin"), py::arg("sin_format"), py::arg("model"), py::arg("reproduce"));
}

}  // namespace pecheck::python
