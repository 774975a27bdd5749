#include "result_binding.hpp"

#include <pybind11/stl.h>

#include "pecheck/reference/reference.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/validate/validation_report.hpp"
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
  std::optional<std::int64_t> beyond_budget;  // entries that fail the criterion, when counted
  bool conforms = false;
  Entry worst;
};

struct HazardItem {
  std::string kind;
  std::string evidence;
};

Entry entry_of(const properties::WorstInput& w) {
  return {w.row, w.position, w.column, w.value, w.value_hex, w.exact_text, w.ulps, w.abs_error};
}

Comparison comparison_of(const std::string& target, const properties::Measurement& m,
                         std::optional<std::int64_t> beyond_budget, bool conforms) {
  return {target,       m.entries,       m.max_ulp,     m.rms_ulp,  m.max_abs_error, m.mismatches,
          m.budget_ulp, m.budget_source, beyond_budget, conforms,   entry_of(m.worst)};
}

// Every accessor below reads the result through these two overloads, so the
// Python class has one set of attributes whatever the subject was.
struct Reader {
  const Validation& v;

  std::vector<Comparison> comparisons() const {
    return std::visit(
        [](const auto& r) {
          std::vector<Comparison> out;
          if constexpr (std::is_same_v<std::decay_t<decltype(r)>, validate::ValidationResult>) {
            if (!r.compared) return out;
            const properties::Measurement& m = r.measurement;
            // Entries failing the criterion are counted when the float64-angle
            // bound judged those beyond the ULP budget; under the ULP budget
            // alone, none fail when the largest error is within it.
            std::optional<std::int64_t> beyond;
            if (m.abs_bound) beyond = m.abs_bound->beyond_bound + m.mismatches;
            else if (m.max_ulp <= m.budget_ulp && m.mismatches == 0) beyond = 0;
            out.push_back(comparison_of("the exact encoding", m, beyond,
                                        r.verdict == validate::ValidationVerdict::conforms));
          } else {
            for (const validate::RotaryComparison& c : r.comparisons)
              out.push_back(comparison_of(c.target, c.measurement, c.beyond_budget, c.conforms));
          }
          return out;
        },
        v.result);
  }

  std::vector<HazardItem> hazards() const {
    return std::visit(
        [](const auto& r) {
          std::vector<HazardItem> out;
          for (const auto& h : r.hazards) out.push_back({std::string(validate::to_string(h.kind)), h.evidence});
          return out;
        },
        v.result);
  }

  std::optional<std::string> convention() const {
    if (const auto* t = std::get_if<validate::ValidationResult>(&v.result)) {
      if (t->detection.preset) return *t->detection.preset;
      if (t->detection.convention) return t->detection.convention->name;
      return std::nullopt;
    }
    if (v.rotary_convention) return v.rotary_convention->name;
    return std::nullopt;
  }

  std::optional<std::int64_t> offset() const {
    if (const auto* t = std::get_if<validate::ValidationResult>(&v.result)) {
      if (!t->detection.convention) return std::nullopt;
      return t->detection.row_offset;
    }
    const auto& r = std::get<validate::RotaryValidationResult>(v.result);
    if (!r.detection.rotary) return std::nullopt;
    return r.detection.first_position;
  }

  std::optional<std::string> layout() const {
    if (const auto* t = std::get_if<validate::ValidationResult>(&v.result)) {
      if (!t->detection.convention) return std::nullopt;
      return std::string(to_string(t->detection.convention->layout));
    }
    const auto& r = std::get<validate::RotaryValidationResult>(v.result);
    if (!r.detection.rotary) return std::nullopt;
    return std::string(to_string(r.detection.layout));
  }

