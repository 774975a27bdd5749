// The public entry points of the fast path: check the request, build the
// plan, fill the rows. The numerics live in sincos_turns.cpp (the kernel and
// its error bound) and frequency_turns.cpp (the frequencies).
#include "pecheck/fast_encoding.hpp"

#include "encoding_plan.hpp"
#include "pecheck/format.hpp"

namespace pecheck {

void fast_encoding(const Convention& convention, const TableRequest& request, std::span<double> out) {
  check_request(convention, request);
  EncodingPlan(convention, request.dim).fill_rows(0, request.rows, request.row_offset, out);
}

void fast_encoding(const Convention& convention, const TableRequest& request, std::span<float> out) {
  check_request(convention, request);
  EncodingPlan(convention, request.dim).fill_rows(0, request.rows, request.row_offset, out);
}

void fast_encoding_float16(const Convention& convention, const TableRequest& request, std::span<std::uint16_t> out) {
  check_request(convention, request);
  EncodingPlan(convention, request.dim).fill_rows_float16(0, request.rows, request.row_offset, out);
}

void fast_encoding_bfloat16(const Convention& convention, const TableRequest& request,
                            std::span<std::uint16_t> out) {
  check_request(convention, request);
  EncodingPlan(convention, request.dim).fill_rows_bfloat16(0, request.rows, request.row_offset, out);
}

Table fast_table(const Convention& convention, const TableRequest& request, FormatId format) {
  check_request(convention, request);
  Table table = make_table(request.rows, request.dim, format);
  // The accurate doubles first, then each rounded once to the format, in
  // place: the same values the typed entry points produce.
  EncodingPlan(convention, request.dim).fill_rows(0, request.rows, request.row_offset, std::span<double>(table.values));
  switch (format) {
    case FormatId::float64:
      break;
    case FormatId::float32:
      for (double& value : table.values) value = static_cast<double>(static_cast<float>(value));
      break;
    case FormatId::float16:
      for (double& value : table.values) value = float16_bits_to_double(round_to_float16_bits(value));
      break;
    case FormatId::bfloat16:
      for (double& value : table.values) {
        value = bfloat16_bits_to_double(round_to_bfloat16_bits(value));
      }
      break;
  }
  return table;
}

}  // namespace pecheck
