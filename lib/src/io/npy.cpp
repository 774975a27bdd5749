#include "pecheck/npy.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>

#include "byte_io.hpp"
#include "byte_source.hpp"
#include "float_bits.hpp"
#include "npy_header.hpp"
#include "npy_layout.hpp"
#include "pecheck/atomic_file.hpp"
#include "table_extents.hpp"
#include "table_codec.hpp"

namespace pecheck {

namespace {

constexpr std::string_view magic = "\x93NUMPY";
constexpr std::size_t preamble_v1 = 10;  // magic, 2 version bytes, 2-byte header length
constexpr std::size_t preamble_v2 = 12;  // magic, 2 version bytes, 4-byte header length
constexpr std::size_t data_alignment = 64;

struct NpyDtype {
  FormatId format;
  ByteOrder byte_order;
  int itemsize;
};

NpyDtype parse_descr(const std::string& descr, std::string_view name) {
  constexpr std::string_view expected = "'<f2', '<f4' or '<f8', or the same with '>' for big-endian";
  const bool float_kind = descr.size() == 3 && descr[1] == 'f' && (descr[2] == '2' || descr[2] == '4' || descr[2] == '8');
  if (!float_kind) {
    throw TableFileError(name, "descr", "unsupported dtype " + detail::quoted_excerpt(descr), expected);
  }
  NpyDtype dtype{};
  switch (descr[0]) {
    case '<': dtype.byte_order = ByteOrder::little; break;
    case '>': dtype.byte_order = ByteOrder::big; break;
    case '=':
    case '|':
      throw TableFileError(name, "descr",
                           "byte order " + detail::quoted_excerpt(descr.substr(0, 1)) + " in " +
                               detail::quoted_excerpt(descr) + " does not say how the file stores the bytes",
                           expected);
    default: throw TableFileError(name, "descr", "unsupported dtype " + detail::quoted_excerpt(descr), expected);
  }
  dtype.itemsize = descr[2] - '0';
  dtype.format = dtype.itemsize == 2 ? FormatId::float16 : dtype.itemsize == 4 ? FormatId::float32 : FormatId::float64;
  return dtype;
}

}  // namespace

std::string detail::npy_shape_text(const std::vector<std::uint64_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

namespace {

using detail::npy_shape_text;

struct Preamble {
  std::string version;
  std::size_t header_start;
  std::uint64_t header_length;
};

// NumPy's own reader refuses headers past 10000 bytes unless told otherwise
// (numpy.lib.format, max_header_size, since NumPy 1.24); pecheck allows a
// hundred times that, and never reads a header the size of a file.
constexpr std::uint64_t max_header_bytes = std::uint64_t{1} << 20;

Preamble read_preamble(const detail::ByteSource& source) {
  const std::string_view name = source.name();
  const std::uint64_t size = source.size();
  if (size == 0) throw TableFileError(name, "magic", "the file is empty", "an .npy file starting with '\\x93NUMPY'");
  const std::vector<std::byte> bytes = source.read_vector(0, static_cast<std::size_t>(std::min<std::uint64_t>(size, preamble_v2)));
  const std::size_t magic_seen = std::min(bytes.size(), magic.size());
  const std::span<const std::byte> seen(bytes.data(), magic_seen);
  if (detail::as_chars(seen) != magic.substr(0, magic_seen)) {
    throw TableFileError(name, "magic", "the file starts with " + detail::quoted_excerpt(detail::as_chars(seen)),
                         "'\\x93NUMPY'");
  }
  if (magic_seen < magic.size()) {
    throw TableFileError(name, "magic", "the file ends after " + std::to_string(size) + " bytes",
                         "the 6-byte magic '\\x93NUMPY'");
  }
  if (size < magic.size() + 2) {
    throw TableFileError(name, "version", "the file ends after " + std::to_string(size) + " bytes",
                         "two version bytes after the magic");
  }
  const auto major = std::to_integer<int>(bytes[6]);
  const auto minor = std::to_integer<int>(bytes[7]);
  const std::string version = std::to_string(major) + "." + std::to_string(minor);
  if (minor != 0 || major < 1 || major > 3) {
    throw TableFileError(name, "version", "format version " + version + " is not supported", "1.0, 2.0 or 3.0");
  }
  const std::size_t header_start = major == 1 ? preamble_v1 : preamble_v2;
  const int length_width = major == 1 ? 2 : 4;
  if (size < header_start) {
    throw TableFileError(name, "header length", "the file ends after " + std::to_string(size) + " bytes",
                         "a " + std::to_string(length_width) + "-byte header length for version " + version);
  }
  const std::uint64_t header_length =
      detail::load_uint(std::span<const std::byte>(bytes).subspan(8), length_width, ByteOrder::little);
  if (header_length == 0) throw TableFileError(name, "header length", "the header is empty", "a header dict");
  if (header_length > size - header_start) {
    throw TableFileError(name, "header length",
                         std::to_string(header_length) + " bytes runs past the end of the file (" +
                             std::to_string(size - header_start) + " bytes follow the length)",
                         "a header within the file");
  }
  if (header_length > max_header_bytes) {
    throw TableFileError(name, "header length", std::to_string(header_length) + " bytes is too long",
                         "a header of at most " + std::to_string(max_header_bytes) + " bytes");
  }
  return {version, header_start, header_length};
}

void check_header_encoding(std::string_view header, const std::string& version, std::string_view name) {
  if (version == "3.0") {
    if (const auto bad = detail::first_invalid_utf8(header)) {
      throw TableFileError(name, "header", "byte " + detail::quoted_excerpt(header.substr(*bad, 1)) + " at offset " +
                                               std::to_string(*bad) + " is not UTF-8",
                           "a UTF-8 header in version 3.0");
    }
    return;
  }
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (static_cast<unsigned char>(header[i]) >= 0x80) {
      throw TableFileError(name, "header", "byte " + detail::quoted_excerpt(header.substr(i, 1)) + " at offset " +
                                               std::to_string(i) + " is not ASCII",
                           "an ASCII header in version " + version + " (non-ASCII needs version 3.0)");
    }
  }
}

}  // namespace

detail::NpyLayout detail::read_npy_layout(const ByteSource& source) {
  const Preamble preamble = read_preamble(source);
  const std::vector<std::byte> header_bytes =
      source.read_vector(preamble.header_start, static_cast<std::size_t>(preamble.header_length));
  const std::string_view header_text = detail::as_chars(header_bytes);
  check_header_encoding(header_text, preamble.version, source.name());
  return {preamble.version, detail::parse_npy_header(header_text, source.name()),
          preamble.header_start + preamble.header_length};
}

namespace {

TableFile read_npy_source(const detail::ByteSource& source, const TableRowLimit& max_rows,
                          const RowsInPlace& rows_in_place = {}) {
  const std::string_view name = source.name();
  const detail::NpyLayout layout = detail::read_npy_layout(source);
  const detail::NpyHeader& header = layout.header;
  const NpyDtype dtype = parse_descr(header.descr, name);

  const std::optional<detail::TableExtents> extents = detail::table_extents(header.shape);
  if (!extents) {
    throw TableFileError(name, "shape",
                         npy_shape_text(header.shape) + " has " + std::to_string(header.shape.size()) + " dimensions" +
                             detail::refused_shape_hint(header.shape),
                         detail::table_shapes_accepted);
  }
  const std::uint64_t rows = extents->rows;
  const std::uint64_t cols = extents->cols;
  const std::uint64_t data_start = layout.data_start;
  // Checked against the bytes actually present before anything is allocated:
  // a header that claims more (or fewer) values than the file holds is refused.
  detail::checked_entries(rows, cols, dtype.itemsize, source.size() - data_start, name, "shape",
                          npy_shape_text(header.shape) + " of " + detail::quoted_excerpt(header.descr));

  TableFile file;
  file.info.dtype = header.descr;
  file.info.byte_order = dtype.byte_order;
  file.info.storage_order = header.fortran_order ? StorageOrder::column_major : StorageOrder::row_major;
  file.info.ndim = static_cast<int>(header.shape.size());
  if (extents->squeezed) {
    file.info.shape_note = "the array's shape " + npy_shape_text(header.shape) + " is read as " + std::to_string(rows) +
                           " rows of " + std::to_string(cols) + " columns (its extents of 1 dropped)";
  }
  file.info.version = layout.version;
  file.table = detail::read_table_payload(source, data_start, rows, cols, dtype.format, dtype.byte_order,
                                          file.info.storage_order, max_rows, rows_in_place);
  return file;
}

// NumPy has no bfloat16: its values are stored exactly as float32.
FormatId npy_stored_format(FormatId format) { return format == FormatId::bfloat16 ? FormatId::float32 : format; }

// The preamble and header dict of a C-order little-endian table.
std::vector<std::byte> npy_header_bytes(const TableView& view) {
  const int itemsize = storage_bytes(npy_stored_format(view.format()));
  const std::string dict = "{'descr': '<f" + std::to_string(itemsize) + "', 'fortran_order': False, 'shape': (" +
                           std::to_string(view.rows()) + ", " + std::to_string(view.cols()) + "), }";
  // Version 1.0 holds a header of at most 65535 bytes; pad with spaces so the
  // data starts at a multiple of 64 bytes, the newline last (NumPy's rule).
  const bool version_2 = preamble_v1 + dict.size() + 1 > std::numeric_limits<std::uint16_t>::max();
  const std::size_t preamble = version_2 ? preamble_v2 : preamble_v1;
  const std::size_t unpadded = preamble + dict.size() + 1;
  const std::size_t padded = (unpadded + data_alignment - 1) / data_alignment * data_alignment;
  const std::string header = dict + std::string(padded - unpadded, ' ') + "\n";

  std::vector<std::byte> out;
  out.reserve(padded);
  for (const char c : magic) out.push_back(static_cast<std::byte>(c));
  out.push_back(std::byte{version_2 ? std::uint8_t{2} : std::uint8_t{1}});
  out.push_back(std::byte{0});
  detail::append_uint_le(out, header.size(), version_2 ? 4 : 2);
  for (const char c : header) out.push_back(static_cast<std::byte>(c));
  return out;
}

}  // namespace

TableFile read_npy_bytes(std::span<const std::byte> bytes, std::string_view name) {
  return read_npy_source(detail::MemorySource(bytes, name), any_table_rows);
}

TableFile read_npy(const std::filesystem::path& path, const TableRowLimit& max_rows, const RowsInPlace& rows_in_place) {
  return read_npy_source(detail::FileSource(path), max_rows, rows_in_place);
}

std::vector<std::byte> encode_npy(const Table& table) {
  const TableView view = table.view();
  std::vector<std::byte> out = npy_header_bytes(view);
  out.reserve(out.size() + detail::payload_bytes(view, npy_stored_format(view.format())));
  detail::write_table_payload(view, npy_stored_format(view.format()),
                              [&](std::span<const std::byte> bytes) { out.insert(out.end(), bytes.begin(), bytes.end()); });
  return out;
}

void write_npy(const std::filesystem::path& path, const TableView& view) {
  detail::write_table_atomically(path, npy_header_bytes(view), view, npy_stored_format(view.format()));
}

void write_npy(const std::filesystem::path& path, const ProducedTable& table) {
  detail::write_table_atomically(path, npy_header_bytes(table.shape()), table, npy_stored_format(table.format));
}

}  // namespace pecheck
