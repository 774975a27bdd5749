// What the one-shot and the persistent command subjects share: a temporary
// directory per call, the excerpt of what a command printed, and reading back
// the table it wrote with every check on its shape and format.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pecheck/external_subjects.hpp"
#include "pecheck/format.hpp"
#include "pecheck/subject.hpp"
#include "pecheck/table.hpp"

namespace pecheck {

// A directory of its own for one call (under TMPDIR, or /tmp), removed with
// whatever the command left. Throws TemporaryDirectoryError naming TMPDIR.
class CallDirectory {
 public:
  CallDirectory();
  const std::filesystem::path& path() const { return directory_.path(); }

 private:
  TemporaryDirectory directory_;
};

// "; it printed nothing" or "; its output ends:\n" and the text, control
// characters but newlines and tabs escaped, so the caller's first line stays
// one line and a terminal is not driven by the command's escape sequences.
std::string what_it_printed(const std::string& output);

// command_template with each {name} of `substitutions` replaced by its value,
// shell-quoted (a placeholder inside its own quotes, '{x}' or "{x}", loses
// them); unknown {names} are left as they are. command_for's substitution,
// for the rotated-output command's placeholders too.
std::string substitute_placeholders(const std::string& command_template,
                                    const std::vector<std::pair<std::string, std::string>>& substitutions);

// What both command subjects offer: the one convention the command implements
// (additive, or rotary when options.rotary_convention is set), in the formats
// it was given.
SubjectCapabilities command_capabilities(const CommandSubjectOptions& options);
// A SubjectError, before any call, for a request past the options' limits
// (CallLimits): the command is never asked beyond what the model supports.
void require_within_limits(const CommandSubjectOptions& options, const TableRequest& request,
                           std::int64_t last_position);
// Counts the call and, with limits.progress, prints one line for it on stderr.
void announce_call(const CommandSubjectOptions& options, const TableRequest& request, FormatId format,
                   std::int64_t first_position, std::int64_t last_position);
// A CommandOutOfMemoryError when the command ran under a memory limit and
// `printed` says an allocation failed; a CommandFailedError otherwise.
[[noreturn]] void throw_call_failed(const CommandSubjectOptions& options, const std::string& message,
                                    const std::string& printed);
// A SubjectError unless `convention` is the additive one the command implements.
void require_command_convention(const CommandSubjectOptions& options, const Convention& convention);
// A SubjectError unless the command writes rotary caches of `convention`;
// ConventionError for an impossible request.
void require_rotary_command(const CommandSubjectOptions& options, const RotaryConvention& convention,
                            const RotaryCacheRequest& request);

// What a subject's `read(call, output)` returns for the file a call wrote.
template <class Read>
using CallResult = std::invoke_result_t<const Read&, const std::string&, const std::filesystem::path&>;

// The placeholders of a rotary request: {rows}, {dim} the rotary width d,
// {offset} the first position.
TableRequest rotary_table_request(const CommandSubjectOptions& options, const RotaryCacheRequest& request);

// The table `call` wrote at `output`, checked against the request: a file
// pecheck cannot read, a wrong shape, or values not of `format` (a bfloat16
// table may arrive as float32 holding bfloat16 values) is a SubjectError.
Table read_requested_table(const std::string& call, const std::filesystem::path& output, const TableRequest& request,
                           FormatId format);

// The rotary cache `call` wrote at `output` (rotary_cache_file.hpp), checked
// as read_requested_table checks a table: request.rows rows of
// rotary_columns(convention) columns, values of request.format.
RotaryCache read_requested_cache(const std::string& call, const std::filesystem::path& output,
                                 const RotaryConvention& convention, const RotaryCacheRequest& request);

// What both command subjects answer alike: the capabilities the options
// name, and a table or a rotary cache as one call of the command, read back
// while the call's directory exists. Derived supplies the call itself,
// `call(request, format, read)`: one shell per request, or one line to a
// process that stays up.
template <class Derived>
class CommandSubjectBase : public Subject {
 public:
  explicit CommandSubjectBase(CommandSubjectOptions options) : options_(std::move(options)) {}

  std::string name() const override { return "command"; }
  SubjectCapabilities capabilities() const override { return command_capabilities(options_); }

  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    require_command_convention(options_, convention);
    const std::int64_t first = position_of_row(convention, request.row_offset);
    const std::int64_t last = position_of_row(convention, request.row_offset + request.rows - 1);
    require_within_limits(options_, request, std::max(first, last));
    announce_call(options_, request, format, first, last);
    return unless_timed_out([&] {
      return derived().call(request, format, [&](const std::string& call_text, const std::filesystem::path& output) {
        return read_requested_table(call_text, output, request, format);
      });
    });
  }

  // The same call with the rotary request's placeholders; the file holds both tables.
  RotaryCache rotary_cache(const RotaryConvention& convention, const RotaryCacheRequest& request) const override {
    require_rotary_command(options_, convention, request);
    const TableRequest table_request = rotary_table_request(options_, request);
    const std::int64_t last = request.first_position + request.rows - 1;
    require_within_limits(options_, table_request, last);
    announce_call(options_, table_request, request.format, request.first_position, last);
    return unless_timed_out([&] {
      return derived().call(rotary_table_request(options_, request), request.format,
                            [&](const std::string& call_text, const std::filesystem::path& output) {
                              return read_requested_cache(call_text, output, convention, request);
                            });
    });
  }

 protected:
  CommandSubjectOptions options_;

 private:
  const Derived& derived() const { return static_cast<const Derived&>(*this); }

  // `call()`, unless a call has timed out before (CommandTimedOutError): then
  // the command is not called again (see external_subjects.hpp).
  template <class Call>
  auto unless_timed_out(const Call& call) const {
    CommandTimeouts& timeouts = *options_.timeouts;
    {
      const std::lock_guard<std::mutex> lock(timeouts.mutex);
      if (!timeouts.first.empty()) {
        throw CommandFailedError("not called: an earlier call " + timeouts.first +
                                 ", and after one timeout the command is not called again, since each call "
                                 "would wait the full --timeout");
      }
    }
    try {
      return call();
    } catch (const CommandTimedOutError& e) {
      const std::lock_guard<std::mutex> lock(timeouts.mutex);
      if (timeouts.first.empty()) timeouts.first = "did not finish within " + std::to_string(e.timeout().count()) + " ms";
      throw;
    }
  }
};

}  // namespace pecheck
