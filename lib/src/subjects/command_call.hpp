// What the one-shot and the persistent command subjects share: a temporary
// directory per call, the excerpt of what a command printed, and reading back
// the table it wrote with every check on its shape and format.
#pragma once

#include <filesystem>
#include <string>

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

// What both command subjects offer: the one convention the command implements,
// in the formats it was given.
SubjectCapabilities command_capabilities(const CommandSubjectOptions& options);
// A SubjectError unless `convention` is the one the command implements.
void require_command_convention(const CommandSubjectOptions& options, const Convention& convention);

// The table `call` wrote at `output`, checked against the request: a file
// pecheck cannot read, a wrong shape, or values not of `format` (a bfloat16
// table may arrive as float32 holding bfloat16 values) is a SubjectError.
Table read_requested_table(const std::string& call, const std::filesystem::path& output, const TableRequest& request,
                           FormatId format);

}  // namespace pecheck
