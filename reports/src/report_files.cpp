#include "pecheck/reports/report_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "pecheck/reports/svg_plot.hpp"

namespace pecheck::reports {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, std::string_view what, int error) {
  throw ReportWriteError("cannot write " + path.string() + ": " + std::string(what) + " (" + std::strerror(error) +
                         ")");
}

// Owns the temporary file until it is renamed into place; removes it on any failure.
class TemporaryFile {
 public:
  explicit TemporaryFile(const std::filesystem::path& destination) : destination_(destination) {
    std::string pattern =
        (destination.parent_path() / ("." + destination.filename().string() + ".tmp-XXXXXX")).string();
    descriptor_ = ::mkstemp(pattern.data());
    if (descriptor_ < 0) fail(destination, "cannot create a temporary file beside it", errno);
    path_ = pattern;
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (descriptor_ >= 0) ::close(descriptor_);
    if (!path_.empty()) ::unlink(path_.c_str());
  }

  void write_all(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t written = ::write(descriptor_, bytes.data(), bytes.size());
      if (written < 0 && errno == EINTR) continue;
      if (written < 0) fail(destination_, "write failed", errno);
      bytes.remove_prefix(static_cast<std::size_t>(written));
    }
  }

  void commit() {
    // mkstemp creates the file 0600; a report is as readable as any file the user writes.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    if (::fchmod(descriptor_, 0666 & ~mask) != 0) fail(destination_, "cannot set permissions", errno);
    if (::fsync(descriptor_) != 0) fail(destination_, "cannot flush to disk", errno);
    if (::close(descriptor_) != 0) {
      descriptor_ = -1;
      fail(destination_, "cannot close", errno);
    }
    descriptor_ = -1;
    if (::rename(path_.c_str(), destination_.c_str()) != 0) fail(destination_, "cannot rename into place", errno);
    path_.clear();
  }

 private:
  std::filesystem::path destination_;
  std::string path_;
  int descriptor_ = -1;
};

}  // namespace

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
  TemporaryFile file(path);
  file.write_all(bytes);
  file.commit();
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
