// Bit patterns of the four formats, to and from double, for the table files.
//
// Adapters over to_bits / from_bits in format.hpp for the file code, which
// needs two things: NaN payloads
// survive a round trip bit for bit (a file read and written back is the same
// file), and a value that is not exactly representable is reported to the
// caller (who names the row and column) instead of thrown.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "pecheck/format.hpp"

namespace pecheck::detail {

// The value of a stored bit pattern. A NaN keeps its sign and the top bits of
// its payload (all of them: every format's payload fits in double's).
double decode_float_bits(std::uint64_t bits, FormatId format);

// The bit pattern of x in format, or nullopt when x is not exactly a value of
// the format. A NaN keeps its sign and as much payload as the format holds
// (a NaN whose payload would vanish becomes the quiet NaN).
std::optional<std::uint64_t> encode_float_bits(double x, FormatId format);

int storage_bytes(FormatId format);
// "float64", "float32", "float16", "bfloat16" (format_of().name, without needing format.cpp).
std::string_view format_name(FormatId format);

}  // namespace pecheck::detail
