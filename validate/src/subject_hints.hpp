// What a table that fails its kind's detection looks like instead, for the
// natural mistakes (issue 29): an additive table saved transposed, a rotary
// cos or sin cache given alone as an additive table, an additive table given
// as a rotary cache. Each is a sentence that says what to run instead, or "".
#pragma once

#include <string>

#include "pecheck/table.hpp"

namespace pecheck::validate {

// For a table that is not an additive sinusoidal encoding.
std::string additive_table_hint(const Table& table);
// For a cos table that is not a rotary cache with its sin table.
std::string rotary_cache_hint(const Table& cos);

}  // namespace pecheck::validate
