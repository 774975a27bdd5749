// The training family as the command line sees it. Its checks run in
// pecheck-training, built beside pecheck where libtorch was found: loading
// libtorch takes seconds, which pecheck's other commands must not pay.
// Absent, the family is left out with a note saying why.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/properties/check.hpp"
#include "pecheck/properties/outcome.hpp"

namespace pecheck::reports {

struct TrainingRequest {
  std::uint64_t seed = 0;
  bool quick = false;
  std::string fault;  // a fault matrix name, or empty for the fast subject
};

// The family's checks, run once by pecheck-training (progress on stderr);
// each Check's body returns the outcome that run produced. Empty, with
// `absent` set to why, when pecheck-training is not beside pecheck. Throws
// std::runtime_error when it ran and failed.
std::vector<properties::Check> run_training_family(const TrainingRequest& request, std::string& absent);

// Why the family is absent.
std::string training_absent_note();

}  // namespace pecheck::reports
