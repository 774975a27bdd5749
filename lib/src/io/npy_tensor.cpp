#include "pecheck/npy_tensor.hpp"

#include <limits>
#include <string>

#include "byte_io.hpp"
#include "byte_source.hpp"
#include "npy_layout.hpp"
#include "pecheck/atomic_file.hpp"
#include "pecheck/npy_array.hpp"
#include "pecheck/table_file.hpp"
#include "table_codec.hpp"

namespace pecheck {

namespace {

struct FloatDtype {
  FormatId format;
  ByteOrder byte_order;
};

FloatDtype parse_float_descr(const std::string& descr, std::string_view name) {
  const bool float_kind = descr.size() == 3 && (descr[0] == '<' || descr[0] == '>') && descr[1] == 'f' &&
                          (descr[2] == '2' || descr[2] == '4' || descr[2] == '8');
  if (!float_kind) {
    throw TableFileError(name, "descr", "dtype " + detail::quoted_excerpt(descr),
                         "a float dtype ('<f2', '<f4' or '<f8', '>' for big-endian)");
  }
  const FormatId format = descr[2] == '2' ? FormatId::float16 : descr[2] == '4' ? FormatId::float32 : FormatId::float64;
  return {format, descr[0] == '>' ? ByteOrder::big : ByteOrder::little};
}

NpyTensor read_tensor_source(const detail::ByteSource& source, const NpyArray* fortran_fallback) {
  const std::string_view name = source.name();
  const detail::NpyLayout layout = detail::read_npy_layout(source);
  const detail::NpyHeader& header = layout.header;
  const FloatDtype dtype = parse_float_descr(header.descr, name);
  NpyTensor tensor;
  tensor.dtype = header.descr;
  for (const std::uint64_t extent : header.shape) tensor.shape.push_back(static_cast<std::int64_t>(extent));
  std::uint64_t rows = 1;
  for (std::size_t k = 0; k + 1 < header.shape.size(); ++k) {
    const std::uint64_t extent = header.shape[k];
    if (extent != 0 && rows > std::numeric_limits<std::uint64_t>::max() / extent) {
      throw TableFileError(name, "shape", detail::npy_shape_text(header.shape) + " has more than 2^64 values",
                           "a shape that matches the data");
    }
    rows *= extent;
  }
  const std::uint64_t cols = header.shape.empty() ? 1 : header.shape.back();
  detail::checked_entries(rows, cols, storage_bytes(dtype.format), source.size() - layout.data_start, name, "shape",
                          detail::npy_shape_text(header.shape) + " of " + detail::quoted_excerpt(header.descr));
  if (header.fortran_order && header.shape.size() > 2) {
    // Rare (NumPy writes C order unless asked): the N-d reader reorders it, as doubles.
    if (fortran_fallback == nullptr) {
      throw TableFileError(name, "fortran_order", "a Fortran-order array of rank " +
                                                      std::to_string(header.shape.size()),
                           "C order");
    }
    tensor.values = make_uninitialized_table(static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols),
                                             dtype.format);
    for (std::int64_t k = 0; k < tensor.values.size(); ++k) {
      tensor.values.set_flat(k, fortran_fallback->values[static_cast<std::size_t>(k)]);
    }
    return tensor;
  }
  tensor.values = detail::read_table_payload(source, layout.data_start, rows, cols, dtype.format, dtype.byte_order,
                                             header.fortran_order ? StorageOrder::column_major : StorageOrder::row_major);
  return tensor;
}

// True when the file's header says Fortran order and rank 3 or more (then
// the N-d reader's reordering is borrowed).
bool needs_reordering(const detail::ByteSource& source) {
  const detail::NpyHeader header = detail::read_npy_layout(source).header;
  return header.fortran_order && header.shape.size() > 2;
}

// The preamble and header of a C-order little-endian array, padded so the
// data starts at a multiple of 64 bytes (NumPy's rule), newline last.
std::vector<std::byte> header_bytes(const std::string& descr, const std::vector<std::int64_t>& shape) {
  std::string tuple;  // "8," or "2, 8": as NumPy writes a tuple
  for (std::size_t k = 0; k < shape.size(); ++k) tuple += (k == 0 ? "" : ", ") + std::to_string(shape[k]);
  if (shape.size() == 1) tuple += ",";
  const std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + tuple + "), }";
  constexpr std::size_t preamble = 10;  // magic, version 1.0, 2-byte header length
  const std::size_t unpadded = preamble + dict.size() + 1;
  const std::size_t padded = (unpadded + 63) / 64 * 64;
  const std::string header = dict + std::string(padded - unpadded, ' ') + "\n";
  std::vector<std::byte> out;
  for (const char c : std::string_view("\x93NUMPY\x01\x00", 8)) out.push_back(static_cast<std::byte>(c));
  detail::append_uint_le(out, header.size(), 2);
  for (const char c : header) out.push_back(static_cast<std::byte>(c));
  return out;
}

}  // namespace

void write_npy_tensor(const std::filesystem::path& path, const TableView& values,
                      const std::vector<std::int64_t>& shape) {
  const FormatId stored = values.format() == FormatId::bfloat16 ? FormatId::float32 : values.format();
  const std::string descr = "<f" + std::to_string(storage_bytes(stored));
  detail::write_table_atomically(path, header_bytes(descr, shape), values, stored);
}

void write_npy_positions(const std::filesystem::path& path, std::span<const std::int64_t> positions) {
  std::vector<std::byte> bytes = header_bytes("<i8", {static_cast<std::int64_t>(positions.size())});
  for (const std::int64_t p : positions) detail::append_uint_le(bytes, static_cast<std::uint64_t>(p), 8);
  write_file_atomically(path, bytes);
}

NpyTensor read_npy_tensor(const std::filesystem::path& path) {
  const detail::FileSource source(path);
  if (needs_reordering(source)) {
    const NpyArray array = read_npy_array(path);
    return read_tensor_source(source, &array);
  }
  return read_tensor_source(source, nullptr);
}

NpyTensor read_npy_tensor_bytes(std::span<const std::byte> bytes, std::string_view display_name) {
  const detail::MemorySource source(bytes, display_name);
  if (needs_reordering(source)) {
    const NpyArray array = read_npy_array_bytes(bytes, display_name);
    return read_tensor_source(source, &array);
  }
  return read_tensor_source(source, nullptr);
}

}  // namespace pecheck
