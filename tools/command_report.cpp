#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <iostream>
#include <filesystem>
#include <optional>
#include <string>

#include "cli_options.hpp"
#include "pecheck/number_text.hpp"
#include "commands.hpp"
#include "pecheck/reports/training_family.hpp"
#include "pecheck/bench/figures.hpp"
#include "pecheck/count_text.hpp"
#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/reports/answers_text.hpp"
#include "pecheck/reports/report_directory.hpp"
#include "pecheck/reports/report_files.hpp"
#include "pecheck/reports/report_run.hpp"
#include "pecheck/subject.hpp"

namespace pecheck::tools {

namespace {

// "2026-11-21", UTC: only for --html-date, never in the JSON or Markdown.
std::string today() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[16];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d", &utc);
  return buffer;
}

// One line, rewritten in place, when a person is watching stderr.
reports::Progress progress_line() {
  if (::isatty(STDERR_FILENO) == 0) return {};
  return [](std::string_view step, std::size_t done, std::size_t total) {
    std::cerr << "\r\033[K[" << done + 1 << "/" << total << "] " << step << std::flush;
  };
}

}  // namespace

Command add_report_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "report",
      "Run every check on pecheck's fast implementation and write a report directory: report.html (one\n"
      "self-contained page with SVG figures), report.md (a CI job summary), report.json (versioned, see\n"
      "reports/schema/report.schema.json), report.junit.xml (one testcase per check) and figures/*.svg.\n"
      "A performance section times the fast path as `pecheck bench` does (10-30 s; not with --quick,\n"
      "see --performance). The same seed gives the same bytes, except those timings: --no-performance\n"
      "leaves them out. Exit status 0 when every check held, 1 when one failed; a missed performance\n"
      "target is reported, not a failure.\n"
      "Example: pecheck report --quick --output-dir /tmp/report");
  struct Options {
    std::string output_dir = "pecheck-report";
    std::uint64_t seed = properties::RunConfig{}.seed;
    bool quick = false;
    bool full = false;
    bool html_date = false;
    bool performance = false;
    bool no_performance = false;
    bool training = false;
    std::string fault;  // a fault matrix name: run on that faulty subject instead
    bool measure_performance() const { return performance || (!no_performance && !quick); }
  };
  auto options = std::make_shared<Options>();
  command->add_option("--output-dir", options->output_dir, "Directory to write (created if missing)")
      ->capture_default_str();
  command->add_option("--seed", options->seed, "Seed for generated cases and samples (decimal or 0x hex)")
      ->transform(seed_number())
      ->default_str(hex64(options->seed));
  CLI::Option* quick = command->add_flag("--quick", options->quick, "Fewer cases and smaller sweeps (a few seconds)");
  CLI::Option* full = command->add_flag("--full", options->full, "More cases and larger sweeps (minutes)");
  quick->excludes(full);
  CLI::Option* with_performance =
      command->add_flag("--performance", options->performance,
                        "Measure the fast path's speed for the performance section (the default, except with --quick,\n"
                        "where it times tiny sizes: a smoke test, not a measurement)");
  CLI::Option* without_performance = command->add_flag("--no-performance", options->no_performance,
                                                       "Leave the performance section out (same seed, same bytes)");
  with_performance->excludes(without_performance);
  std::vector<std::string> fault_names;
  for (const properties::Fault& fault : properties::fault_matrix()) fault_names.emplace_back(fault.name);
  command
      ->add_option("--fault", options->fault,
                   "Run on pecheck's fast implementation with one deliberate fault from the fault matrix\n"
                   "(e.g. float32-angles): the report shows which checks catch it, and exits 1")
      ->check(CLI::IsMember(fault_names));
  command->add_flag("--training", options->training,
                    "Also run the training family: small transformers trained on reverse and sort for each input\n"
                    "layer, post-LN and pre-LN, over 5 seeds (about 10 CPU-minutes: 5 on 2 idle cores;\n"
                    "progress on stderr).\n"
                    "Needs pecheck built with libtorch; without it the report says the family is absent");
  command->add_flag("--html-date", options->html_date,
                    "Show today's date in the HTML page (the page then differs day to day)");

  return {command, [options] {
    reports::ReportSettings settings;
    settings.seed = options->seed;
    settings.mode = options->quick  ? reports::RunMode::quick
                    : options->full ? reports::RunMode::full
                                    : reports::RunMode::standard;
    const std::string seed_text = hex64(options->seed);
    const char* mode_flag = options->quick ? " --quick" : options->full ? " --full" : "";
    const char* performance_flag = options->performance      ? " --performance"
                                   : options->no_performance ? " --no-performance"
                                                             : "";
    const std::string fault_flag = options->fault.empty() ? "" : " --fault " + options->fault;
    settings.reproduce = std::string("pecheck report --seed ") + seed_text + mode_flag + performance_flag + fault_flag +
                         (options->training ? " --training" : "");
    // Locked, cleaned and proven writable before the checks run; written as a whole at the end.
    reports::ReportDirectory directory(options->output_dir);
    const reports::Progress progress = progress_line();
    // Timed first, while nothing else of this run competes for the cores.
    std::optional<bench::Figures> performance;
    if (options->measure_performance()) {
      bench::BenchOptions bench_options;
      bench_options.quick = options->quick;
      if (progress) {
        bench_options.progress = [&progress](const std::string& step) { progress("performance: " + step, 0, 1); };
      }
      performance = bench::measure_figures(bench_options);
    }
    std::unique_ptr<Subject> subject = make_fast_subject();
    for (const properties::Fault& fault : properties::fault_matrix()) {
      if (fault.name == options->fault) subject = fault.make(std::shared_ptr<const Subject>(std::move(subject)));
    }
    std::vector<const properties::Check*> selected = reports::registered_checks();
    // Trained in pecheck-training first (minutes; each run's line on stderr),
    // then rendered with the other checks' outcomes.
    std::string training_absent;
    const std::vector<properties::Check> training_checks =
        options->training ? reports::run_training_family({options->seed, options->quick, options->fault}, training_absent)
                          : std::vector<properties::Check>{};
    for (const properties::Check& check : training_checks) selected.push_back(&check);
    std::vector<reports::CheckResult> checks =
        reports::run_checks(*subject, selected, reports::run_config(settings), progress);
    reports::Report report = reports::build_report(*subject, std::move(checks), settings, progress);
    if (!training_absent.empty()) report.notes.push_back(training_absent);
    report.performance = std::move(performance);
    if (!report.performance) {
      report.notes.push_back(std::string("Performance not measured (") +
                             (options->quick ? "--quick" : "--no-performance") +
                             "): pecheck bench measures it, as does pecheck report without that flag.");
    }
    reports::HtmlOptions html;
    if (options->html_date) html.date = today();
    std::vector<std::filesystem::path> written = reports::write_report_files(report, directory.staging(), html);
    // Named where they will be, before the commit hands the staging directory over.
    for (std::filesystem::path& path : written) path = directory.destination() / path.lexically_relative(directory.staging());
    directory.commit();
    if (progress) std::cerr << "\r\033[K";
    const reports::Summary summary = reports::summarize(report);
    std::cout << "pecheck report: " << count_of(summary.checks, "check") << ", " << reports::summary_counts(summary)
              << " (seed "
              << seed_text << ")\n";
    for (const auto& path : written) std::cout << "  " << path.string() << '\n';
    // The answers themselves, after where to find their evidence.
    const std::string answers = reports::answers_text(report);
    if (!answers.empty()) std::cout << '\n' << answers;
    return reports::all_held(report) ? 0 : 1;
  }};
}

}  // namespace pecheck::tools
