#include "pecheck/npy_array.hpp"

#include <limits>

#include "byte_io.hpp"
#include "float_bits.hpp"
#include "npy_array_dtype.hpp"
#include "npy_layout.hpp"
#include "pecheck/table_file.hpp"
#include "table_codec.hpp"

namespace pecheck {

namespace {

// The same limit tables have (table_codec.cpp): 2^31 values.
constexpr std::uint64_t max_array_entries = std::uint64_t{1} << 31;

}  // namespace

detail::ArrayDtype detail::parse_array_descr(const std::string& descr, std::string_view name) {
  constexpr std::string_view expected =
      "a float ('<f2', '<f4', '<f8'), complex ('<c8', '<c16') or integer ('<i4', '<i8', '|i1', '<u2', ...) dtype, "
      "'>' for big-endian";
  // complex64 and complex128 (a rotary cache as Meta's freqs_cis): read as
  // their float parts, the shape gaining a last extent of 2.
  const bool complex_kind = descr.size() >= 3 && descr[1] == 'c' && (descr.substr(2) == "8" || descr.substr(2) == "16");
  if (complex_kind && (descr[0] == '<' || descr[0] == '>')) {
    const int part = descr.substr(2) == "8" ? 4 : 8;
    return {'c', part, descr[0] == '>' ? ByteOrder::big : ByteOrder::little, 2};
  }
  const bool shaped = descr.size() == 3 && (descr[1] == 'f' || descr[1] == 'i' || descr[1] == 'u') &&
                      (descr[2] == '1' || descr[2] == '2' || descr[2] == '4' || descr[2] == '8');
  if (!shaped || (descr[1] == 'f' && descr[2] == '1')) {
    throw TableFileError(name, "descr", "unsupported dtype " + detail::quoted_excerpt(descr), expected);
  }
  ArrayDtype dtype{descr[1], descr[2] - '0', ByteOrder::little};
  // One byte has no order: NumPy writes '|'. Wider values need an explicit
  // order, since the file moves between machines.
  if (descr[0] == '>') {
    dtype.byte_order = ByteOrder::big;
  } else if (descr[0] == '|' ? dtype.itemsize != 1 : descr[0] != '<') {
    throw TableFileError(name, "descr",
                         "byte order " + detail::quoted_excerpt(descr.substr(0, 1)) + " in " +
                             detail::quoted_excerpt(descr) + " does not say how the file stores the bytes",
                         expected);
  }
  return dtype;
}

namespace {

std::int64_t signed_value(std::uint64_t bits, int itemsize) {
  const int shift = 64 - 8 * itemsize;
  return static_cast<std::int64_t>(bits << shift) >> shift;  // sign-extends (C++20: arithmetic shift)
}

}  // namespace

std::string shape_text(const std::vector<std::int64_t>& shape) {
  return detail::npy_shape_text(std::vector<std::uint64_t>(shape.begin(), shape.end()));
}

namespace {

NpyArray read_npy_array_source(const detail::ByteSource& source) {
  const std::string_view name = source.name();
  const detail::NpyLayout layout = detail::read_npy_layout(source);
  const detail::NpyHeader& header = layout.header;
  const detail::ArrayDtype dtype = detail::parse_array_descr(header.descr, name);
  const std::string what = detail::npy_shape_text(header.shape) + " of " + detail::quoted_excerpt(header.descr);

  // The leading dimensions as one count of rows (checked for overflow), the
  // last as columns: then the table readers' check of the shape against the
  // data bytes applies unchanged.
  std::uint64_t rows = 1;
  for (std::size_t k = 0; k + 1 < header.shape.size(); ++k) {
    const std::uint64_t extent = header.shape[k];
    if (extent != 0 && rows > std::numeric_limits<std::uint64_t>::max() / extent) {
      throw TableFileError(name, "shape", what + " has more than 2^64 values", "a shape that matches the data");
    }
    rows *= extent;
  }
  const std::uint64_t cols = (header.shape.empty() ? 1 : header.shape.back()) * static_cast<std::uint64_t>(dtype.components);
  if (dtype.components > 1 && header.fortran_order && header.shape.size() > 1) {
    throw TableFileError(name, "fortran_order", "a Fortran-order complex array", "a complex array in C order");
  }
  const std::uint64_t entries =
      detail::checked_entries(rows, cols, dtype.itemsize, source.size() - layout.data_start, name, "shape", what);
  if (entries > max_array_entries) {
    throw TableFileError(name, "shape", what + " is " + std::to_string(entries) + " values", "at most 2^31 values");
  }

  NpyArray array;
  array.dtype = header.descr;
  array.integer = dtype.kind == 'i' || dtype.kind == 'u';
  for (const std::uint64_t extent : header.shape) array.shape.push_back(static_cast<std::int64_t>(extent));
  if (dtype.components > 1) array.shape.push_back(dtype.components);
  if (array.integer) {
    array.integers.resize(entries);
  } else {
    array.format = dtype.itemsize == 2 ? FormatId::float16 : dtype.itemsize == 4 ? FormatId::float32 : FormatId::float64;
    array.values.resize(entries);
  }
  // Fortran order stores the first index fastest: element k of the file is
  // the element whose C-order index reverses the roles of the dimensions.
  std::vector<std::uint64_t> strides(header.shape.size(), 1);  // C-order strides
  for (std::size_t k = header.shape.size(); k-- > 1;) strides[k - 1] = strides[k] * header.shape[k];
  const bool reorder = header.fortran_order && dtype.components == 1;
  // Checked above: the payload is what the file holds past its header.
  const std::vector<std::byte> payload =
      source.read_vector(layout.data_start, static_cast<std::size_t>(source.size() - layout.data_start));
  const std::span<const std::byte> data(payload);
  for (std::uint64_t k = 0; k < entries; ++k) {
    const std::uint64_t bits =
        detail::load_uint(data.subspan(k * static_cast<std::uint64_t>(dtype.itemsize)), dtype.itemsize, dtype.byte_order);
    std::uint64_t index = k;
    if (reorder) {
      index = 0;
      std::uint64_t rest = k;
      for (std::size_t d = 0; d < header.shape.size(); ++d) {
        index += (rest % header.shape[d]) * strides[d];
        rest /= header.shape[d];
      }
    }
    if (!array.integer) {
      array.values[index] = detail::decode_float_bits(bits, array.format);
    } else if (dtype.kind == 'i') {
      array.integers[index] = signed_value(bits, dtype.itemsize);
    } else if (bits > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      throw TableFileError(name, "data", "value " + std::to_string(bits) + " at flat index " + std::to_string(index) +
                                             " does not fit a signed 64-bit integer",
                           "values below 2^63");
    } else {
      array.integers[index] = static_cast<std::int64_t>(bits);
    }
  }
  return array;
}

}  // namespace

NpyArray read_npy_array_bytes(std::span<const std::byte> bytes, std::string_view name) {
  return read_npy_array_source(detail::MemorySource(bytes, name));
}

NpyArray read_npy_array(const std::filesystem::path& path) { return read_npy_array_source(detail::FileSource(path)); }

}  // namespace pecheck
