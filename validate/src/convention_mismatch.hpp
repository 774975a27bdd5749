// Faults 3, 4 and 5 of CONVENTIONS.md against a checkpoint: the convention or
// row offset the user gave (--convention, --offset) is not the one the table
// holds. The table is compared with what it should match, as asked; this says
// what it is instead, in the CLI's terms, so the user can tell a wrong table
// from a wrong flag.
#pragma once

#include <optional>
#include <string>

#include "pecheck/format.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/detection.hpp"
#include "pecheck/validate/validation.hpp"
#include "table_readings.hpp"

namespace pecheck::validate {

struct ConventionMismatch {
  Hazard hazard;       // convention_mismatch: what the table is, what differs, the flags to give
  std::string reason;  // one line for the verdict
  Detection found;     // detection with nothing given
};

// Compares the reading with nothing given (but options.value_format) with
// the given one on rows spread over the table, every zero row included:
// a mismatch when the detected convention and offset differ from the given
// ones in some field (layout, frequency rule, row offset, zero rows, odd-width
// policy) and fit the table clearly better. Empty when nothing was given, when the given reading fits
// as well, or when detection finds nothing better.
std::optional<ConventionMismatch> convention_mismatch(const Table& table, TableReadings& readings);

// Whether the given reading fits every entry so closely that no detected
// reading can fit clearly better: with every |table - exact| at most
// `max_abs_error` (a comparison of every entry, none a typed mismatch),
// convention_mismatch finds nothing, so a caller that has that comparison
// may skip it. `format` is the values' own (options.value_format or the table's).
bool mismatch_ruled_out(double max_abs_error, FormatId format);

}  // namespace pecheck::validate
