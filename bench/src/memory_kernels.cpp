#include "pecheck/parallel_for.hpp"
#include "memory_kernels.hpp"

#include <algorithm>
#include <thread>
#include <vector>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace pecheck::bench {

// Each kernel streams whole vectors and finishes the tail with plain stores;
// the fence makes the streamed stores visible before the thread reports done.

void stream_fill(float* dest, std::size_t n, float value) {
  std::size_t i = 0;
#if defined(__AVX512F__)
  const __m512 v = _mm512_set1_ps(value);
  for (; i + 16 <= n; i += 16) _mm512_stream_ps(dest + i, v);
#elif defined(__AVX__)
  const __m256 v = _mm256_set1_ps(value);
  for (; i + 8 <= n; i += 8) _mm256_stream_ps(dest + i, v);
#elif defined(__SSE2__)
  const __m128 v = _mm_set1_ps(value);
  for (; i + 4 <= n; i += 4) _mm_stream_ps(dest + i, v);
#endif
  for (; i < n; ++i) dest[i] = value;
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

void stream_triad(float* c, const float* a, const float* b, float s, std::size_t n) {
  std::size_t i = 0;
#if defined(__AVX512F__)
  const __m512 vs = _mm512_set1_ps(s);
  for (; i + 16 <= n; i += 16) {
    _mm512_stream_ps(c + i, _mm512_add_ps(_mm512_loadu_ps(a + i), _mm512_mul_ps(vs, _mm512_loadu_ps(b + i))));
  }
#elif defined(__AVX__)
  const __m256 vs = _mm256_set1_ps(s);
  for (; i + 8 <= n; i += 8) {
    _mm256_stream_ps(c + i, _mm256_add_ps(_mm256_loadu_ps(a + i), _mm256_mul_ps(vs, _mm256_loadu_ps(b + i))));
  }
#elif defined(__SSE2__)
  const __m128 vs = _mm_set1_ps(s);
  for (; i + 4 <= n; i += 4) _mm_stream_ps(c + i, _mm_add_ps(_mm_loadu_ps(a + i), _mm_mul_ps(vs, _mm_loadu_ps(b + i))));
#endif
  for (; i < n; ++i) c[i] = a[i] + s * b[i];
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

void for_each_block(std::size_t n, int threads, std::size_t alignment,
                    const std::function<void(std::size_t first, std::size_t count)>& work) {
  const auto blocks = static_cast<std::size_t>(std::max(threads, 1));
  const auto start = [&](std::size_t b) { return b == blocks ? n : n * b / blocks / alignment * alignment; };
  parallel_for(static_cast<int>(blocks), [&](int w) {
    const auto b = static_cast<std::size_t>(w);
    work(start(b), start(b + 1) - start(b));
  });
}

}  // namespace pecheck::bench
