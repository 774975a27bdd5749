// What a sweep checks, and how it is split into shards.
//
// A sweep compares a subject with the correctly rounded reference at every
// entry of every table row in a range, for every width in a range. The work
// is split by rows only: shard k of n takes one contiguous block of rows and
// every width at those rows, so shards cost the same to within one row.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/format.hpp"

namespace pecheck::sweep {

// A bad flag value or an inconsistent work description; the message names
// the flag or field and what was expected.
class SweepUsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The whole numbers first, first + 1, ..., last (both included; empty when last < first).
struct InclusiveRange {
  std::int64_t first = 0;
  std::int64_t last = -1;

  std::int64_t count() const { return last >= first ? last - first + 1 : 0; }
  bool operator==(const InclusiveRange&) const = default;
};

// The widths first, first + step, ... up to last.
struct WidthRange {
  std::int64_t first = 0;
  std::int64_t last = 0;
  std::int64_t step = 1;

  std::vector<std::int64_t> widths() const;
  bool operator==(const WidthRange&) const = default;
};

// Everything that decides a sweep's result. Two partial results merge only
// when their work descriptions are equal in every field.
struct SweepWork {
  std::string convention;     // a preset name
  WidthRange dims;
  FormatId format = FormatId::float32;
  InclusiveRange positions;   // table rows, as `pecheck table --offset` counts them
  std::string subject;        // "fast" or "reference"
  double budget_ulp = 0.0;    // the subject's ULP budget for the format (accuracy/budgets.hpp)
  std::string version;        // the pecheck version that ran it

  bool operator==(const SweepWork&) const = default;
};

// Shard `index` of `count`, index from 0: SLURM_ARRAY_TASK_ID of an array
// 0..count-1, JOB_COMPLETION_INDEX of a Kubernetes Indexed Job.
struct Shard {
  std::int64_t index = 0;
  std::int64_t count = 1;

  bool operator==(const Shard&) const = default;
};

// The rows of shard k of n over rows [first, last], m = last - first + 1 of them:
//   [first + floor(k m / n), first + floor((k + 1) m / n) - 1].
// Consecutive shards meet without a gap or an overlap, shard 0 starts at
// first, shard n - 1 ends at last, and sizes differ by at most one row.
// Requires 0 <= k < n <= m (SweepUsageError otherwise).
InclusiveRange shard_positions(const InclusiveRange& positions, const Shard& shard);

// "K/N" with 0 <= K < N.
Shard parse_shard(std::string_view text);
// "FIRST:LAST" with 0 <= FIRST <= LAST, both included.
InclusiveRange parse_positions(std::string_view text);
// "D", or "FIRST:LAST" or "FIRST:LAST:STEP" (widths from FIRST by STEP up to LAST).
WidthRange parse_widths(std::string_view text);

// The work for a subject ("fast" or "reference"), with the subject's budget
// and this build's version. Throws SweepUsageError (or ConventionError) when
// the convention rejects a width or a row is at or beyond 2^24.
SweepWork make_work(const std::string& convention, const WidthRange& dims, FormatId format,
                    const InclusiveRange& positions, const std::string& subject);

// Entries in the rows given, every width of the work: rows x (sum of widths).
std::int64_t entry_count(const SweepWork& work, const InclusiveRange& rows);

// "K/N" and "FIRST:LAST" as the flags take them.
std::string shard_text(const Shard& shard);
std::string range_text(const InclusiveRange& range);
std::string widths_text(const WidthRange& dims);

}  // namespace pecheck::sweep
