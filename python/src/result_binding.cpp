#include "result_binding.hpp"

#include <algorithm>
#include <span>
#include <variant>

#include <pybind11/stl.h>

#include "pecheck/reference/reference.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/validate/validation_writers.hpp"
#include "table_input.hpp"

namespace py = pybind11;

namespace pecheck::python {

namespace {

// One entry as Python reads it: where it is, what it holds, how far it is.
struct Entry {
  std::int64_t row = 0;
  std::int64_t position = 0;
  std::int64_t column = 0;
  double value = 0.0;
  std::string value_hex;
  std::string exact;  // the exact value in decimal, 21 significant digits
  double ulp = 0.0;
  double abs_error = 0.0;
};

struct Comparison {
  std::string target;  // "the exact encoding" or a computation model's name
  std::int64_t entries = 0;
  double max_ulp = 0.0;
  double rms_ulp = 0.0;
  double max_abs_error = 0.0;
  std::int64_t mismatches = 0;  // typed: NaN, infinity, signed zero
  double budget_ulp = 0.0;
  std::string budget_source;
  std::int64_t beyond_budget = 0;  // entries beyond the budget and beyond any allowance
  bool conforms = false;
  Entry worst;
};

struct HazardItem {
  std::string kind;
  std::string evidence;
};

Entry entry_of(const accuracy::WorstInput& w) {
  return {w.row, w.position, w.column, w.value, w.value_hex, w.exact_text, w.ulps, w.abs_error};
}

Comparison comparison_of(const validate::Comparison& c) {
  const accuracy::Measurement& m = c.measurement;
  return {c.target,        m.entries,        m.max_ulp,  m.rms_ulp,          m.max_abs_error, m.mismatches,
          m.budget_ulp,    m.budget_source,  c.beyond_budget, c.conforms, entry_of(m.worst)};
}

// What every kind has is read from the common fields; what the convention,
// offset and layout are from the kind's findings.
struct Reader {
  const validate::Validation& v;

  std::vector<Comparison> comparisons() const {
    std::vector<Comparison> out;
    for (const validate::Comparison& c : v.comparisons) out.push_back(comparison_of(c));
    return out;
  }

  std::vector<HazardItem> hazards() const {
    std::vector<HazardItem> out;
    for (const validate::Hazard& h : v.hazards) out.push_back({std::string(validate::to_string(h.kind)), h.evidence});
    return out;
  }

  std::optional<std::string> convention() const {
    if (const auto* t = std::get_if<validate::TableFindings>(&v.findings)) {
      if (t->detection.preset) return *t->detection.preset;
      if (t->detection.convention) return t->detection.convention->name;
    } else if (const auto* r = std::get_if<validate::RotaryFindings>(&v.findings)) {
      if (r->compared_convention) return r->compared_convention->name;
    }
    return std::nullopt;
  }

  std::optional<std::int64_t> offset() const {
    if (const auto* t = std::get_if<validate::TableFindings>(&v.findings)) {
      if (t->detection.convention) return t->detection.row_offset;
    } else if (const auto* r = std::get_if<validate::RotaryFindings>(&v.findings)) {
      if (r->compared_convention) return r->detection.first_position;
    }
    return std::nullopt;
  }

