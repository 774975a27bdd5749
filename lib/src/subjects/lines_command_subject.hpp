// The `lines` protocol of an external command (see external_subjects.hpp):
// started once, one request line and one reply line per table.
#pragma once

#include <memory>

#include "pecheck/external_subjects.hpp"

namespace pecheck {

std::unique_ptr<Subject> make_lines_command_subject(CommandSubjectOptions options);

// The request line for one table: "ROWS DIM OFFSET DTYPE OUTPUT".
std::string request_line(const TableRequest& request, FormatId format, const std::string& output);

}  // namespace pecheck
