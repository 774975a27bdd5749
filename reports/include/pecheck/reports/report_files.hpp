// Writing a report to a directory. Every file is written atomically: the
// bytes go to a temporary file in the same directory, which is flushed to
// disk and renamed over the destination, so a reader (a CI step, a browser)
// sees the old file or the new one, never half of one.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "pecheck/reports/report_model.hpp"
#include "pecheck/reports/writers.hpp"

namespace pecheck::reports {

// A file or directory that cannot be written; the message names it and says why.
class ReportWriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

// Creates the directory (and its parents) when missing; throws ReportWriteError
// when it cannot, or when the path exists and is not a directory. A command
// calls it before its long work, so a bad --output-dir fails at once.
void ensure_directory(const std::filesystem::path& directory);

// The names of the files in a report directory.
inline constexpr std::string_view html_file_name = "report.html";
inline constexpr std::string_view markdown_file_name = "report.md";
inline constexpr std::string_view json_file_name = "report.json";
inline constexpr std::string_view junit_file_name = "report.junit.xml";
inline constexpr std::string_view figures_directory_name = "figures";

// Creates `directory` (and its parents) when needed and writes the four
// renderings and one SVG per figure; returns the paths written, in order.
std::vector<std::filesystem::path> write_report_files(const Report& report, const std::filesystem::path& directory,
                                                      const HtmlOptions& html_options = {});

}  // namespace pecheck::reports
