// The tables a kernel suite can use as its reference: pecheck.table and
// pecheck.rope_cache, the same calls `pecheck table` and `pecheck rope` make,
// returned as NumPy arrays that own the library's table (no copy).
#include "reference_binding.hpp"

#include <optional>
#include <string>

#include <pybind11/stl.h>

#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/rotary_cache.hpp"
#include "pecheck/rotary_config.hpp"
#include "table_input.hpp"

namespace py = pybind11;

namespace pecheck::python {

namespace {

void check_impl(const std::string& impl) {
  if (impl != "fast" && impl != "reference")
    throw std::invalid_argument("impl: '" + impl + "' (expected 'reference' or 'fast')");
}

py::array encoding_table(const std::string& name, std::int64_t rows, std::int64_t dim, std::int64_t offset,
                         const std::string& dtype, const std::string& impl, int threads) {
  check_impl(impl);
  const std::optional<Convention> preset = find_preset(name);
  if (!preset) throw std::invalid_argument("convention: '" + name + "' is not a convention (pecheck.conventions() lists them)");
  const FormatId format = format_named(dtype, "dtype");
  Table table;
  {
    py::gil_scoped_release release;
    // A relative convention's positions follow the table's length, as
    // `pecheck table` writes it: rows [K, K + N) of the table of N + K rows.
    const Convention convention = for_rows(*preset, rows + offset);
    const TableRequest request{rows, dim, offset};
    check_request(convention, request);
    table = impl == "reference"
                ? reference::reference_table(convention, request, format, threads, reference::ExactValues::none).rounded
                : fast_table(convention, request, format, threads);
  }
  return table_to_numpy(std::move(table));
}

RotaryConvention rope_convention(const std::optional<std::string>& preset, const std::optional<std::string>& config,
                                 const std::string& config_name, const std::optional<std::string>& layout,
                                 std::int64_t sequence_length) {
  if (preset.has_value() == config.has_value())
    throw std::invalid_argument("config_or_preset: give a rotary preset name or a config.json");
  RotaryConvention convention;
  if (preset) {
    const std::optional<RotaryConvention> found = find_rotary_preset(*preset);
    if (!found) throw std::invalid_argument("config_or_preset: '" + *preset + "' is not a rotary preset (pecheck.rotary_presets() lists them)");
    if (layout) throw std::invalid_argument("layout: a preset fixes its layout; give it with a config");
    convention = *found;
    convention.scaling.sequence_length = sequence_length;
  } else {
    RotaryConfigOptions options;
    options.sequence_length = sequence_length;
    if (layout) {
      const std::optional<RotaryLayout> parsed = parse_rotary_layout(*layout);
      if (!parsed) throw std::invalid_argument("layout: '" + *layout + "' (expected rotate-half, interleaved or complex)");
      options.layout = *parsed;
    }
    convention = parse_rotary_config(*config, config_name, options);
  }
  return convention;
}

py::tuple rope_cache(const std::optional<std::string>& preset, const std::optional<std::string>& config,
                     const std::string& config_name, const std::optional<std::string>& layout,
                     std::int64_t sequence_length, std::int64_t first_position, std::int64_t rows,
                     const std::string& dtype, const std::string& computation, const std::string& impl, int threads) {
  check_impl(impl);
  const RotaryConvention convention = rope_convention(preset, config, config_name, layout, sequence_length);
  std::optional<ComputationModel> model;
  if (computation != "exact") {
    model = find_computation_model(computation);
    if (!model) {
      std::string names = "exact";
      for (const ComputationModel& m : computation_models()) names += ", " + m.name;
      throw std::invalid_argument("computation: '" + computation + "' (expected one of " + names + ")");
    }
  }
  const RotaryCacheRequest request{first_position, rows, format_named(dtype, "dtype")};
  RotaryCache cache;
  {
    py::gil_scoped_release release;
    check_rotary_request(convention, request);
    // As `pecheck rope`: a computation model is the reference's unless the
    // fast path is asked for.
    cache = impl == "reference" ? reference::rotary_reference_cache(convention, request, model, threads,
                                                                        reference::ExactValues::none)
                                             .rounded
            : model             ? fast_rotary_model_cache(convention, request, *model)
                                : fast_rotary_cache(convention, request);
  }
  return py::make_tuple(table_to_numpy(std::move(cache.cos)), table_to_numpy(std::move(cache.sin)));
}

}  // namespace

void bind_references(py::module_& m) {
  m.def("_table", &encoding_table, py::arg("convention"), py::arg("rows"), py::arg("dim"), py::arg("offset"),
        py::arg("dtype"), py::arg("impl"), py::arg("threads"));
  m.def("_rope_cache", &rope_cache, py::arg("preset"), py::arg("config"), py::arg("config_name"), py::arg("layout"),
        py::arg("sequence_length"), py::arg("first_position"), py::arg("rows"), py::arg("dtype"),
        py::arg("computation"), py::arg("impl"), py::arg("threads"));
  m.def("conventions", [] {
    std::vector<std::string> names;
    for (const Convention& c : all_presets()) names.push_back(c.name);
    return names;
  }, "The additive conventions' names (`pecheck conventions`)");
  m.def("rotary_presets", [] {
    std::vector<std::string> names;
    for (const RotaryConvention& c : rotary_presets()) names.push_back(c.name);
    return names;
  }, "The rotary presets' names");
  m.def("computation_models", [] {
    std::vector<std::string> names;
    for (const ComputationModel& c : computation_models()) names.push_back(c.name);
    return names;
  }, "The computation models a rotary cache is compared with besides the exact encoding");
}

}  // namespace pecheck::python
