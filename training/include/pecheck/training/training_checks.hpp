// The training family: checks whose statistics come from small transformers
// trained on synthetic tasks (experiment.hpp). Registered beside the other
// families where libtorch was found, and run only on request (`pecheck report
// --training`, `pecheck check training/...`), since they take minutes.
#pragma once

#include <string_view>
#include <vector>

#include "pecheck/properties/check.hpp"

namespace pecheck::training {

// In the report's order.
const std::vector<properties::Check>& training_checks();
const properties::Check* find_training_check(std::string_view id);

}  // namespace pecheck::training
