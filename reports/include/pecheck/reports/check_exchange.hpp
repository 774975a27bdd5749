// Checks run in another process, handed over as JSON: the training family
// runs in its own executable (pecheck-training), since libtorch takes seconds
// to load and pecheck's other commands must not pay for it. What crosses is
// each check's definition (without its body) and its Outcome, statistics
// keyed as in-process ones, so reports and findings read them the same way.
#pragma once

#include <string>
#include <vector>

#include "pecheck/properties/check.hpp"
#include "pecheck/properties/outcome.hpp"

namespace pecheck::reports {

struct ExchangedCheck {
  properties::Check check;  // run is empty; role and catches as defined
  properties::Outcome outcome;
};

std::string write_exchanged_checks(const std::vector<ExchangedCheck>& checks);

// Throws std::runtime_error naming `source`, the field and what was expected.
std::vector<ExchangedCheck> read_exchanged_checks(const std::string& json, const std::string& source);

}  // namespace pecheck::reports
