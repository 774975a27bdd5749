// A sweep's result, partial (one shard) or whole, and its JSON file.
//
// The file is the exchange format between shards and `pecheck merge`: it
// holds the exact work description, the shard and its rows, and the
// statistics in mergeable form (integer counts, the exact sum of squared ULP
// errors as a hexadecimal integer, each worst entry with its bit pattern and
// exact value), plus what follows from them for people (verdict, max and RMS
// ULP, max abs error). The bytes are a function of the result alone, so a
// merged result and an unsharded run of the same work are byte for byte equal.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "pecheck/sweep/statistics.hpp"
#include "pecheck/sweep/work.hpp"

namespace pecheck::sweep {

struct SweepResult {
  SweepWork work;
  Shard shard;
  InclusiveRange rows;  // shard_positions(work.positions, shard)
  SweepStatistics statistics;

  bool operator==(const SweepResult&) const = default;
};

// A result file that cannot be read: the message names the file and the field.
class SweepFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The schema version written in "pecheck_sweep"; a reader refuses others.
inline constexpr int sweep_schema_version = 1;

// The largest part file `pecheck merge` reads: a part is about 2 KB (its
// fields are fixed; only the strings it carries vary), so 1 MiB is five
// hundred times that, and a file past it is refused from its size alone.
inline constexpr std::uint64_t max_result_file_bytes = std::uint64_t{1} << 20;

std::string result_json(const SweepResult& result);
// `source` names the file in error messages.
SweepResult parse_result_json(std::string_view text, const std::string& source);

// "held: 524288 entries, max 0.5 ULP (budget 1), RMS 0.289 ULP, ..." in one line.
std::string result_summary(const SweepResult& result);

}  // namespace pecheck::sweep
