// Every check pecheck knows, built once from the families' check definitions
// (check_definition.hpp) by explicit calls (no static initialisers that a
// static library could drop).
#pragma once

#include <string_view>
#include <vector>

#include "pecheck/properties/check.hpp"

namespace pecheck::properties {

using Registry = std::vector<Check>;

// In the report's order: the families in turn, each in its own order.
const Registry& all_checks();
const Check* find_check(std::string_view id);

// Runs one check, turning any exception from the subject into a failed
// Outcome with the exception's message (a subject never crashes pecheck).
Outcome run_check(const Check& check, const Subject& subject, const RunConfig& config);

}  // namespace pecheck::properties
