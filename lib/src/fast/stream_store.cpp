#include "stream_store.hpp"

#include <atomic>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace pecheck {

namespace {

// Half of a typical last-level cache share: smaller outputs are likely to be
// read back from cache soon, larger ones are not.
constexpr std::size_t streaming_threshold = std::size_t{8} << 20;

#if defined(__AVX512F__)
constexpr std::size_t vector_bytes = 64;
inline void stream_vector(void* dest, const void* src) {
  _mm512_stream_si512(static_cast<__m512i*>(dest), _mm512_loadu_si512(src));
}
#elif defined(__AVX__)
constexpr std::size_t vector_bytes = 32;
inline void stream_vector(void* dest, const void* src) {
  _mm256_stream_si256(static_cast<__m256i*>(dest), _mm256_loadu_si256(static_cast<const __m256i*>(src)));
}
#elif defined(__SSE2__)
constexpr std::size_t vector_bytes = 16;
inline void stream_vector(void* dest, const void* src) {
  _mm_stream_si128(static_cast<__m128i*>(dest), _mm_loadu_si128(static_cast<const __m128i*>(src)));
}
#endif

}  // namespace

bool worth_streaming(std::size_t output_bytes) { return output_bytes >= streaming_threshold; }

void stream_copy(void* dest, const void* src, std::size_t bytes) {
  auto* out = static_cast<unsigned char*>(dest);
  const auto* in = static_cast<const unsigned char*>(src);
#if defined(__SSE2__)
  // Plain stores up to the first aligned vector, streaming ones for every
  // whole aligned vector, plain ones for the tail.
  const auto misalignment = reinterpret_cast<std::uintptr_t>(out) % vector_bytes;
  const std::size_t head = misalignment == 0 ? 0 : vector_bytes - misalignment;
  if (bytes < head + vector_bytes) {
    std::memcpy(out, in, bytes);
    return;
  }
  std::memcpy(out, in, head);
  std::size_t done = head;
  for (; done + vector_bytes <= bytes; done += vector_bytes) stream_vector(out + done, in + done);
  std::memcpy(out + done, in + done, bytes - done);
#else
  std::memcpy(out, in, bytes);
#endif
}

void stream_fence() {
#if defined(__SSE2__)
  _mm_sfence();
#else
  std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}

}  // namespace pecheck
