// pecheck._pecheck: the extension module. Errors a caller can act on reach
// Python as ValueError with the library's one-line message.
#include <pybind11/pybind11.h>

#include "pecheck/reports/report_files.hpp"
#include "pecheck/rotary_config.hpp"
#include "pecheck/table_file.hpp"
#include "input_layer_binding.hpp"
#include "reference_binding.hpp"
#include "report_binding.hpp"
#include "result_binding.hpp"
#include "rotated_binding.hpp"
#include "validate_binding.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_pecheck, m) {
  m.doc() = "pecheck's libraries: validation of positional-encoding tables and rotary caches, and their references";
  // std::invalid_argument (ConventionError, ValidationInputError) is a
  // ValueError already; these two are bad input too.
  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const pecheck::RotaryConfigError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const pecheck::TableFileError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const pecheck::reports::ReportWriteError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    }
  });
  pecheck::python::bind_result(m);
  pecheck::python::bind_validate(m);
  pecheck::python::bind_input_layer(m);
  pecheck::python::bind_rotated(m);
  pecheck::python::bind_references(m);
  pecheck::python::bind_report(m);
}
