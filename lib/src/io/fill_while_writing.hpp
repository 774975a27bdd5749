// Producing a file a block at a time with the kernel and write() overlapped.
//
// Filling a block (the kernel) and copying it into the page cache (write())
// take comparable time, and neither needs the other's core: with two buffers
// the next block is filled while the last one is written, so a command takes
// about the longer of the two, not their sum.
#pragma once

#include <cstdint>
#include <functional>

#include "pecheck/table.hpp"

namespace pecheck::detail {

// Calls fill(k, buffer) and then write(k, buffer) for every block k in
// [0, blocks), in order of k on each side, fill on the calling thread and
// write on a thread of its own, with buffer alternating between two tables
// (fill shapes it; it starts empty). write(k) starts only after fill(k) has
// returned, and fill(k + 2) only after write(k) has: a buffer is never
// touched by both at once. The first exception from either side stops both
// and is rethrown here once the writer has finished. When the system will not
// start the writer's thread, the blocks are filled and written in turn on the
// calling thread instead.
void fill_while_writing(std::int64_t blocks, const std::function<void(std::int64_t block, Table& buffer)>& fill,
                        const std::function<void(std::int64_t block, const Table& buffer)>& write);

}  // namespace pecheck::detail
