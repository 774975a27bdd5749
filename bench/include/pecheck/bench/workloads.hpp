// The work `pecheck bench` and the Google Benchmark programs time. Each
// workload owns its buffers, allocated and written once when it is built, so
// a timed run measures the work and not page faults; run() may be called any
// number of times and does the same work each time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/format.hpp"
#include "pecheck/rotary_cache.hpp"

namespace pecheck::bench {

// 64-byte aligned storage for n values (a cache line, and what streaming stores need).
template <class T>
class AlignedBuffer {
 public:
  explicit AlignedBuffer(std::size_t n);
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  std::span<T> span() { return {data(), size_}; }
  std::span<const T> span() const { return {data(), size_}; }

 private:
  struct Free {
    void operator()(T* p) const;
  };
  std::unique_ptr<T, Free> data_;
  std::size_t size_ = 0;
};

// The machine's write bandwidth: a constant written over a buffer with
// streaming (non-temporal) stores where the CPU has them, split across
// threads like a table fill. Given a target, it writes there: `pecheck bench`
// points it at the float32 table's own buffer, so both write the same pages.
class StreamingStore {
 public:
  explicit StreamingStore(std::size_t bytes);
  explicit StreamingStore(std::span<float> target);
  void run(int threads);
  std::size_t bytes() const { return target_.size() * sizeof(float); }

 private:
  AlignedBuffer<float> own_;
  std::span<float> target_;
};

// The machine's triad bandwidth (STREAM's triad in float32): c = a + s * b,
// reading a and b and writing c with streaming stores. Given an output, it
// writes there (`pecheck bench` uses the forward pass's output buffer).
class Triad {
 public:
  explicit Triad(std::size_t elements);
  explicit Triad(std::span<float> c);
  void run(int threads);
  std::size_t bytes() const { return 3 * c_.size() * sizeof(float); }
  std::size_t elements() const { return c_.size(); }

 private:
  AlignedBuffer<float> a_;
  AlignedBuffer<float> b_;
  AlignedBuffer<float> own_;
  std::span<float> c_;
};

// A fast encoding table in float32, float16 or bfloat16 (fast_encoding.hpp).
class EncodingTable {
 public:
  EncodingTable(const Convention& convention, const TableRequest& request, FormatId format);
  void run(int threads);
  std::int64_t elements() const { return request_.rows * request_.dim; }
  const TableRequest& request() const { return request_; }
  // The float32 values of the last run (format float32 only), and the buffer
  // they are written to.
  std::span<const float> float32_values() const { return float32_.span(); }
  std::span<float> float32_buffer() { return float32_.span(); }

 private:
  Convention convention_;
  TableRequest request_;
  FormatId format_;
  AlignedBuffer<float> float32_;
  AlignedBuffer<std::uint16_t> bits16_;
};

// A fast rotary cos and sin cache pair, as `pecheck rope --impl fast` builds
// it (fast_rotary_cache_into, rotary_cache.hpp), written into the tables its
// first run allocated, as EncodingTable writes the buffer it reuses.
class RotaryCacheBuild {
 public:
  RotaryCacheBuild(const RotaryConvention& convention, const RotaryCacheRequest& request);
  void run();
  // Positions x columns: each entry holds one cos and one sin.
  std::int64_t entries() const;
  const RotaryConvention& convention() const { return convention_; }
  const RotaryCacheRequest& request() const { return request_; }
  // The cache of the last run (empty tables before the first).
  const RotaryCache& cache() const { return cache_; }

 private:
  RotaryConvention convention_;
  RotaryCacheRequest request_;
  RotaryCache cache_;
};

// The embedding forward pass in float32: batch x sequence token ids select
// rows of a vocabulary x dim table, times sqrt(dim), plus the encoding of
// each token's position, in one fused pass (embedding.hpp). The encoding is
// built once, as a model builds its buffer once, and is not timed.
struct ForwardShape {
  std::int64_t batch = 8;
  std::int64_t sequence = 1024;
  std::int64_t vocabulary = 32000;
  std::int64_t dim = 1024;
};

class EmbedForward {
 public:
  // The ids and the vocabulary's values come from `seed` (values uniform in
  // [-0.1, 0.1), the PyTorch tutorial's initialisation).
  EmbedForward(const Convention& convention, const ForwardShape& shape, std::uint64_t seed);
  void run(int threads);
  std::int64_t elements() const { return shape_.batch * shape_.sequence * shape_.dim; }
  const ForwardShape& shape() const { return shape_; }
  std::span<float> output_buffer() { return out_.span(); }

 private:
  ForwardShape shape_;
  float scale_ = 1.0f;
  AlignedBuffer<float> vocabulary_;
  AlignedBuffer<float> encoding_;
  std::vector<std::int64_t> ids_;
  std::vector<std::int64_t> positions_;
  AlignedBuffer<float> out_;
};

}  // namespace pecheck::bench
