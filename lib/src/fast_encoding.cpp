// The public entry points of the fast path: check the request, build the
// plan, fill the rows. The numerics live in sincos_turns.cpp (the kernel and
// its error bound), rotated_rows.cpp (the narrow formats' rows) and
// frequency_turns.cpp (the frequencies).
#include "pecheck/fast_encoding.hpp"

#include "encoding_plan.hpp"
#include "pecheck/format.hpp"
#include "row_blocks.hpp"
#include "unit_rounding.hpp"

namespace pecheck {

namespace {

int threads_for(const TableRequest& request, int threads) { return thread_count(threads, request.rows * request.dim); }

}  // namespace

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

Table fast_table(const Convention& convention, const TableRequest& request, FormatId format) {
  check_request(convention, request);
  Table table = make_table(request.rows, request.dim, format);
  const EncodingPlan plan(convention, request.dim);
  const std::span<double> values(table.values);
  const int threads = threads_for(request, 0);
  if (format == FormatId::float64) {
    plan.fill_rows(0, request.rows, request.row_offset, values, threads);
    return table;
  }
  // The doubles the narrow formats are rounded from, each then rounded once
  // in place: the same values the typed entry points produce.
  plan.fill_rows_narrow_source(0, request.rows, request.row_offset, values, threads);
  switch (format) {
    case FormatId::float64:
      break;
    case FormatId::float32:
      for (double& value : table.values) value = static_cast<double>(static_cast<float>(value));
      break;
    case FormatId::float16:
      for (double& value : table.values) value = float16_bits_to_double(unit_interval_float16_bits(value));
      break;
    case FormatId::bfloat16:
      for (double& value : table.values) value = bfloat16_bits_to_double(unit_interval_bfloat16_bits(value));
      break;
  }
  return table;
}

}  // namespace pecheck
