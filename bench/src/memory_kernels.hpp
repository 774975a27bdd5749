// The memory references of the benchmarks: a streaming fill and a streaming
// triad, and the split of a range across threads they and the workloads use.
#pragma once

#include <cstddef>
#include <functional>

namespace pecheck::bench {

// dest[i] = value for i < n, with streaming stores where the CPU has them
// (dest 64-byte aligned).
void stream_fill(float* dest, std::size_t n, float value);

// c[i] = a[i] + s * b[i] for i < n, streaming stores to c (c 64-byte aligned).
void stream_triad(float* c, const float* a, const float* b, float s, std::size_t n);

// Runs work(first, count) on `threads` contiguous blocks of [0, n), each
// starting at a multiple of `alignment` elements, the last block on the
// calling thread.
void for_each_block(std::size_t n, int threads, std::size_t alignment,
                    const std::function<void(std::size_t first, std::size_t count)>& work);

}  // namespace pecheck::bench
