// Reports built by hand for the writer tests: one check of each verdict, a
// measurement, statistics, a finding and figures, with hostile strings (markup,
// quotes, newlines, control characters, ill-formed UTF-8) wherever a subject
// or a file could put text.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "pecheck/properties/check_ids.hpp"
#include "pecheck/reports/report_model.hpp"

namespace pecheck::reports::testing {

// Everything a writer must neutralise, in one string.
inline std::string hostile_text() {
  return std::string("<script>alert(\"x&y\")</script> ]]> 'q' `tick` *em* _u_ | pipe # [link](x) \\ ") +
         "line1\nline2\r\ttab " + std::string(1, '\0') + "\x01\x1b\x7f" + " bad\xff\xc0\x80utf8 \xe2\x82 end";
}

inline accuracy::Measurement sample_measurement(FormatId format, double max_ulp, double budget) {
  accuracy::Measurement m;
  m.format = format;
  m.entries = 4096;
  m.max_ulp = max_ulp;
  m.rms_ulp = max_ulp / 3.0;
  m.max_abs_error = 5.9604644775390625e-08 * max_ulp;
  m.worst.row = 16777000;
  m.worst.position = 16777000;
  m.worst.column = 3;
  m.worst.value = 0.5;
  m.worst.value_hex = "0x3f000000";
  m.worst.exact = {0.49999999, 1e-20};
  m.worst.exact_text = "0.499999990000000000000";
  m.worst.ulps = max_ulp;
  m.worst.convention = "vaswani";
  accuracy::WorstInput near_zero = m.worst;
  near_zero.position = 355;
  near_zero.column = 0;
  near_zero.value_hex = "0xb6c3f6e4";
  near_zero.exact = {-5.8345e-6, 0.0};
  near_zero.ulps = max_ulp / 2.0;
  m.nearest_zero = near_zero;
  m.ulp_histogram.upper_edges = {0.5, 1.0, std::numeric_limits<double>::infinity()};
  m.ulp_histogram.counts = {4000, 96, 0};
  m.budget_ulp = budget;
  m.budget_source = "derived bound for the fast path (" + hostile_text() + ")";
  return m;
}

inline CheckResult held_property() {
  CheckResult check;
  check.id = properties::check_ids::unit_interval;
  check.family = properties::Family::encoding_bounds;
  check.kind = properties::CheckKind::property;
  check.claim = "Every value lies in [-1, 1].";
  check.source = "paper section 3.5";
  check.outcome.check_id = check.id;
  check.outcome.verdict = properties::Verdict::held;
  check.outcome.cases = 100;
  check.outcome.message = "held on 100 generated cases";
  check.outcome.seed = 0x5eed20170612ULL;
  check.outcome.distribution = {{"near pi/4", 40}, {"subnormal", 60}};
  check.seconds = 0.25;
  return check;
}

inline CheckResult failed_property() {
  CheckResult check;
  check.id = "add-vs-concat/" + hostile_text();
  check.family = properties::Family::add_vs_concat;
  check.kind = properties::CheckKind::property;
  check.claim = "Claim with " + hostile_text();
  check.source = "issue 4";
  check.outcome.check_id = check.id;
  check.outcome.verdict = properties::Verdict::failed;
  check.outcome.cases = 7;
  check.outcome.message = "Falsifiable after 7 tests: " + hostile_text();
  check.outcome.counterexample = {{"position", "257"}, {hostile_text(), "value " + hostile_text()}};
  check.outcome.seed = 42;
  check.outcome.reproduce = "reproduce=ABC" + hostile_text();
  check.outcome.reproduce_command = "RC_PARAMS=\"reproduce=ABC\" pecheck check add-vs-concat/x";
  check.seconds = 1.5;
  return check;
}

inline CheckResult measurement_check() {
  CheckResult check;
  check.id = "encoding-bounds/matches-reference";
  check.family = properties::Family::encoding_bounds;
  check.kind = properties::CheckKind::measurement;
  check.claim = "The subject matches the correctly rounded reference within its ULP budget.";
  check.source = "design";
  check.outcome.check_id = check.id;
  check.outcome.verdict = properties::Verdict::failed;
  check.outcome.cases = 8192;
  check.outcome.message = "float16 exceeds its budget";
  check.outcome.measurements = {sample_measurement(FormatId::float32, 0.75, 1.0),
                                sample_measurement(FormatId::float16, 1.5, 0.5)};
  check.outcome.statistics = {{"energy ratio", 2.0001, 1.9, 2.1, "with sqrt(d)"},
                              {"nan statistic", std::numeric_limits<double>::quiet_NaN(), std::nullopt, 1.0, ""},
                              {"unbounded " + hostile_text(), -std::numeric_limits<double>::infinity(), std::nullopt,
                               std::nullopt, hostile_text()}};
  check.outcome.series = {{"float32, position unknown", "a (s = d^a)", "tokens recovered", {0.0, 0.5}, {0.1, 1.0}},
                          {hostile_text(), "a (s = d^a)", "residual " + hostile_text(), {0.0, 0.5}, {0.02, 0.001}}};
  return check;
}

inline CheckResult not_applicable_check() {
  CheckResult check;
  check.id = "scaling-variance/scale-rounding";
  check.family = properties::Family::scaling_variance;
  check.kind = properties::CheckKind::measurement;
  check.claim = "sqrt(d) as each format rounds it.";
  check.source = "Gemma";
  check.outcome.check_id = check.id;
  check.outcome.verdict = properties::Verdict::not_applicable;
  check.outcome.message = "the subject offers no embedding operations";
  return check;
}

inline Figure sample_line_figure() {
  Figure figure;
  figure.id = "ulp-error";
  figure.title = "ULP error " + hostile_text();
  figure.caption = "Caption " + hostile_text();
  figure.sources = {"pecheck::fast_table", hostile_text()};
  figure.numbers = {{"vaswani, largest " + hostile_text(), "position = 1", 0.1, "0.1 ULP"},
                    {"vaswani, largest " + hostile_text(), "position = 1000 " + hostile_text(), 0.5, "0.5 ULP"},
                    {"bound", "position = 1000 " + hostile_text(), 1.0, "1 ULP"}};
  Panel panel;
  panel.title = "float32 " + hostile_text();
  panel.x = {"position", "", AxisScale::log, std::nullopt, std::nullopt};
  panel.y = {"error", "ULP", AxisScale::linear, std::nullopt, std::nullopt};
  Series a{"vaswani " + hostile_text(), SeriesStyle::line_and_points, {1, 10, 100, 1000}, {0.1, 0.4, 0.3, 0.5}, false};
  Series b{"bound", SeriesStyle::line, {1, 1000}, {1, 1}, true};
  Series c{"with zeros", SeriesStyle::points, {0, 10, 100}, {0.2, std::nan(""), 0.6}, false};
  panel.series = {a, b, c};
  figure.panels = {panel, panel};
  return figure;
}

inline Figure sample_heatmap_figure() {
  Figure figure;
  figure.id = "encoding-heatmap";
  figure.title = "The encoding";
  figure.caption = "Rows are positions.";
  Panel panel;
  panel.title = "vaswani, d = 8";
  panel.x = {"column", "", AxisScale::linear, std::nullopt, std::nullopt};
  panel.y = {"position", "", AxisScale::linear, std::nullopt, std::nullopt};
  Heatmap map;
  map.rows = 6;
  map.cols = 8;
  for (int r = 0; r < map.rows; ++r) {
    for (int c = 0; c < map.cols; ++c) map.values.push_back(c % 2 ? std::cos(r / (1.0 + c)) : std::sin(r / (1.0 + c)));
  }
  map.value_label = "PE value";
  panel.heatmap = map;
  figure.panels = {panel};
  return figure;
}

// Figures as `pecheck bench` would measure them, with the forward pass
// missing its target (0.6 of the triad bandwidth; the target is 0.7).
inline bench::Figures sample_performance() {
  bench::Figures f;
  f.threads = 2;
  f.repetitions = 21;
  f.convention = "vaswani";
  f.load_average_before = 0.25;
  f.load_average_after = 0.5;
  f.write_bandwidth = {32.0 * 1024 * 1024, 1.25e-3};
  f.triad_bandwidth = {96.0 * 1024 * 1024, 2.2e-3};
  f.pe_table_f32.timing = {8192, 1024, 1.6e-3};
  f.pe_table_f32.fraction_of_write_bw = 0.78;
  f.pe_table_f32.max_ulp = 0.4983;
  f.pe_table_f32.sampled_entries = 512;
  f.pe_table_f16 = {{8192, 1024, 2.0e-3}, 1.25};
  f.pe_table_bf16 = {{8192, 1024, 1.8e-3}, 1.125};
  f.rope_cache_f32 = {"llama3.1", 65536, 128, 3, 4.0e-3, 2097.0, 0.78, 0.5, 0.4998, 512};  // first run 0.5 s
  f.embed_forward = {8, 1024, 32000, 1024, 3.7e-3, 2267.0, 0.6};
  f.reference_f32 = {true, 8192, 1024, 0.16, 52.4, 90};
  f.reference_f64 = {true, 8192, 1024, 0.8, 10.5, 4};
  return f;
}

inline Report sample_report() {
  Report report;
  report.environment = {"0.1.0", "GCC " + hostile_text(), "Release", "Linux x86_64", 2};
  report.configuration.subject = "subject " + hostile_text();
  report.configuration.command = "pecheck report";
  report.configuration.reproduce = "pecheck report --seed 42 --quick";
  report.configuration.seed = 0xfedcba9876543210ULL;  // past 2^53: JSON must keep every bit
  report.configuration.mode = RunMode::quick;
  report.configuration.max_cases = 100;
  report.checks = {held_property(), failed_property(), measurement_check(), not_applicable_check()};
  AccuracyTable table;
  table.title = "Accuracy of " + hostile_text();
  table.note = "sampled rows";
  const CheckResult measured = measurement_check();
  for (const accuracy::Measurement& m : measured.outcome.measurements) {
    table.rows.push_back({"6 conventions", 512, measured.id, m, 2.5e6});
  }
  report.accuracy = {table};
  Finding finding;
  finding.id = "scale-before-encoding";
  finding.question = "Why scale " + hostile_text() + "?";
  finding.answer = {"First paragraph " + hostile_text(), "Second paragraph."};
  finding.supported = {"supported " + hostile_text()};
  finding.unsupported = {"unsupported " + hostile_text()};
  finding.evidence = {{"energy ratio", "2.0001", "scaling-variance/energy-ratio " + hostile_text()}};
  finding.figures = {"ulp-error"};
  Finding answered = finding;
  answered.id = "scale-and-attention";
  answered.question = "(b) Does the scale cancel " + hostile_text() + "?";
  answered.answer = {"The argument " + hostile_text(), "Its second step."};
  answered.short_answer = "No: it scales the input once " + hostile_text() + ".";
  answered.key_figure = "Logit variance 0.139";
  answered.caveat = "At initialisation only.";
  report.findings = {finding, answered};
  report.figures = {sample_line_figure(), sample_heatmap_figure()};
  report.performance = sample_performance();
  report.notes = {"accuracy sweep, vaswani/float16: " + hostile_text()};
  return report;
}

}  // namespace pecheck::reports::testing
