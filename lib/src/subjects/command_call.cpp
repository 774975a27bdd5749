#include "command_call.hpp"

#include <cmath>
#include <cstdlib>
#include <system_error>

#include "pecheck/external_subjects.hpp"
#include "pecheck/one_line_text.hpp"
#include "pecheck/table_file.hpp"

namespace pecheck {

namespace {

std::string temporary_root_named() {
  const char* tmpdir = std::getenv("TMPDIR");
  if (tmpdir == nullptr || *tmpdir == '\0') return "/tmp (TMPDIR is not set)";
  return "TMPDIR=" + escape_control_characters(tmpdir);
}

std::filesystem::path temporary_root() {
  std::error_code error;
  std::filesystem::path root = std::filesystem::temp_directory_path(error);
  if (error) {
    throw TemporaryDirectoryError("cannot use the temporary directory " + temporary_root_named() + ": " +
                                  error.message());
  }
  return root;
}

}  // namespace

CallDirectory::CallDirectory()
    : directory_(temporary_root(), "pecheck-exec-", "the temporary directory " + temporary_root_named()) {}

std::string what_it_printed(const std::string& output) {
  if (output.empty()) return "; it printed nothing";
  std::string text = output;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return "; its output ends:\n" + escape_control_characters(text, "\n\t");
}

Table read_requested_table(const std::string& call, const std::filesystem::path& output, const TableRequest& request,
                           FormatId format) {
  TableFile file;
  try {
    file = read_table_file(output);
  } catch (const TableFileError& e) {
    throw SubjectError(call + " wrote a file pecheck cannot read: " + e.what());
  }
  const TableView written = file.table.view();
  if (written.rows() != request.rows || written.cols() != request.dim) {
    throw SubjectError(call + " wrote a " + std::to_string(written.rows()) + " x " + std::to_string(written.cols()) +
                       " table; expected " + std::to_string(request.rows) + " x " + std::to_string(request.dim));
  }
  if (written.format() == format) return std::move(file.table);
  // A bfloat16 table arrives as float32 from NumPy; any wider storage is
  // accepted when every value is a value of the format asked for.
  const Format& wanted = format_of(format);
  if (const auto outside = first_entry_outside(written, format)) {
    const double v = written.at(outside->row, outside->col);
    throw SubjectError(call + " wrote " + std::string(format_of(written.format()).name) + " values for {dtype} " +
                       std::string(wanted.name) + ", and " + hex_float(v) + " is not a " + std::string(wanted.name) +
                       " value");
  }
  return convert_table(written, format);
}

SubjectCapabilities command_capabilities(const CommandSubjectOptions& options) {
  SubjectCapabilities capabilities;
  capabilities.any_convention = false;
  capabilities.fixed_convention = options.convention;
  capabilities.formats = options.formats;
  return capabilities;
}

void require_command_convention(const CommandSubjectOptions& options, const Convention& convention) {
  if (convention.name != options.convention.name) {
    throw SubjectError("the command implements convention '" + options.convention.name + "', not '" + convention.name +
                       "'");
  }
}

}  // namespace pecheck
