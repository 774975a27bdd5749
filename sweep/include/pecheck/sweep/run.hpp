// Running a sweep: every entry of every width at the given rows, the subject
// against the reference.
#pragma once

#include <cstdint>
#include <functional>

#include "pecheck/sweep/statistics.hpp"
#include "pecheck/sweep/work.hpp"

namespace pecheck::sweep {

// Called after each block of rows with the entries compared so far and the
// total, for progress lines; it must not throw.
using SweepProgress = std::function<void(std::int64_t done, std::int64_t total)>;

// The statistics of the work's subject against the reference at `rows` (a
// shard's rows: shard_positions), every width of the work. `threads` as in
// reference::reference_table (0: hardware concurrency); the result does not
// depend on it, nor on how the rows are blocked.
SweepStatistics run_sweep(const SweepWork& work, const InclusiveRange& rows, int threads = 0,
                          const SweepProgress& progress = {});

}  // namespace pecheck::sweep
