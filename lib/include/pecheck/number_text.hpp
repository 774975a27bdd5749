// Numbers as text, each written one way wherever pecheck prints it. Each
// function is named by what it promises and follows one {fmt} spec, so a
// figure reads the same in validate's text, the reports and the command line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>


namespace pecheck {

// {:.{digits}g}: `digits` significant digits, as an ostream with
// precision(digits) prints a double (the default of the text outputs is 4).
std::string significant(double x, int digits = 4);
// {:.17g}: the shortest form with 17 significant digits, which reads back to
// the same double (a budget in a reproduce line).
std::string round_trip(double x);
// {:#018x}: 0x and 16 hex digits (seeds, bit patterns of float64).
std::string hex64(std::uint64_t x);

// The one reading of a whole number from a user (flags, offsets): decimal
// digits only ("010" is ten, never octal eight; no sign, blanks, or 0x), at
// most max. nullopt when the text is anything else.
std::optional<std::uint64_t> parse_decimal(std::string_view text, std::uint64_t max = INT64_MAX);

}  // namespace pecheck
