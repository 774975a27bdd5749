// Splitting a table's rows across threads: contiguous blocks, one per thread.
// The fast path computes every row the same way whichever block it is in, so
// the result does not depend on the thread count (lib/tests asserts it).
#pragma once

#include <cstdint>
#include <functional>

namespace pecheck {

// The number of threads to use for `entries` values of work: `requested` if
// positive, otherwise one per hardware thread when the job is big enough to
// pay for starting them (a few tens of microseconds each), else one. Throws
// std::invalid_argument for a negative request.
int thread_count(int requested, std::int64_t entries);

// Runs work(first, count) on `threads` contiguous blocks covering [0, rows)
// (fewer if there are fewer rows), the last on the calling thread, and
// returns when all are done. An exception thrown in any block is rethrown here.
void for_each_row_block(std::int64_t rows, int threads,
                        const std::function<void(std::int64_t first, std::int64_t count)>& work);

}  // namespace pecheck