  std::vector<std::string> notes() const {
    return std::visit([](const auto& r) { return r.detection.notes; }, v.result);
  }
  std::vector<std::string> reasons() const {
    return std::visit([](const auto& r) { return r.reasons; }, v.result);
  }
  validate::ValidationVerdict verdict() const {
    return std::visit([](const auto& r) { return r.verdict; }, v.result);
  }
  std::string text() const {
    if (const auto* t = std::get_if<validate::ValidationResult>(&v.result)) return validate::validation_text(*t, v.name);
    return validate::rotary_validation_text(std::get<validate::RotaryValidationResult>(v.result), v.name);
  }
  std::string json() const {
    if (const auto* t = std::get_if<validate::ValidationResult>(&v.result)) return validate::validation_json(*t, v.name);
    return validate::rotary_validation_json(std::get<validate::RotaryValidationResult>(v.result), v.name);
  }
};

}  // namespace

std::optional<Table> reference_values(const Validation& v) {
  if (const auto* t = std::get_if<validate::ValidationResult>(&v.result)) {
    if (!t->detection.convention) return std::nullopt;
    const TableRequest request{t->rows, t->dim, t->detection.row_offset};
    return reference::reference_table(*t->detection.convention, request, FormatId::float64, 0,
                                      reference::ExactValues::none)
        .rounded;
  }
  const auto& r = std::get<validate::RotaryValidationResult>(v.result);
  if (!v.rotary_convention || !r.detection.rotary) return std::nullopt;
  const RotaryCacheRequest request{r.detection.first_position, r.rows, FormatId::float64};
  RotaryCache cache = reference::rotary_reference_cache(*v.rotary_convention, request, std::nullopt).rounded;
  // cos columns, then sin columns, as the comparison counts them.
  Table both = make_uninitialized_table(r.rows, 2 * r.cols, FormatId::float64);
  std::span<double> out = both.storage<double>();
  const std::span<const double> cos = cache.cos.storage<double>();
  const std::span<const double> sin = cache.sin.storage<double>();
  for (std::int64_t row = 0; row < r.rows; ++row) {
    std::copy_n(cos.begin() + row * r.cols, r.cols, out.begin() + row * 2 * r.cols);
    std::copy_n(sin.begin() + row * r.cols, r.cols, out.begin() + row * 2 * r.cols + r.cols);
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
      .def_readonly("beyond_budget", &Comparison::beyond_budget, "entries that fail the criterion (None: not counted)")
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
      .def_property_readonly("kind",
                             [](const Validation& v) {
                               return v.result.index() == 0 ? "table" : "rotary cache";
                             })
      .def_property_readonly("verdict",
                             [](const Validation& v) { return std::string(validate::to_string(Reader{v}.verdict())); })
      .def_property_readonly(
          "conforms", [](const Validation& v) { return Reader{v}.verdict() == validate::ValidationVerdict::conforms; })
      .def_property_readonly("convention", [](const Validation& v) { return Reader{v}.convention(); })
      .def_property_readonly("offset", [](const Validation& v) { return Reader{v}.offset(); },
                             "the row (additive tables) or position (rotary caches) the first row holds")
      .def_property_readonly("layout", [](const Validation& v) { return Reader{v}.layout(); })
      .def_property_readonly("hazards", [](const Validation& v) { return Reader{v}.hazards(); })
      .def_property_readonly("comparisons", [](const Validation& v) { return Reader{v}.comparisons(); })
      .def_property_readonly("worst",
                             [](const Validation& v) -> std::optional<Entry> {
                               const std::vector<Comparison> c = Reader{v}.comparisons();
                               if (c.empty()) return std::nullopt;
                               return c.front().worst;
                             })
      .def_property_readonly("reasons", [](const Validation& v) { return Reader{v}.reasons(); })
      .def_property_readonly("notes", [](const Validation& v) { return Reader{v}.notes(); })
      .def("to_json", [](const Validation& v) { return Reader{v}.json(); })
      .def("to_dict", [](const Validation& v) { return py::module_::import("json").attr("loads")(Reader{v}.json()); })
      .def("__str__", [](const Validation& v) { return Reader{v}.text(); })
      .def("__repr__",
           [](const Validation& v) {
             return "<pecheck.Validation " + v.name + ": " + std::string(validate::to_string(Reader{v}.verdict())) +
                    ">";
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
