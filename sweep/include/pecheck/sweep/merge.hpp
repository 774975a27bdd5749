// Merging partial results into the whole.
//
// The parts must describe the same work, and their rows must cover the
// work's rows exactly: no row in two parts, none in no part. The merged
// result is shard 0/1 over every row, with the statistics of all parts
// (merge_into), so it equals, byte for byte once written, what one unsharded
// run of the work writes.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "pecheck/sweep/result.hpp"

namespace pecheck::sweep {

// Parts that do not make up one work: the message names the file and field.
class SweepMergeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct NamedResult {
  std::string source;  // the file, for messages
  SweepResult result;
};

SweepResult merge_results(const std::vector<NamedResult>& parts);

}  // namespace pecheck::sweep
