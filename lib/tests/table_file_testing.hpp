// Shared by the .npy and .safetensors tests: bit patterns worth storing, an
// independent decoder to check values against, and the NumPy interop script
// (temporary directories and the Python finder are the parts' shared
// pecheck/testing headers).
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <iterator>
#include <random>
#include <sstream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/testing/shell.hpp"
#include "pecheck/testing/temp_dir.hpp"

namespace pecheck::testing {

inline std::vector<std::byte> to_bytes(std::string_view text) {
  std::vector<std::byte> bytes(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) bytes[i] = static_cast<std::byte>(text[i]);
  return bytes;
}

inline std::string as_string(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

inline void write_bytes(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

inline void append_uint(std::vector<std::byte>& out, std::uint64_t value, int width, bool big_endian) {
  for (int i = 0; i < width; ++i) {
    const int shift = 8 * (big_endian ? width - 1 - i : i);
    out.push_back(static_cast<std::byte>((value >> shift) & 0xff));
  }
}

struct BitLayout {
  int exponent_bits;
  int fraction_bits;
  int bytes() const { return (1 + exponent_bits + fraction_bits) / 8; }
};

inline BitLayout layout_of_format(FormatId format) {
  switch (format) {
    case FormatId::float64: return {11, 52};
    case FormatId::float32: return {8, 23};
    case FormatId::float16: return {5, 10};
    case FormatId::bfloat16: return {8, 7};
  }
  return {11, 52};
}

constexpr std::array<FormatId, 4> all_formats{FormatId::float64, FormatId::float32, FormatId::float16,
                                              FormatId::bfloat16};

// The seed of every generated pattern list; printed by the tests that use it.
constexpr std::uint64_t pattern_seed = 20240611;

// Bit patterns that stress a decoder: both zeros, the subnormal range's ends,
// the smallest normal, one, the largest finite, both infinities, a quiet and
// a signalling NaN with payloads, then count - 12 patterns drawn at random.
inline std::vector<std::uint64_t> interesting_bits(FormatId format, std::size_t count) {
  const BitLayout layout = layout_of_format(format);
  const int f = layout.fraction_bits;
  const int total = 1 + layout.exponent_bits + f;
  const std::uint64_t sign = std::uint64_t{1} << (total - 1);
  const std::uint64_t exponent_all = ((std::uint64_t{1} << layout.exponent_bits) - 1) << f;
  const std::uint64_t fraction_all = (std::uint64_t{1} << f) - 1;
  const std::uint64_t one = (((std::uint64_t{1} << (layout.exponent_bits - 1)) - 1)) << f;
  std::vector<std::uint64_t> bits{
      0, sign, 1, fraction_all | sign, std::uint64_t{1} << f, one,
      (exponent_all - (std::uint64_t{1} << f)) | fraction_all, exponent_all, exponent_all | sign,
      exponent_all | (std::uint64_t{1} << (f - 1)) | 3,  // quiet NaN, payload 3
      exponent_all | 5 | sign,                            // signalling NaN, payload 5
      one | sign | 1,
  };
  std::mt19937_64 random(pattern_seed + static_cast<std::uint64_t>(total));
  const std::uint64_t mask = total == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << total) - 1;
  while (bits.size() < count) bits.push_back(random() & mask);
  bits.resize(count);
  return bits;
}

// An independent decoder (not the library's): float64 and float32 by
// bit_cast, bfloat16 as the top half of a float32, float16 rebiased into
// float32 bits or, when subnormal, as fraction * 2^-24. NaN comes back as
// nullopt: NaNs are compared by bits, not by value.
inline std::optional<double> reference_value(std::uint64_t bits, FormatId format) {
  double value = 0.0;
  switch (format) {
    case FormatId::float64: value = std::bit_cast<double>(bits); break;
    case FormatId::float32: value = std::bit_cast<float>(static_cast<std::uint32_t>(bits)); break;
    case FormatId::bfloat16: value = std::bit_cast<float>(static_cast<std::uint32_t>(bits << 16)); break;
    case FormatId::float16: {
      const std::uint32_t sign = static_cast<std::uint32_t>(bits >> 15) << 31;
      const std::uint32_t exponent = (bits >> 10) & 0x1f;
      const std::uint32_t fraction = bits & 0x3ff;
      if (exponent == 0x1f && fraction != 0) return std::nullopt;
      if (exponent == 0x1f) {
        value = std::bit_cast<float>(sign | 0x7f800000u);
      } else if (exponent == 0) {
        value = (sign ? -1.0 : 1.0) * static_cast<double>(fraction) / 16777216.0;
      } else {
        value = std::bit_cast<float>(sign | ((exponent - 15 + 127) << 23) | (fraction << 13));
      }
      break;
    }
  }
  if (std::isnan(value)) return std::nullopt;
  return value;
}

// Same value, same sign of zero; NaN only matches NaN (payloads are checked
// by the byte-level round trips).
inline bool same_value(double actual, std::uint64_t expected_bits, FormatId format) {
  const auto expected = reference_value(expected_bits, format);
  if (!expected) return std::isnan(actual);
  return actual == *expected && std::signbit(actual) == std::signbit(*expected);
}

// Whether `values` are the values of `bits` in `format`, one for one
// (same_value: the sign of zero kept, NaN matching NaN); names the first that is not.
inline ::testing::AssertionResult are_values_of(const std::vector<double>& values,
                                                const std::vector<std::uint64_t>& bits, FormatId format) {
  if (values.size() != bits.size()) {
    return ::testing::AssertionFailure() << values.size() << " values for " << bits.size() << " bit patterns";
  }
  for (std::size_t k = 0; k < bits.size(); ++k) {
    if (!same_value(values[k], bits[k], format)) {
      return ::testing::AssertionFailure() << "value " << k << " is " << std::hexfloat << values[k]
                                           << ", not the value of bits 0x" << std::hex << bits[k];
    }
  }
  return ::testing::AssertionSuccess();
}

// A double holding the value of bits: reference_value, or for a NaN the
// placement documented in float_bits.hpp (payload at the top of double's
// fraction, sign kept), so NaN payloads can be written and compared.
inline double value_from_bits(std::uint64_t bits, FormatId format) {
  if (const auto value = reference_value(bits, format)) return *value;
  const BitLayout layout = layout_of_format(format);
  const int total = 1 + layout.exponent_bits + layout.fraction_bits;
  const std::uint64_t sign = (bits >> (total - 1)) & 1;
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << layout.fraction_bits) - 1);
  return std::bit_cast<double>((sign << 63) | (std::uint64_t{0x7ff} << 52) | (fraction << (52 - layout.fraction_bits)));
}

