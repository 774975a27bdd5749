#include "pecheck/reports/report_files.hpp"

#include <span>
#include <string>

#include "pecheck/atomic_file.hpp"
#include "pecheck/reports/svg_plot.hpp"

namespace pecheck::reports {

void ensure_directory(const std::filesystem::path& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    throw ReportWriteError("cannot create the output directory " + directory.string() + ": " + error.message());
  }
  if (!std::filesystem::is_directory(directory)) {
    throw ReportWriteError("the output path " + directory.string() + " exists and is not a directory");
  }
}

void write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  try {
    pecheck::write_file_atomically(path, std::as_bytes(std::span(bytes.data(), bytes.size())));
  } catch (const FileWriteError& e) {
    throw ReportWriteError(e.what());
  }
}

std::vector<std::filesystem::path> write_report_files(const Report& report, const std::filesystem::path& directory,
                                                      const HtmlOptions& html_options) {
  ensure_directory(directory);
  std::vector<std::filesystem::path> written;
  const auto write = [&](const std::filesystem::path& path, const std::string& bytes) {
    write_file_atomically(path, bytes);
    written.push_back(path);
  };
  // The machine-readable files first: a CI step that waits for the JSON finds it complete.
  write(directory / json_file_name, write_json(report));
  write(directory / junit_file_name, write_junit(report));
  write(directory / markdown_file_name, write_markdown(report));
  if (!report.figures.empty()) {
    const std::filesystem::path figures = directory / figures_directory_name;
    ensure_directory(figures);
    for (const Figure& figure : report.figures) {
      // The id becomes a file name: nothing that could leave the directory.
      if (figure.id.empty() ||
          figure.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos) {
        throw ReportWriteError("figure id '" + figure.id + "' is not a file name of a-z, 0-9 and '-'");
      }
      write(figures / (figure.id + ".svg"), standalone_svg(figure));
    }
  }
  write(directory / html_file_name, write_html(report, html_options));
  return written;
}

}  // namespace pecheck::reports
