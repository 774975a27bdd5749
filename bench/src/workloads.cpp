#include "pecheck/bench/workloads.hpp"

#include <cstdlib>
#include <new>
#include <random>

#include "memory_kernels.hpp"
#include "pecheck/embedding.hpp"

namespace pecheck::bench {

namespace {

constexpr std::size_t line_bytes = 64;
constexpr std::size_t floats_per_line = line_bytes / sizeof(float);

}  // namespace

template <class T>
AlignedBuffer<T>::AlignedBuffer(std::size_t n) : size_(n) {
  const std::size_t bytes = (n * sizeof(T) + line_bytes - 1) / line_bytes * line_bytes;
  data_.reset(static_cast<T*>(std::aligned_alloc(line_bytes, bytes == 0 ? line_bytes : bytes)));
  if (!data_) throw std::bad_alloc();
  // Touch every page now, so no timed run pays for a page fault.
  for (std::size_t i = 0; i < n; ++i) data_.get()[i] = T{};
}

template <class T>
void AlignedBuffer<T>::Free::operator()(T* p) const {
  std::free(p);
}

template class AlignedBuffer<float>;
template class AlignedBuffer<std::uint16_t>;

StreamingStore::StreamingStore(std::size_t bytes) : own_(bytes / sizeof(float)), target_(own_.span()) {}

StreamingStore::StreamingStore(std::span<float> target) : own_(0), target_(target) {}

void StreamingStore::run(int threads) {
  float* data = target_.data();
  for_each_block(target_.size(), threads, floats_per_line,
                 [data](std::size_t first, std::size_t count) { stream_fill(data + first, count, 1.0f); });
}

Triad::Triad(std::size_t elements) : a_(elements), b_(elements), own_(elements), c_(own_.span()) {
  for (std::size_t i = 0; i < elements; ++i) {
    a_.data()[i] = 1.0f;
    b_.data()[i] = 2.0f;
  }
}

Triad::Triad(std::span<float> c) : a_(c.size()), b_(c.size()), own_(0), c_(c) {
  for (std::size_t i = 0; i < c.size(); ++i) {
    a_.data()[i] = 1.0f;
    b_.data()[i] = 2.0f;
  }
}

void Triad::run(int threads) {
  float* c = c_.data();
  const float* a = a_.data();
  const float* b = b_.data();
  for_each_block(c_.size(), threads, floats_per_line, [=](std::size_t first, std::size_t count) {
    stream_triad(c + first, a + first, b + first, 3.0f, count);
  });
}

EncodingTable::EncodingTable(const Convention& convention, const TableRequest& request, FormatId format)
    : convention_(convention),
      request_(request),
      format_(format),
      float32_(format == FormatId::float32 ? static_cast<std::size_t>(request.rows * request.dim) : 0),
      bits16_(format == FormatId::float32 ? 0 : static_cast<std::size_t>(request.rows * request.dim)) {
  check_request(convention, request);
  if (format == FormatId::float64) throw std::invalid_argument("encoding table benchmark: float64 is not measured");
}

void EncodingTable::run(int threads) {
  switch (format_) {
    case FormatId::float32:
      fast_encoding(convention_, request_, float32_.span(), threads);
      break;
    case FormatId::float16:
      fast_encoding_float16(convention_, request_, bits16_.span(), threads);
      break;
    case FormatId::bfloat16:
      fast_encoding_bfloat16(convention_, request_, bits16_.span(), threads);
      break;
    case FormatId::float64:
      break;
  }
}

EmbedForward::EmbedForward(const Convention& convention, const ForwardShape& shape, std::uint64_t seed)
    : shape_(shape),
      scale_(static_cast<float>(correctly_rounded_sqrt(shape.dim, FormatId::float32))),
      vocabulary_(static_cast<std::size_t>(shape.vocabulary * shape.dim)),
      encoding_(static_cast<std::size_t>(shape.sequence * shape.dim)),
      out_(static_cast<std::size_t>(shape.batch * shape.sequence * shape.dim)) {
  // A cheap generator is enough for the values (their speed is all that
  // matters here) and fills a 125 MiB vocabulary in a fraction of a second.
  std::mt19937_64 rng(seed);
  std::uint64_t state = rng();
  for (float& value : vocabulary_.span()) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;  // Knuth's MMIX LCG
    value = static_cast<float>(static_cast<double>(state >> 40) * 0x1p-24 * 0.2 - 0.1);
  }
  fast_encoding(convention, TableRequest{shape.sequence, shape.dim, 0}, encoding_.span());
  std::uniform_int_distribution<std::int64_t> token(0, shape.vocabulary - 1);
  for (std::int64_t b = 0; b < shape.batch; ++b) {
    for (std::int64_t s = 0; s < shape.sequence; ++s) {
      ids_.push_back(token(rng));
      positions_.push_back(s);
    }
  }
}

void EmbedForward::run(int threads) {
  add_embeddings_float32(vocabulary_.span(), encoding_.span(), shape_.dim, ids_, positions_, scale_, out_.span(),
                         threads);
}

}  // namespace pecheck::bench