// The unsigned little-endian integers of width bytes in bytes.
inline std::vector<std::uint64_t> read_uints(std::span<const std::byte> bytes, int width) {
  std::vector<std::uint64_t> values;
  for (std::size_t start = 0; start + static_cast<std::size_t>(width) <= bytes.size(); start += static_cast<std::size_t>(width)) {
    std::uint64_t value = 0;
    for (int i = width - 1; i >= 0; --i) value = (value << 8) | std::to_integer<std::uint64_t>(bytes[start + static_cast<std::size_t>(i)]);
    values.push_back(value);
  }
  return values;
}

inline std::vector<std::byte> read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  for (std::size_t i = 0; i < chars.size(); ++i) bytes[i] = static_cast<std::byte>(chars[i]);
  return bytes;
}

// What table_interop.py prints for one array (see its docstring).
struct InteropRecord {
  std::string dtype;
  bool fortran = false;
  int ndim = 0;
  std::string version;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::string metadata;
  std::vector<std::uint64_t> bits;
};

inline InteropRecord parse_interop_record(const std::string& text) {
  std::istringstream in(text);
  InteropRecord record;
  int fortran = 0;
  in >> record.dtype >> fortran >> record.ndim >> record.version >> record.rows >> record.cols >> record.metadata;
  record.fortran = fortran != 0;
  std::string hex;
  while (in >> hex) record.bits.push_back(std::stoull(hex, nullptr, 16));
  return record;
}

