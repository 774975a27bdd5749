#include <string>

#include "command_call.hpp"
#include "lines_command_subject.hpp"
#include "pecheck/external_subjects.hpp"
#include "pecheck/one_line_text.hpp"
#include "run_process.hpp"

namespace pecheck {

namespace {

// The one-shot protocol: one shell per table request.
class CommandSubject final : public CommandSubjectBase<CommandSubject> {
 public:
  using CommandSubjectBase::CommandSubjectBase;

 private:
  friend class CommandSubjectBase<CommandSubject>;

  // Runs the command once for `request` and hands what it wrote to `read`
  // while the call's directory exists.
  template <class Read>
  CallResult<Read> call(const TableRequest& request, FormatId format, const Read& read) const {
    const CallDirectory directory;
    const std::filesystem::path output = directory.path() / options_.output_name;
    const std::string command = command_for(options_.command_template, request, format, output.string());
    const std::string shown = command_for(options_.command_template, request, format, options_.output_name);
    if (options_.call_log) options_.call_log->push_back(shown);
    const ProcessResult run = run_shell(command, options_.timeout, 2000, options_.limits.memory_bytes);
    const std::string call_text = "the command `" + escape_control_characters(shown) + "`";
    if (run.timed_out) {
      throw CommandTimedOutError(call_text + " did not finish within " + std::to_string(options_.timeout.count()) +
                               " ms" + what_it_printed(run.output), options_.timeout);
    }
    if (run.signal != 0 || run.exit_status != 0) {
      throw_call_failed(options_, call_text + " " + describe_exit(run) + what_it_printed(run.output), run.output);
    }
    if (!std::filesystem::exists(output)) {
      throw_call_failed(options_,
                        call_text + " wrote no file at {output} (" + options_.output_name + ")" + what_it_printed(run.output),
                        run.output);
    }
    return read(call_text, output);
  }
};

// The length of a placeholder at `at` in `text`, or 0.
std::size_t placeholder_at(const std::string& text, std::size_t at, const std::string& name) {
  return text.compare(at, name.size(), name) == 0 ? name.size() : 0;
}

}  // namespace

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string command_for(const std::string& command_template, const TableRequest& request, FormatId format,
                        const std::string& output) {
  return substitute_placeholders(command_template, {
                                                       {"{rows}", std::to_string(request.rows)},
                                                       {"{dim}", std::to_string(request.dim)},
                                                       {"{offset}", std::to_string(request.row_offset)},
                                                       {"{dtype}", std::string(format_of(format).name)},
                                                       {"{output}", output},
                                                   });
}

std::string substitute_placeholders(const std::string& command_template,
                                    const std::vector<std::pair<std::string, std::string>>& substitutions) {
  std::string command;
  std::size_t k = 0;
  while (k < command_template.size()) {
    bool replaced = false;
    for (const auto& [name, value] : substitutions) {
      // '{output}' or "{output}": the user quoted what pecheck quotes already;
      // quoting twice would hand the command a path with quotes in it.
      const char c = command_template[k];
      if ((c == '\'' || c == '"') && placeholder_at(command_template, k + 1, name) != 0 &&
          k + 1 + name.size() < command_template.size() && command_template[k + 1 + name.size()] == c) {
        command += shell_quote(value);
        k += name.size() + 2;
        replaced = true;
        break;
      }
      if (placeholder_at(command_template, k, name) != 0) {
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
  if (options.protocol == CommandProtocol::lines) return make_lines_command_subject(std::move(options));
  return std::make_unique<CommandSubject>(std::move(options));
}

void check_temporary_directory() { const CallDirectory probe; }

}  // namespace pecheck
