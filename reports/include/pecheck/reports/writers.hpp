// The four renderings of a Report. Each writer lives in its own file and
// returns the file's bytes; report_files.hpp writes them to disk atomically.
// Same report, same bytes: nothing here reads the clock.
#pragma once

#include <optional>
#include <string>

#include "pecheck/reports/report_model.hpp"

namespace pecheck::reports {

struct HtmlOptions {
  // Shown in the page header when set (`pecheck report --html-date`); absent
  // by default so that the page, too, depends on the seed alone.
  std::optional<std::string> date;
};

// One self-contained page: inline CSS and SVG, no script, no network access
// (a Content-Security-Policy forbids it), readable with JavaScript disabled.
std::string write_html(const Report& report, const HtmlOptions& options = {});

// GitHub-flavoured Markdown for a CI job summary.
std::string write_markdown(const Report& report);

// The versioned JSON document described by reports/schema/report.schema.json.
std::string write_json(const Report& report);

// JUnit XML: one testsuite per family, one testcase per check; a failed check
// carries its message, counterexample and reproduce command in <failure>.
std::string write_junit(const Report& report);

}  // namespace pecheck::reports
