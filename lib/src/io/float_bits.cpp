#include "float_bits.hpp"

namespace pecheck::detail {

// Thin adapters over format.hpp's to_bits / from_bits, which already keep NaN
// signs and payloads: the table files report an unrepresentable value to
// their caller (who names the row and column) instead of throwing.

double decode_float_bits(std::uint64_t bits, FormatId format) { return from_bits(bits, format_of(format)); }

std::optional<std::uint64_t> encode_float_bits(double x, FormatId format) {
  const Format& f = format_of(format);
  if (!is_representable(x, f)) return std::nullopt;
  return to_bits(x, f);
}

int storage_bytes(FormatId format) { return format_of(format).storage_bits / 8; }

std::string_view format_name(FormatId format) { return format_of(format).name; }

}  // namespace pecheck::detail
