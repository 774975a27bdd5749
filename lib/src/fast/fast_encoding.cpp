// The public entry points of the fast path: check the request, build the
// plan, fill the rows. The numerics live in sincos_turns.cpp (the kernel and
// its error bound), rotated_rows.cpp (the narrow formats' rows) and
// frequency_turns.cpp (the frequencies), reached through the selected
// instruction-set variant's table (fast_kernels.hpp).
#include "pecheck/fast_encoding.hpp"

#include <memory>
#include <string>

#include "encoding_plan.hpp"
#include "fast_kernels.hpp"
#include "pecheck/format.hpp"
#include "row_blocks.hpp"

namespace pecheck {

namespace {

int threads_for(const TableRequest& request, int threads) { return thread_count(threads, request.rows * request.dim); }

}  // namespace

FastEncoder::FastEncoder(const Convention& convention, std::int64_t dim)
    : convention_(convention), dim_(dim), plan_(std::make_unique<const EncodingPlan>(convention, dim)) {}
FastEncoder::~FastEncoder() = default;
FastEncoder::FastEncoder(FastEncoder&&) noexcept = default;
FastEncoder& FastEncoder::operator=(FastEncoder&&) noexcept = default;

namespace {

void check_width(std::int64_t dim, std::int64_t encoder_dim) {
  if (dim != encoder_dim) {
    throw ConventionError("FastEncoder: a request of width " + std::to_string(dim) + " from an encoder of width " +
                          std::to_string(encoder_dim));
  }
}

}  // namespace

void FastEncoder::encode(const TableRequest& request, std::span<double> out) const {
  check_width(request.dim, dim_);
  check_request(convention_, request);
  fast_kernels().fill_float64(*plan_, 0, request.rows, request.row_offset, out, 1);
}

void FastEncoder::fill(std::int64_t first_row, Table& out, int threads) const {
  check_width(out.cols, dim_);
  check_request(convention_, {out.rows, out.cols, first_row});
  // The kernel writes the format's type straight into the table's storage:
  // no double is held for a narrow format.
  const int workers = thread_count(threads, out.rows * out.cols);
  const FastKernels& kernels = fast_kernels();
  switch (out.format) {
    case FormatId::float64:
      kernels.fill_float64(*plan_, 0, out.rows, first_row, out.storage<double>(), workers);
      break;
    case FormatId::float32:
      kernels.fill_float32(*plan_, 0, out.rows, first_row, out.storage<float>(), workers);
      break;
    case FormatId::float16:
      kernels.fill_float16(*plan_, 0, out.rows, first_row, out.storage<std::uint16_t>(), workers);
      break;
    case FormatId::bfloat16:
      kernels.fill_bfloat16(*plan_, 0, out.rows, first_row, out.storage<std::uint16_t>(), workers);
      break;
  }
}

void fast_encoding(const Convention& convention, const TableRequest& request, std::span<double> out, int threads) {
  check_request(convention, request);
  fast_kernels().fill_float64(EncodingPlan(convention, request.dim), 0, request.rows, request.row_offset, out,
                              threads_for(request, threads));
}

void fast_encoding(const Convention& convention, const TableRequest& request, std::span<float> out, int threads) {
  check_request(convention, request);
  fast_kernels().fill_float32(EncodingPlan(convention, request.dim), 0, request.rows, request.row_offset, out,
                              threads_for(request, threads));
}

void fast_encoding_float16(const Convention& convention, const TableRequest& request, std::span<std::uint16_t> out,
                           int threads) {
  check_request(convention, request);
  fast_kernels().fill_float16(EncodingPlan(convention, request.dim), 0, request.rows, request.row_offset, out,
                              threads_for(request, threads));
}

void fast_encoding_bfloat16(const Convention& convention, const TableRequest& request, std::span<std::uint16_t> out,
                            int threads) {
  check_request(convention, request);
  fast_kernels().fill_bfloat16(EncodingPlan(convention, request.dim), 0, request.rows, request.row_offset, out,
                               threads_for(request, threads));
}

Table fast_table(const Convention& convention, const TableRequest& request, FormatId format, int threads) {
  check_request(convention, request);
  Table table = make_uninitialized_table(request.rows, request.dim, format);
  FastEncoder(convention, request.dim).fill(request.row_offset, table, threads);
  return table;
}

ProducedTable fast_row_blocks(const Convention& convention, const TableRequest& request, FormatId format, int threads) {
  check_request(convention, request);
  auto encoder = std::make_shared<const FastEncoder>(convention, request.dim);
  ProducedTable blocks;
  blocks.format = format;
  blocks.rows = request.rows;
  blocks.cols = request.dim;
  // The writer's threads fill one block each: the kernel runs on the calling
  // thread, and the threads are started once for the table, not per block.
  blocks.workers = threads_for(request, threads);
  blocks.produce = [encoder, row_offset = request.row_offset](std::int64_t first_row, Table& block) {
    encoder->fill(row_offset + first_row, block, 1);
  };
  return blocks;
}

}  // namespace pecheck
