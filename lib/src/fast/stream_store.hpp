// Writing a large output without reading it first. An ordinary store to a
// line that is not in cache reads the line from memory before overwriting it,
// so filling a table bigger than the caches moves every byte twice; a
// non-temporal (streaming) store writes whole lines straight to memory. The
// fast path builds each row in a small buffer that stays in L1 and streams
// the finished row out. The bytes written are the same either way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pecheck {

// A row buffer for stream_copy, aligned to a cache line: unaligned, every
// vector load and store to it would straddle two lines.
template <class T>
class LineAlignedBuffer {
 public:
  explicit LineAlignedBuffer(std::size_t n) : storage_(n + line_bytes / sizeof(T)) {
    const auto address = reinterpret_cast<std::uintptr_t>(storage_.data());
    const std::size_t skip = (line_bytes - address % line_bytes) % line_bytes;
    data_ = storage_.data() + skip / sizeof(T);
  }
  T* data() { return data_; }

 private:
  static constexpr std::size_t line_bytes = 64;
  std::vector<T> storage_;
  T* data_ = nullptr;
};

// Whether an output of this many bytes is better streamed: when it is too big
// to stay in the caches for whoever reads it next.
bool worth_streaming(std::size_t output_bytes);

// Copies `bytes` from src to dest (not overlapping), with streaming stores
// where the build's instruction set has them, plain ones at the unaligned
// edges and on other machines.
void stream_copy(void* dest, const void* src, std::size_t bytes);

// Makes the streamed stores of this thread visible before anything it stores
// afterwards; call once at the end of a block of stream_copy calls.
void stream_fence();

}  // namespace pecheck
