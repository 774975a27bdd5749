// Subjects that are not pecheck's code: a table file, and an external command
// that writes tables on request (any language, any framework).
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/format.hpp"
#include "pecheck/subject.hpp"
#include "pecheck/table.hpp"

namespace pecheck {

// A table already read from a file, holding `convention`'s rows
// [row_offset, row_offset + rows) in its format: capabilities
// fixed_convention and fixed_request, the one format it holds.
std::unique_ptr<Subject> make_table_file_subject(std::string name, Table table, Convention convention,
                                                 std::int64_t row_offset);

// An external command as a subject. Each table request runs
//   /bin/sh -c COMMAND
// with {rows}, {dim}, {offset}, {dtype} and {output} replaced by the request
// (shell-quoted), in a fresh temporary directory per call that holds
// {output}; the file it writes there is read with read_table_file. A command
// that times out, is killed by a signal, exits non-zero, writes no file, or
// writes the wrong shape or values of another format is a SubjectError with
// its output (stdout and stderr, the last 2000 bytes), never a crash.
//
// A command that did not run to completion (killed by a signal, non-zero exit)
// or wrote no file is a CommandFailedError: a caller may stop when the very
// first call fails so, since the command is broken rather than inaccurate.
class CommandFailedError : public SubjectError {
 public:
  using SubjectError::SubjectError;
};
struct CommandSubjectOptions {
  std::string command_template;
  Convention convention;                                 // the one convention it implements
  std::vector<FormatId> formats = {FormatId::float32};   // what it can write
  std::chrono::milliseconds timeout{60'000};
  std::string output_name = "table.npy";                 // .npy or .safetensors
  // When set, every call appends its command line (with {output} shown as
  // output_name) here, so a caller can print the calls of one failing case.
  std::shared_ptr<std::vector<std::string>> call_log;
};
std::unique_ptr<Subject> make_command_subject(CommandSubjectOptions options);

// The command line for one request, each substitution shell-quoted.
// Unknown {names} are left as they are.
std::string command_for(const std::string& command_template, const TableRequest& request, FormatId format,
                        const std::string& output);

// 'text' for /bin/sh, with embedded single quotes escaped.
std::string shell_quote(const std::string& text);

}  // namespace pecheck
