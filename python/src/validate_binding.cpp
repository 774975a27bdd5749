// pecheck.validate and pecheck.validate_rope, below the Python layer that
// turns tensors into arrays (pecheck/_arrays.py): arrays in, one Validation out.
#include "validate_binding.hpp"

#include <memory>
#include <optional>
#include <string>

#include <pybind11/stl.h>

#include "pecheck/convention.hpp"
#include "pecheck/rotary_config.hpp"
#include "pecheck/validate/rotary_validation.hpp"
#include "pecheck/validate/table_validation.hpp"
#include "result_binding.hpp"
#include "table_input.hpp"

namespace py = pybind11;

namespace pecheck::python {

// The rotary convention from `rope` (a preset name) or `config` (the text of
// a Hugging Face config.json, named `config_name` in messages), with `layout`
// when given.
std::optional<RotaryConvention> rotary_convention(const std::optional<std::string>& rope,
                                                  const std::optional<std::string>& config,
                                                  const std::string& config_name,
                                                  const std::optional<std::string>& layout,
                                                  std::int64_t sequence_length) {
  std::optional<RotaryLayout> chosen;
  if (layout) {
    chosen = parse_rotary_layout(*layout);
    if (!chosen) throw std::invalid_argument("layout: '" + *layout + "' (expected rotate-half, interleaved or complex)");
  }
  std::optional<RotaryConvention> convention;
  if (config && rope) throw std::invalid_argument("config and rope: give one (both name the convention)");
  if (config) {
    RotaryConfigOptions options;
    if (chosen) options.layout = *chosen;
    options.sequence_length = sequence_length;
    convention = parse_rotary_config(*config, config_name, options);
  } else if (rope) {
    convention = find_rotary_preset(*rope);
    if (!convention) {
      std::string names;
      for (const RotaryConvention& c : rotary_presets()) names += (names.empty() ? "" : ", ") + c.name;
      throw std::invalid_argument("rope: '" + *rope + "' is not a rotary preset (expected 'auto' or one of " + names +
                                  ")");
    }
    convention->scaling.sequence_length = sequence_length;
  }
  if (convention && chosen) convention->layout = *chosen;
  return convention;
}

namespace {

// The library's validations take a Table: one that reads the caller's
// buffer where it is (borrowed_table; table_view has checked that each row's
// entries are adjacent, and a view whose rows are not is copied there).
Table table_of(const TableView& view) { return borrowed_table(view); }

Convention convention_named(const std::string& name) {
  const std::optional<Convention> found = find_preset(name);
  if (!found) {
    std::string names;
    for (const Convention& c : all_presets()) names += (names.empty() ? "" : ", ") + c.name;
    throw std::invalid_argument("convention: '" + name + "' is not a convention (expected 'auto' or one of " + names +
                                ")");
  }
  return *found;
}

// The caller's progress(done, total), called with the interpreter's lock
// taken (the comparison runs without it). An exception it raises is kept
// and raised once the validation returns: the comparison cannot be stopped
// midway, and the callback is not called again.
struct ProgressCall {
  py::object callback;
  std::shared_ptr<py::error_already_set> error;

  void operator()(std::int64_t done, std::int64_t total) {
    py::gil_scoped_acquire gil;
    if (error) return;
    try {
      callback(done, total);
    } catch (py::error_already_set& e) {
      error = std::make_shared<py::error_already_set>(std::move(e));
    }
  }
};

Validation validate_table_array(const py::array& array, const std::string& format, const std::string& name,
                                const std::string& shape_note, const py::object& progress,
                                const std::optional<std::string>& convention, std::optional<std::int64_t> offset,
                                std::optional<double> max_ulp, std::optional<double> max_abs_error, bool ulp_only,
                                const std::optional<std::string>& dtype, std::int64_t sample, int threads) {
  const TableView view = table_view(array, format_named(format, "table"), "table");
  validate::ValidationOptions options;
  if (convention) options.convention = convention_named(*convention);
  options.row_offset = offset;
  options.max_ulp = max_ulp;
  options.max_abs_error = max_abs_error;
  options.ulp_only = ulp_only;
  if (dtype) options.compare_as = format_named(*dtype, "dtype");
  options.sample_rows = sample;
  options.threads = threads;
  auto call = std::make_shared<ProgressCall>(ProgressCall{progress, nullptr});
  if (!progress.is_none()) options.progress = [call](std::int64_t done, std::int64_t total) { (*call)(done, total); };
  Validation validation{name, {}};
  {
    py::gil_scoped_release release;
    validation.result = validate::validate_table(table_of(view), options);
  }
  options.progress = nullptr;
  if (call->error) throw *call->error;
  // A (N, 1, d), (1, N, d) or (1, 1, N, d) array: say what was read, as the command line does.
  if (!shape_note.empty()) validation.result.notes.insert(validation.result.notes.begin(), shape_note);
  return validation;
}

Validation validate_rope_arrays(const py::array& cos, const std::string& cos_format, const py::array& sin,
                                const std::string& sin_format, const std::string& name,
                                const std::optional<std::string>& rope, const std::optional<std::string>& config,
                                const std::string& config_name, const std::optional<std::string>& layout,
                                std::int64_t sequence_length, std::optional<std::int64_t> offset,
                                std::optional<double> max_ulp, const std::string& model, int threads) {
  const TableView cos_view = table_view(cos, format_named(cos_format, "cos"), "cos");
  const TableView sin_view = table_view(sin, format_named(sin_format, "sin"), "sin");
  validate::RotaryValidationOptions options;
  options.convention = rotary_convention(rope, config, config_name, layout, sequence_length);
  options.first_position = offset;
  options.max_ulp = max_ulp;
  options.model = model;
  options.threads = threads;
  Validation validation{name, {}};
  {
    py::gil_scoped_release release;
    validation.result = validate::validate_rotary_cache(table_of(cos_view), table_of(sin_view), options);
  }
  return validation;
}

}  // namespace

void bind_validate(py::module_& m) {
  m.def("_validate_table", &validate_table_array, py::arg("table"), py::arg("format"), py::arg("name"),
        py::arg("shape_note"), py::arg("progress"), py::arg("convention"), py::arg("offset"), py::arg("max_ulp"), py::arg("max_abs_error"), py::arg("ulp_only"),
        py::arg("dtype"), py::arg("sample"), py::arg("threads"));
  m.def("_validate_rope", &validate_rope_arrays, py::arg("cos"), py::arg("cos_format"), py::arg("sin"),
        py::arg("sin_format"), py::arg("name"), py::arg("rope"), py::arg("config"), py::arg("config_name"),
        py::arg("layout"), py::arg("sequence_length"), py::arg("offset"), py::arg("max_ulp"), py::arg("model"),
        py::arg("threads"));
}

}  // namespace pecheck::python
