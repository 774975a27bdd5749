// The result of one `pecheck report` (or `pecheck validate`) run, as data:
// the environment, the configuration and seed, each check's Outcome, the
// accuracy tables, the findings and the figures. It knows no writer; the
// HTML, Markdown, JSON and JUnit writers each render all of it.
//
// Everything here is deterministic for a given subject and seed except
// CheckResult::seconds, which only the JUnit writer prints, and the
// performance figures, which are timings (a run that wants the same bytes
// leaves them out: `pecheck report --no-performance`, or --quick).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/bench/figures.hpp"
#include "pecheck/properties/check.hpp"
#include "pecheck/properties/outcome.hpp"

namespace pecheck::reports {

// Bumped whenever a JSON field changes meaning or disappears (adding one does not).
inline constexpr int report_schema_version = 1;

struct Environment {
  std::string pecheck_version;
  std::string compiler;
  std::string build_type;
  std::string platform;  // operating system and machine
  int hardware_threads = 0;
};

enum class RunMode { quick, standard, full };

struct Configuration {
  std::string subject;    // the subject's name
  std::string command;    // the tool that produced the report: "pecheck report"
  std::string reproduce;  // a command line that produces the same report
  std::uint64_t seed = 0;
  RunMode mode = RunMode::standard;
  int max_cases = 0;  // RapidCheck cases per property
};

// One check's metadata (from the registry) and what it yielded.
struct CheckResult {
  std::string id;
  properties::Family family = properties::Family::encoding_bounds;
  properties::CheckKind kind = properties::CheckKind::property;
  std::string claim;
  std::string source;
  properties::CheckRole role = properties::CheckRole::claim;
  std::vector<std::string> catches;  // the faults the fault matrix proves it fails on (none: an observation)
  properties::Outcome outcome;
  double seconds = 0.0;  // wall time; varies between runs, so only JUnit prints it
};

// One row of the Boost.Math-style accuracy table: one format over every
// convention the accuracy check swept.
struct AccuracyRow {
  std::string convention;  // the conventions summed, for people ("6 conventions")
  std::int64_t dim = 0;    // the width swept; 0 when the check sweeps several
  std::string check_id;    // the check whose measurement this is
  accuracy::Measurement measurement;
  // The tutorials' float32 angles on the same rows, rounded to the format:
  // the comparison column (a statistic of the same check; no budget).
  std::optional<double> float32_angles_max_ulp;
};

struct AccuracyTable {
  std::string title;
  std::string note;  // how the rows were sampled
  std::vector<AccuracyRow> rows;
};

// A measured number a finding rests on, with where it comes from (a check
// id and statistic name, or a figure id).
struct Evidence {
  std::string label;
  std::string value;  // already formatted, with its unit
  std::string source;
};

// The answer to one of the three questions, written from this run's numbers.
struct Finding {
  std::string id;                        // "scale-before-encoding"
  std::string question;                  // in pecheck's own words
  std::vector<std::string> answer;       // paragraphs of plain text
  std::vector<std::string> supported;    // what the measurements support
  std::vector<std::string> unsupported;  // what they do not show
  std::vector<Evidence> evidence;
  // The answer in brief, which the report prints first (its Answers
  // section): one or two sentences, the figure it rests on with its
  // uncertainty, and the main caveat. Empty when the run measured too little.
  std::string short_answer;
  std::string key_figure;
  std::string caveat;
  std::vector<std::string> figures;  // ids of the figures that show this finding
};

// ---- figures: data only; svg_plot draws them -----------------------------

enum class AxisScale { linear, log };

struct Axis {
  std::string label;
  std::string unit;  // empty for dimensionless quantities
  AxisScale scale = AxisScale::linear;
  std::optional<double> min;  // fixed limits; otherwise from the data
  std::optional<double> max;
};

enum class SeriesStyle { line, points, line_and_points };

struct Series {
  std::string name;
  SeriesStyle style = SeriesStyle::line;
  std::vector<double> x;
  std::vector<double> y;  // same length; NaN breaks a line
  bool dashed = false;    // reference curves (theory) are dashed
};

// A grid of values (row-major), drawn with a diverging colour scale.
struct Heatmap {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<double> values;
  double low = -1.0;
  double high = 1.0;
  std::string value_label;  // what the colour encodes
  double row_origin = 0.0;  // the row axis value of row 0 (a position)
  double col_origin = 0.0;
};

struct Panel {
  std::string title;
  Axis x;
  Axis y;
  std::vector<Series> series;
  std::optional<Heatmap> heatmap;  // drawn instead of the series when set
};

// One number a figure shows, in the table beside it: a plotted value or a
// check's statistic, never one computed for the table alone (the report's
// tests look each value up in the figure's data or the checks' statistics).
struct FigureNumber {
  std::string label;   // what it is, the table's row: "float32, largest", "token, naive decoder"
  std::string column;  // where, the table's column: "s = 1"; empty: the one column "Value"
  double value = 0.0;
  std::string text;  // value as printed, with its unit
};

struct Figure {
  std::string id;  // also the file name of its SVG: figures/<id>.svg
  std::string title;
  // What the figure shows and how to read it, in at most three lines at
  // 1400 px; its numbers are in `numbers`.
  std::string caption;
  std::vector<FigureNumber> numbers;
  std::vector<Panel> panels;
  std::vector<std::string> sources;  // checks and library functions the data come from
};

struct Report {
  int schema_version = report_schema_version;
  Environment environment;
  Configuration configuration;
  std::vector<CheckResult> checks;
  std::vector<AccuracyTable> accuracy;
  std::vector<Finding> findings;
  std::vector<Figure> figures;
  // The fast path's speed, each figure beside its in-run reference and
  // judged by bench/targets.hpp: what `pecheck bench` prints. Absent when
  // the run did not measure it (then a note says so).
  std::optional<bench::Figures> performance;
  // What could not be computed for this subject, and why (a format it does
  // not offer, rows a file does not hold): said, never silently skipped.
  std::vector<std::string> notes;
  // A validation's report (validate --output-dir): its verdict, comparison
  // and diagnosis as validation.txt gives them, shown before the checks.
  // Empty for `pecheck report`. Not in report.json (validation.json has it).
  std::string validation_text;
};

struct Summary {
  int checks = 0;
  int held = 0;
  int failed = 0;
  int not_applicable = 0;
  int not_run = 0;  // exercised on fewer cases than the minimum: no pass
  int info = 0;     // observations: measured, asserted by nothing
};

Summary summarize(const Report& report);
// "25 held, 0 failed, 0 not applicable, 2 info": not run and info named only when present.
std::string summary_counts(const Summary& summary);
// True when no check failed and every claim was exercised (not-applicable
// checks and observations do not fail a run; a check that was not run does).
bool all_held(const Report& report);

std::string_view to_string(RunMode mode);
std::string_view to_string(AxisScale scale);
std::string_view to_string(SeriesStyle style);

// The statistic named `name` of check `check_id`, if that check ran and reported it.
const properties::Statistic* find_statistic(const Report& report, std::string_view check_id, std::string_view name);
const CheckResult* find_check_result(const Report& report, std::string_view check_id);

}  // namespace pecheck::reports
