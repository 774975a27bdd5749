// The training family: checks whose statistics come from small transformers
// trained on synthetic tasks (experiment.hpp). Registered beside the other
// families where libtorch was found, and run only on request (`pecheck report
// --training`, `pecheck check training/...`), since they take minutes.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "pecheck/properties/check.hpp"
#include "pecheck/training/experiment.hpp"

namespace pecheck::training {

// In the report's order.
const std::vector<properties::Check>& training_checks();
const properties::Check* find_training_check(std::string_view id);

// The plan the checks train under when not --quick: standard_plan(), unless
// set here. The fault matrix test narrows it to the cells its claims read
// (their runs are the same runs as in the full grid, seed for seed, up to
// the comparison step). Set before any check runs; not for concurrent use.
void use_plan(std::optional<Plan> plan);

}  // namespace pecheck::training
