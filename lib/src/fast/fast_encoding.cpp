// The public entry points of the fast path: check the request, build the
// plan, fill the rows. The numerics live in sincos_turns.cpp (the kernel and
// its error bound), rotated_rows.cpp (the narrow formats' rows) and
// frequency_turns.cpp (the frequencies).
#include "pecheck/fast_encoding.hpp"

#include <memory>

#include "encoding_plan.hpp"
#include "pecheck/format.hpp"

#include <string>
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

void FastEncoder::encode(const TableRequest& request, std::span<double> out) const {
  if (request.dim != dim_) {
    throw ConventionError("FastEncoder::encode: a request of width " + std::to_string(request.dim) +
                          " from an encoder of width " + std::to_string(dim_));
  }
  check_request(convention_, request);
  plan_->fill_rows(0, request.rows, request.row_offset, out, 1);
}

void fast_encoding(const Convention& convention, const TableRequest& request, std::span<double> out, int threads) {
  check_request(convention, request);
  EncodingPlan(convention, request.dim)
      .fill_rows(0, request.rows, request.row_offset, out, threads_for(request, threads));
}

void fast_encoding(const Convention& convention, const TableRequest& request, std::span<float> out, int threads) {
  check_request(convention, request);
  EncodingPlan(convention, request.dim)
      .fill_rows(0, request.rows, request.row_offset, out, threads_for(request, threads));
}

void fast_encoding_float16(const Convention& convention, const TableRequest& request, std::span<std::uint16_t> out,
                           int threads) {
  check_request(convention, request);
  EncodingPlan(convention, request.dim)
      .fill_rows_float16(0, request.rows, request.row_offset, out, threads_for(request, threads));
}

void fast_encoding_bfloat16(const Convention& convention, const TableRequest& request, std::span<std::uint16_t> out,
                            int threads) {
  check_request(convention, request);
  EncodingPlan(convention, request.dim)
      .fill_rows_bfloat16(0, request.rows, request.row_offset, out, threads_for(request, threads));
}

namespace {

// Rows [first_row, first_row + out.rows) of the request's table into out, in
// out's own format: the kernel writes the format's type straight into the
// table's storage, so no double is held for a narrow format.
void fill_table(const EncodingPlan& plan, const TableRequest& request, std::int64_t first_row, Table& out,
                int threads) {
  const int workers = thread_count(threads, out.rows * out.cols);
  switch (out.format) {
    case FormatId::float64:
      plan.fill_rows(0, out.rows, request.row_offset + first_row, out.storage<double>(), workers);
      break;
    case FormatId::float32:
      plan.fill_rows(0, out.rows, request.row_offset + first_row, out.storage<float>(), workers);
      break;
    case FormatId::float16:
      plan.fill_rows_float16(0, out.rows, request.row_offset + first_row, out.storage<std::uint16_t>(), workers);
      break;
    case FormatId::bfloat16:
      plan.fill_rows_bfloat16(0, out.rows, request.row_offset + first_row, out.storage<std::uint16_t>(), workers);
      break;
  }
}

}  // namespace

Table fast_table(const Convention& convention, const TableRequest& request, FormatId format, int threads) {
  check_request(convention, request);
  Table table = make_uninitialized_table(request.rows, request.dim, format);
  fill_table(EncodingPlan(convention, request.dim), request, 0, table, threads);
  return table;
}

ProducedTable fast_row_blocks(const Convention& convention, const TableRequest& request, FormatId format, int threads) {
  check_request(convention, request);
  auto plan = std::make_shared<const EncodingPlan>(convention, request.dim);
  ProducedTable blocks;
  blocks.format = format;
  blocks.rows = request.rows;
  blocks.cols = request.dim;
  blocks.produce = [plan, request, threads](std::int64_t first_row, Table& block) {
    fill_table(*plan, request, first_row, block, threads);
  };
  return blocks;
}

}  // namespace pecheck
