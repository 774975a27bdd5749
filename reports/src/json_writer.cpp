#include <cmath>

#include <nlohmann/json.hpp>

#include "pecheck/format.hpp"
#include "pecheck/reports/escape.hpp"
#include "pecheck/reports/writers.hpp"
#include "report_text.hpp"
#include "text_format.hpp"

namespace pecheck::reports {

namespace {

// Insertion order is the schema's order: readable, and deterministic.
using Json = nlohmann::ordered_json;

// JSON has no NaN or infinity; the schema's "real" allows these strings.
Json real(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  return value;
}

Json optional_real(const std::optional<double>& value) { return value ? real(*value) : Json(nullptr); }

// Every string goes through sanitize_utf8: nlohmann::json refuses ill-formed
// UTF-8, and a subject's message may hold any bytes.
Json text(std::string_view value) { return sanitize_utf8(value); }

Json texts(const std::vector<std::string>& values) {
  Json list = Json::array();
  for (const std::string& value : values) list.push_back(text(value));
  return list;
}

Json reals(const std::vector<double>& values) {
  Json list = Json::array();
  for (double value : values) list.push_back(real(value));
  return list;
}

Json measurement_json(const accuracy::Measurement& m) {
  Json worst = {{"row", m.worst.row},
                {"position", m.worst.position},
                {"column", m.worst.column},
                {"value", real(m.worst.value)},
                {"value_hex", text(m.worst.value_hex)},
                {"exact_hi", real(m.worst.exact.hi)},
                {"exact_lo", real(m.worst.exact.lo)},
                {"exact_text", text(m.worst.exact_text)}};
  Json histogram = {{"upper_edges", reals(m.ulp_histogram.upper_edges)}, {"counts", m.ulp_histogram.counts}};
  Json nearest_zero = nullptr;
  if (m.nearest_zero) {
    const accuracy::WorstInput& z = *m.nearest_zero;
    nearest_zero = {{"convention", text(z.convention)}, {"position", z.position},       {"column", z.column},
                    {"value_hex", text(z.value_hex)},   {"exact_hi", real(z.exact.hi)}, {"ulps", real(z.ulps)}};
  }
  return {{"format", std::string(format_of(m.format).name)},
          {"convention", text(m.convention)},
          {"every_convention", m.every_convention},
          {"nearest_zero", nearest_zero},
          {"entries", m.entries},
          {"max_ulp", real(m.max_ulp)},
          {"rms_ulp", real(m.rms_ulp)},
          {"max_abs_error", real(m.max_abs_error)},
          {"mismatches", m.mismatches},
          {"reference_escalations", m.reference_escalations},
          {"budget_ulp", real(m.budget_ulp)},
          {"budget_source", text(m.budget_source)},
          {"within_budget", within_budget(m)},
          {"worst", worst},
          {"histogram", histogram}};
}

Json check_json(const CheckResult& check) {
  const properties::Outcome& o = check.outcome;
  Json counterexample = Json::array();
  for (const auto& [name, value] : o.counterexample)
    counterexample.push_back({{"name", text(name)}, {"value", text(value)}});
  Json measurements = Json::array();
  for (const accuracy::Measurement& m : o.measurements) measurements.push_back(measurement_json(m));
  Json statistics = Json::array();
  for (const properties::Statistic& s : o.statistics) {
    Json statistic = {{"name", text(s.name)},
                      {"value", real(s.value)},
                      {"lower_bound", optional_real(s.lower_bound)},
                      {"upper_bound", optional_real(s.upper_bound)},
                      {"within_bounds", within_bounds(s)},
                      {"note", text(s.note)}};
    // A mean over draws carries its spread; both fields appear only when set.
    if (s.spread) {
      statistic["spread"] = {{"standard_deviation", real(s.spread->standard_deviation)}, {"draws", s.spread->draws}};
    }
    if (s.closed_form) statistic["closed_form"] = real(*s.closed_form);
    statistics.push_back(std::move(statistic));
  }
  Json series = Json::array();
  for (const properties::Series& curve : o.series) {
    Json entry = {{"name", text(curve.name)},
                  {"x_label", text(curve.x_label)},
                  {"y_label", text(curve.y_label)},
                  {"x", reals(curve.x)},
                  {"y", reals(curve.y)}};
    if (curve.marks_x) entry["marks_x"] = true;
    series.push_back(std::move(entry));
  }
  Json distribution = Json::array();
  for (const auto& [label, count] : o.distribution) distribution.push_back({{"label", text(label)}, {"count", count}});
  Json catches = Json::array();
  for (const std::string& fault : check.catches) catches.push_back(text(fault));
  return {{"id", text(check.id)},
          {"family", std::string(properties::to_string(check.family))},
          {"kind", std::string(properties::to_string(check.kind))},
          {"role", std::string(properties::to_string(check.role))},
          {"catches", catches},
          {"claim", text(check.claim)},
          {"source", text(check.source)},
          {"verdict", std::string(properties::to_string(o.verdict))},
          {"cases", o.cases},
          {"message", text(o.message)},
          {"counterexample", counterexample},
          {"seed", o.seed ? Json(hex64(*o.seed)) : Json(nullptr)},
          {"reproduce", text(o.reproduce)},
          {"reproduce_command", text(o.reproduce_command)},
          {"measurements", measurements},
          {"statistics", statistics},
          {"series", series},
          {"distribution", distribution}};
}

Json axis_json(const Axis& axis) {
  Json json = {{"label", text(axis.label)}, {"unit", text(axis.unit)}, {"scale", std::string(to_string(axis.scale))}};
  if (axis.min) json["min"] = real(*axis.min);
  if (axis.max) json["max"] = real(*axis.max);
  return json;
}

Json panel_json(const Panel& panel) {
  Json series = Json::array();
  for (const Series& s : panel.series) {
    series.push_back({{"name", text(s.name)},
                      {"style", std::string(to_string(s.style))},
                      {"dashed", s.dashed},
                      {"x", reals(s.x)},
                      {"y", reals(s.y)}});
  }
  Json heatmap = nullptr;
  // The grid's values are the subject's own table (the figure's source), not
  // a result: the page draws them, the JSON gives the grid's shape.
  if (panel.heatmap) {
    const Heatmap& h = *panel.heatmap;
    heatmap = {{"rows", h.rows},
               {"cols", h.cols},
               {"low", real(h.low)},
               {"high", real(h.high)},
               {"value_label", text(h.value_label)},
               {"row_origin", real(h.row_origin)},
               {"col_origin", real(h.col_origin)}};
  }
  return {{"title", text(panel.title)},
          {"x_axis", axis_json(panel.x)},
          {"y_axis", axis_json(panel.y)},
          {"series", series},
          {"heatmap", heatmap}};
}

Json figure_json(const Figure& figure) {
  Json panels = Json::array();
  for (const Panel& panel : figure.panels) panels.push_back(panel_json(panel));
  Json numbers = Json::array();
  for (const FigureNumber& number : figure.numbers) {
    numbers.push_back({{"label", text(number.label)},
                       {"column", text(number.column)},
                       {"value", real(number.value)},
                       {"text", text(number.text)}});
  }
  return {{"id", text(figure.id)},
          {"title", text(figure.title)},
          {"caption", text(figure.caption)},
          {"numbers", numbers},
          {"file", text("figures/" + figure.id + ".svg")},
          {"sources", texts(figure.sources)},
          {"panels", panels}};
}

Json finding_json(const Finding& finding) {
  Json evidence = Json::array();
  for (const Evidence& e : finding.evidence) {
    evidence.push_back({{"label", text(e.label)}, {"value", text(e.value)}, {"source", text(e.source)}});
  }
  return {{"id", text(finding.id)},
          {"question", text(finding.question)},
          {"answer", texts(finding.answer)},
          {"supported", texts(finding.supported)},
          {"unsupported", texts(finding.unsupported)},
          {"short_answer", text(finding.short_answer)},
          {"key_figure", text(finding.key_figure)},
          {"caveat", text(finding.caveat)},
          {"figures", texts(finding.figures)},
          {"evidence", evidence}};
}

Json accuracy_json(const AccuracyTable& table) {
  Json rows = Json::array();
  for (const AccuracyRow& row : table.rows) {
    rows.push_back({{"convention", text(row.convention)},
                    {"dim", row.dim},
                    {"check_id", text(row.check_id)},
                    {"measurement", measurement_json(row.measurement)},
                    {"float32_angles_max_ulp", optional_real(row.float32_angles_max_ulp)}});
  }
  return {{"title", text(table.title)}, {"note", text(table.note)}, {"rows", rows}};
}

// The index just past the string literal opening at text[i] (a '"').
std::size_t past_string(const std::string& text, std::size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return i;
}

// nlohmann's indented dump puts every element of an array on its own line,
// 16384 lines for one heatmap; arrays of numbers and strings go on one line.
std::string collapse_scalar_arrays(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '"') {
      const std::size_t end = past_string(text, i);
      out.append(text, i, end - i);
      i = end;
      continue;
    }
    if (text[i] == '[') {
      std::size_t j = i + 1;
      bool scalar = true;
      while (j < text.size() && text[j] != ']') {
        if (text[j] == '[' || text[j] == '{') {
          scalar = false;
          break;
        }
        j = text[j] == '"' ? past_string(text, j) : j + 1;
      }
      if (scalar) {
        out += '[';
        for (std::size_t k = i + 1; k < j;) {
          if (text[k] == '"') {
            const std::size_t end = past_string(text, k);
            out.append(text, k, end - k);
            k = end;
          } else {
            if (text[k] == ',')
              out += ", ";
            else if (text[k] != ' ' && text[k] != '\n')
              out += text[k];
            ++k;
          }
        }
        out += ']';
        i = j + 1;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

}  // namespace

std::string write_json(const Report& report) {
  const Environment& e = report.environment;
  const Configuration& c = report.configuration;
  const Summary summary = summarize(report);
  Json document;
  document["schema_version"] = report.schema_version;
  document["environment"] = {{"pecheck_version", text(e.pecheck_version)},
                             {"compiler", text(e.compiler)},
                             {"build_type", text(e.build_type)},
                             {"platform", text(e.platform)},
                             {"hardware_threads", e.hardware_threads}};
  document["configuration"] = {{"subject", text(c.subject)},
                               {"command", text(c.command)},
                               {"reproduce", text(c.reproduce)},
                               {"seed", hex64(c.seed)},
                               {"mode", std::string(to_string(c.mode))},
                               {"max_cases", c.max_cases}};
  document["summary"] = {{"status", all_held(report) ? "passed" : summary.failed > 0 ? "failed" : "not run"},
                         {"checks", summary.checks},
                         {"held", summary.held},
                         {"failed", summary.failed},
                         {"not_applicable", summary.not_applicable},
                         {"not_run", summary.not_run},
                         {"info", summary.info}};
  Json checks = Json::array();
  for (const CheckResult& check : report.checks) checks.push_back(check_json(check));
  document["checks"] = checks;
  Json accuracy = Json::array();
  for (const AccuracyTable& table : report.accuracy) accuracy.push_back(accuracy_json(table));
  document["accuracy"] = accuracy;
  Json findings = Json::array();
  for (const Finding& finding : report.findings) findings.push_back(finding_json(finding));
  document["findings"] = findings;
  Json figures = Json::array();
  for (const Figure& figure : report.figures) figures.push_back(figure_json(figure));
  document["figures"] = figures;
  // Exactly what `pecheck bench --json` prints for the same figures.
  document["performance"] = report.performance ? Json::parse(bench::figures_json(*report.performance)) : Json(nullptr);
  document["notes"] = texts(report.notes);
  return collapse_scalar_arrays(document.dump(1)) + "\n";
}

}  // namespace pecheck::reports