// The interop script beside these tests (its directory comes from CMake).
inline std::string interop_script() { return std::string(PECHECK_TEST_SOURCE_DIR) + "/table_interop.py"; }

inline CommandResult run_interop(const std::string& python, const std::string& arguments) {
  return run_command(shell_quote(python) + " -B " + shell_quote(interop_script()) + " " + arguments + " 2>&1");
}

// A table file that table_interop.py's write-* command left, and the record
// its .expect sidecar holds.
struct InteropFile {
  std::filesystem::path path;
  InteropRecord expected;
};

// The files ending in `extension` in `dir`, each with its sidecar's record.
inline std::vector<InteropFile> interop_files(const std::filesystem::path& dir, std::string_view extension) {
  std::vector<InteropFile> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != extension) continue;
    std::ifstream sidecar(std::filesystem::path(entry.path()).replace_extension(".expect"));
    files.push_back({entry.path(), parse_interop_record(std::string(std::istreambuf_iterator<char>(sidecar), {}))});
  }
  return files;
}

// What a test expects of every TableFileError: one line, naming the file,
// the field, and what was expected.
inline ::testing::AssertionResult is_good_error_message(const std::string& message, const std::string& path,
                                                        const std::string& field) {
  if (message.find('\n') != std::string::npos) return ::testing::AssertionFailure() << "two lines: " << message;
  if (message.rfind(path + ": ", 0) != 0) return ::testing::AssertionFailure() << "does not start with the path: " << message;
  const std::size_t field_start = path.size() + 2;
  const std::size_t field_end = message.find(": ", field_start);
  const std::string named = message.substr(field_start, field_end - field_start);
  if (field_end == std::string::npos || named.find(field) == std::string::npos) {
    return ::testing::AssertionFailure() << "does not name the field '" << field << "': " << message;
  }
  if (message.find(" (expected ") == std::string::npos || message.back() != ')') {
    return ::testing::AssertionFailure() << "does not end with (expected ...): " << message;
  }
  return ::testing::AssertionSuccess();
}

// A malformed input and the field its error must name.
struct MalformedCase {
  std::string name;
  std::vector<std::byte> bytes;
  std::string field;
};

// With PECHECK_WRITE_CORPUS=DIR set, the malformed inputs are also written to
// DIR (as seeds for the fuzz targets); otherwise nothing is kept.
inline void maybe_keep_corpus(const std::vector<MalformedCase>& cases, std::string_view extension) {
  const char* directory = std::getenv("PECHECK_WRITE_CORPUS");
  if (directory == nullptr) return;
  std::filesystem::create_directories(directory);
  for (const auto& c : cases) write_bytes(std::filesystem::path(directory) / (c.name + std::string(extension)), c.bytes);
}

// Each malformed case, written to a file with `extension` (and kept as a
// fuzz seed when PECHECK_WRITE_CORPUS asks), must make `read` throw a
// one-line TableFileError naming the file and the case's field.
template <typename Read>
void expect_every_malformed_input_refused(const std::vector<MalformedCase>& cases, std::string_view extension,
                                          Read read) {
  maybe_keep_corpus(cases, extension);
  TempDir dir;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const auto path = dir / (c.name + std::string(extension));
    write_bytes(path, c.bytes);
    try {
      const TableFile file = read(path);
      ADD_FAILURE() << "read as a " << file.table.rows << " x " << file.table.cols << " table";
    } catch (const TableFileError& error) {
      EXPECT_TRUE(is_good_error_message(error.what(), path.string(), c.field));
    }
  }
}

}  // namespace pecheck::testing
