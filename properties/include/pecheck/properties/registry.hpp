// Every check pecheck knows, built once by explicit registration (no static
// initialisers that a static library could drop).
#pragma once

#include <string_view>
#include <vector>

#include "pecheck/properties/check.hpp"

namespace pecheck::properties {

using Registry = std::vector<Check>;

// Each family adds its checks; the order is the report's order.
void register_encoding_bounds(Registry& registry);
void register_scaling_variance(Registry& registry);
void register_add_vs_concat(Registry& registry);
void register_conformance(Registry& registry);
void register_rotary(Registry& registry);

const Registry& all_checks();
const Check* find_check(std::string_view id);

// Runs one check, turning any exception from the subject into a failed
// Outcome with the exception's message (a subject never crashes pecheck).
Outcome run_check(const Check& check, const Subject& subject, const RunConfig& config);

}  // namespace pecheck::properties