  std::optional<std::string> layout() const {
    if (const auto* t = std::get_if<validate::TableFindings>(&v.findings)) {
      if (t->detection.convention) return std::string(to_string(t->detection.convention->layout));
    } else if (const auto* r = std::get_if<validate::RotaryFindings>(&v.findings)) {
      if (r->detection.rotary) return std::string(to_string(r->detection.layout));
    }
    return std::nullopt;
  }
};

}  // namespace

std::optional<Table> reference_values(const Validation& validation) {
  const validate::Validation& v = validation.result;
  if (const auto* t = std::get_if<validate::TableFindings>(&v.findings)) {
    if (!t->detection.convention) return std::nullopt;
    const TableRequest request{t->rows, t->dim, t->detection.row_offset};
    return reference::reference_table(*t->detection.convention, request, FormatId::float64, 0,
                                      reference::ExactValues::none)
        .rounded;
  }
  const auto* r = std::get_if<validate::RotaryFindings>(&v.findings);
  if (r == nullptr || !r->compared_convention) return std::nullopt;
  const RotaryCacheRequest request{r->detection.first_position, r->rows, FormatId::float64};
  RotaryCache cache = reference::rotary_reference_cache(*r->compared_convention, request, std::nullopt, 0,
                                                       reference::ExactValues::none)
                          .rounded;
  // cos columns, then sin columns, as the comparison counts them.
  Table both = make_uninitialized_table(r->rows, 2 * r->cols, FormatId::float64);
  std::span<double> out = both.storage<double>();
  const std::span<const double> cos = cache.cos.storage<double>();
  const std::span<const double> sin = cache.sin.storage<double>();
  for (std::int64_t row = 0; row < r->rows; ++row) {
    std::copy_n(cos.begin() + row * r->cols, r->cols, out.begin() + row * 2 * r->cols);
    std::copy_n(sin.begin() + row * r->cols, r->cols, out.begin() + row * 2 * r->cols + r->cols);
  }
  return both;
}

void bind_result(py::module_& m) {
  py::class_<Entry>(m, "Entry", "One entry of a table: where it is, what it holds, how far from the exact value")
      .def_readonly("row", &Entry::row)
      .def_readonly("position", &Entry::position)
      .def_readonly("column", &Entry::column)
      .def_readonly("value", &Entry::value)
      .def_readonly("value_hex", &Entry::value_hex)
      .def_readonly("exact", &Entry::exact, "the exact value in decimal (21 significant digits)")
      .def_readonly("ulp", &Entry::ulp)
      .def_readonly("abs_error", &Entry::abs_error)
      .def("__repr__", [](const Entry& e) {
        return "<pecheck.Entry row " + std::to_string(e.row) + " (position " + std::to_string(e.position) +
               "), column " + std::to_string(e.column) + ": " + e.value_hex + " against exact " + e.exact + ">";
      });
  py::class_<Comparison>(m, "Comparison", "The subject compared with one target, entry by entry")
      .def_readonly("target", &Comparison::target)
      .def_readonly("entries", &Comparison::entries)
      .def_readonly("max_ulp", &Comparison::max_ulp)
      .def_readonly("rms_ulp", &Comparison::rms_ulp)
      .def_readonly("max_abs_error", &Comparison::max_abs_error)
      .def_readonly("mismatches", &Comparison::mismatches, "typed mismatches: NaN, infinity, signed zero")
      .def_readonly("budget_ulp", &Comparison::budget_ulp)
      .def_readonly("budget_source", &Comparison::budget_source)
      .def_readonly("beyond_budget", &Comparison::beyond_budget, "entries beyond the budget and beyond any allowance")
      .def_readonly("conforms", &Comparison::conforms)
      .def_readonly("worst", &Comparison::worst)
      .def("__repr__", [](const Comparison& c) {
        return "<pecheck.Comparison with " + c.target + ": max " + std::to_string(c.max_ulp) + " ULP>";
      });
  py::class_<HazardItem>(m, "Hazard", "A numeric fault diagnosed, with the figures that show it")
      .def_readonly("kind", &HazardItem::kind)
      .def_readonly("evidence", &HazardItem::evidence)
      .def("__repr__", [](const HazardItem& h) { return "<pecheck.Hazard " + h.kind + ": " + h.evidence + ">"; });

  py::class_<Validation>(m, "Validation", py::dynamic_attr(),
                         "The result of one validation. str() is the command line's text, to_json() its --json "
                         "document.")
      .def_readonly("name", &Validation::name)
      .def_property_readonly("kind", [](const Validation& v) { return std::string(to_string(v.result.kind)); },
                             "table, rotary or input-layer")
      .def_property_readonly("verdict", [](const Validation& v) { return std::string(to_string(v.result.verdict)); },
                             "conforms, deviates or unknown")
      .def_property_readonly("conforms",
                             [](const Validation& v) { return v.result.verdict == validate::ValidationVerdict::conforms; })
      .def_property_readonly("convention", [](const Validation& v) { return Reader{v.result}.convention(); })
      .def_property_readonly("offset", [](const Validation& v) { return Reader{v.result}.offset(); },
                             "the row (additive tables) or position (rotary caches) the first row holds")
      .def_property_readonly("layout", [](const Validation& v) { return Reader{v.result}.layout(); })
      .def_property_readonly("hazards", [](const Validation& v) { return Reader{v.result}.hazards(); })
      .def_property_readonly("comparisons", [](const Validation& v) { return Reader{v.result}.comparisons(); })
      .def_property_readonly("worst",
                             [](const Validation& v) -> std::optional<Entry> {
                               if (v.result.comparisons.empty()) return std::nullopt;
                               return entry_of(v.result.comparisons.front().measurement.worst);
                             },
                             "the worst entry of the first comparison (with the exact encoding)")
      .def_property_readonly("reasons", [](const Validation& v) { return v.result.reasons; })
      .def_property_readonly("notes", [](const Validation& v) { return v.result.notes; })
      .def("to_json", [](const Validation& v) { return validate::validation_json(v.result, v.name); })
      .def("to_dict",
           [](const Validation& v) {
             return py::module_::import("json").attr("loads")(validate::validation_json(v.result, v.name));
           })
      .def("__str__", [](const Validation& v) { return validate::validation_text(v.result, v.name); })
      .def("__repr__",
           [](const Validation& v) {
             return "<pecheck.Validation " + v.name + ": " + std::string(to_string(v.result.verdict)) + ">";
           })
      .def("_reference_values", [](const Validation& v) -> std::optional<py::array> {
        std::optional<Table> values;
        {
          py::gil_scoped_release release;
          values = reference_values(v);
        }
        if (!values) return std::nullopt;
        return table_to_numpy(std::move(*values));
      });
}

}  // namespace pecheck::python
