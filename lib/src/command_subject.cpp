#include <stdlib.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "pecheck/external_subjects.hpp"
#include "pecheck/table_file.hpp"
#include "run_process.hpp"

namespace pecheck {

namespace {

// A directory of its own for one call, removed with whatever the command left.
class CallDirectory {
 public:
  CallDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "pecheck-exec-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw SubjectError("cannot create a temporary directory " + pattern + ": " + std::strerror(errno));
    }
    path_ = pattern;
  }
  ~CallDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  CallDirectory(const CallDirectory&) = delete;
  CallDirectory& operator=(const CallDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::string what_it_printed(const ProcessResult& run) {
  if (run.output.empty()) return "; it printed nothing";
  std::string text = run.output;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return "; its output ends:\n" + text;
}

class CommandSubject final : public Subject {
 public:
  explicit CommandSubject(CommandSubjectOptions options) : options_(std::move(options)) {}

  std::string name() const override { return "command"; }

  SubjectCapabilities capabilities() const override {
    SubjectCapabilities capabilities;
    capabilities.any_convention = false;
    capabilities.fixed_convention = options_.convention;
    capabilities.formats = options_.formats;
    return capabilities;
  }

  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    if (convention.name != options_.convention.name) {
      throw SubjectError("the command implements convention '" + options_.convention.name + "', not '" +
                         convention.name + "'");
    }
    const CallDirectory directory;
    const std::filesystem::path output = directory.path() / options_.output_name;
    const std::string command = command_for(options_.command_template, request, format, output.string());
    const std::string shown = command_for(options_.command_template, request, format, options_.output_name);
    if (options_.call_log) options_.call_log->push_back(shown);
    const ProcessResult run = run_shell(command, options_.timeout);
    const std::string call = "the command `" + shown + "`";
    if (run.timed_out) {
      throw SubjectError(call + " did not finish within " + std::to_string(options_.timeout.count()) + " ms" +
                         what_it_printed(run));
    }
    // The shell reports a command a signal ended as status 128 + the signal.
    const int signal = run.signal != 0 ? run.signal : (run.exit_status > 128 && run.exit_status < 160 ? run.exit_status - 128 : 0);
    if (signal != 0) {
      throw CommandFailedError(call + " was killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")" +
                         what_it_printed(run));
    }
    if (run.exit_status != 0) {
      throw CommandFailedError(call + " exited with status " + std::to_string(run.exit_status) + what_it_printed(run));
    }
    if (!std::filesystem::exists(output)) {
      throw CommandFailedError(call + " wrote no file at {output} (" + options_.output_name + ")" +
                               what_it_printed(run));
    }
    TableFile file;
    try {
      file = read_table_file(output);
    } catch (const TableFileError& e) {
      throw SubjectError(call + " wrote a file pecheck cannot read: " + e.what());
    }
    Table& table = file.table;
    if (table.rows != request.rows || table.cols != request.dim) {
      throw SubjectError(call + " wrote a " + std::to_string(table.rows) + " x " + std::to_string(table.cols) +
                         " table; expected " + std::to_string(request.rows) + " x " + std::to_string(request.dim));
    }
    if (table.format != format) {
      // A bfloat16 table arrives as float32 from NumPy; any wider storage is
      // accepted when every value is a value of the format asked for.
      const Format& wanted = format_of(format);
      if (const auto outside = first_entry_outside(table, format)) {
        const double v = table.at(outside->row, outside->col);
        throw SubjectError(call + " wrote " + std::string(format_of(table.format).name) + " values for {dtype} " +
                           std::string(wanted.name) + ", and " + hex_float(v) + " is not a " +
                           std::string(wanted.name) + " value");
      }
      table = convert_table(table, format);
    }
    return table;
  }

 private:
  CommandSubjectOptions options_;
};

}  // namespace

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string command_for(const std::string& command_template, const TableRequest& request, FormatId format,
                        const std::string& output) {
  const std::pair<std::string, std::string> substitutions[] = {
      {"{rows}", std::to_string(request.rows)},
      {"{dim}", std::to_string(request.dim)},
      {"{offset}", std::to_string(request.row_offset)},
      {"{dtype}", std::string(format_of(format).name)},
      {"{output}", output},
  };
  std::string command;
  std::size_t k = 0;
  while (k < command_template.size()) {
    bool replaced = false;
    for (const auto& [name, value] : substitutions) {
      if (command_template.compare(k, name.size(), name) == 0) {
        command += shell_quote(value);
        k += name.size();
        replaced = true;
        break;
      }
    }
    if (!replaced) command += command_template[k++];
  }
  return command;
}

std::unique_ptr<Subject> make_command_subject(CommandSubjectOptions options) {
  return std::make_unique<CommandSubject>(std::move(options));
}

}  // namespace pecheck
