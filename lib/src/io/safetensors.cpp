#include "pecheck/safetensors.hpp"

#include <nlohmann/json.hpp>

#include "byte_io.hpp"
#include "byte_source.hpp"
#include "pecheck/atomic_file.hpp"
#include "safetensors_header.hpp"
#include "table_extents.hpp"
#include "table_codec.hpp"

namespace pecheck {

namespace {

constexpr std::size_t length_bytes = 8;
// The reference implementation refuses headers past 100 MB; so does this one,
// before reading them.
constexpr std::uint64_t max_header_bytes = 100'000'000;
constexpr std::size_t data_alignment = 8;

std::optional<FormatId> table_format(std::string_view dtype) {
  if (dtype == "F64") return FormatId::float64;
  if (dtype == "F32") return FormatId::float32;
  if (dtype == "F16") return FormatId::float16;
  if (dtype == "BF16") return FormatId::bfloat16;
  return std::nullopt;
}

std::string_view dtype_name(FormatId format) {
  switch (format) {
    case FormatId::float64: return "F64";
    case FormatId::float32: return "F32";
    case FormatId::float16: return "F16";
    case FormatId::bfloat16: return "BF16";
  }
  return "F64";
}

std::string names_list(const std::vector<detail::SafetensorsEntry>& tensors) {
  constexpr std::size_t shown = 10;
  std::string list;
  for (std::size_t i = 0; i < tensors.size() && i < shown; ++i) {
    list += (i ? ", " : "") + detail::quoted_excerpt(tensors[i].name);
  }
  if (tensors.size() > shown) list += " and " + std::to_string(tensors.size() - shown) + " more";
  return list;
}

const detail::SafetensorsEntry& select_tensor(const std::vector<detail::SafetensorsEntry>& tensors,
                                              const std::optional<std::string>& tensor_name, std::string_view name) {
  if (tensors.empty()) throw TableFileError(name, "header", "the file holds no tensor", "one tensor");
  if (tensor_name) {
    for (const auto& entry : tensors) {
      if (entry.name == *tensor_name) return entry;
    }
    throw TableFileError(name, "tensor name",
                         "no tensor " + detail::quoted_excerpt(*tensor_name) + "; the file holds " + names_list(tensors),
                         "one of the names in the file");
  }
  if (tensors.size() != 1) {
    throw TableFileError(name, "tensor name",
                         "the file holds " + std::to_string(tensors.size()) + " tensors: " + names_list(tensors),
                         "a tensor name to choose one: pecheck validate --tensor NAME");
  }
  return tensors.front();
}

void check_utf8(std::string_view text, std::string_view name, std::string_view field) {
  if (const auto bad = detail::first_invalid_utf8(text)) {
    throw TableFileError(name, field, "byte " + detail::quoted_excerpt(text.substr(*bad, 1)) + " at offset " +
                                          std::to_string(*bad) + " is not UTF-8",
                         "UTF-8 text");
  }
}

}  // namespace

namespace {

TableFile read_safetensors_source(const detail::ByteSource& source, const std::optional<std::string>& tensor_name,
                                  const TableRowLimit& max_rows, const RowsInPlace& rows_in_place = {}) {
  const std::string_view name = source.name();
  const std::uint64_t size = source.size();
  if (size < length_bytes) {
    throw TableFileError(name, "header length", "the file has " + std::to_string(size) + " bytes",
                         "an 8-byte little-endian header length");
  }
  const std::vector<std::byte> length = source.read_vector(0, length_bytes);
  const std::uint64_t header_bytes = detail::load_uint(length, length_bytes, ByteOrder::little);
  const std::uint64_t available = size - length_bytes;
  if (header_bytes == 0) throw TableFileError(name, "header length", "the header is empty", "a JSON object");
  if (header_bytes > max_header_bytes) {
    throw TableFileError(name, "header length", std::to_string(header_bytes) + " bytes is too long",
                         "at most " + std::to_string(max_header_bytes) + " bytes");
  }
  if (header_bytes > available) {
    throw TableFileError(name, "header length",
                         std::to_string(header_bytes) + " bytes runs past the end of the file (" +
                             std::to_string(available) + " bytes follow the length)",
                         "a header within the file");
  }
  const std::vector<std::byte> header_data = source.read_vector(length_bytes, static_cast<std::size_t>(header_bytes));
  const std::string_view header_text = detail::as_chars(header_data);
  check_utf8(header_text, name, "header");
  if (header_text.front() != '{') {
    throw TableFileError(name, "header", "starts with " + detail::quoted_excerpt(header_text, 8), "'{'");
  }
  const std::uint64_t data_start = length_bytes + header_bytes;
  const detail::SafetensorsHeader header = detail::parse_safetensors_header(header_text, size - data_start, name);
  const detail::SafetensorsEntry& entry = select_tensor(header.tensors, tensor_name, name);

  const std::string dtype_field = "tensor " + detail::quoted_excerpt(entry.name) + " dtype";
  const auto format = table_format(entry.dtype);
  if (!format) {
    throw TableFileError(name, dtype_field, "unsupported dtype " + detail::quoted_excerpt(entry.dtype),
                         "F16, BF16, F32 or F64");
  }
  const std::optional<detail::TableExtents> extents = detail::table_extents(entry.shape);
  if (!extents) {
    throw TableFileError(name, "tensor " + detail::quoted_excerpt(entry.name) + " shape",
                         std::to_string(entry.shape.size()) + " dimensions" + detail::refused_shape_hint(entry.shape),
                         detail::table_shapes_accepted);
  }
  const std::uint64_t rows = extents->rows;
  const std::uint64_t cols = extents->cols;

  TableFile file;
  file.info.dtype = entry.dtype;
  file.info.byte_order = ByteOrder::little;
  file.info.storage_order = StorageOrder::row_major;
  file.info.ndim = static_cast<int>(entry.shape.size());
  if (extents->squeezed) {
    std::string shape;
    for (std::uint64_t extent : entry.shape) shape += (shape.empty() ? "[" : ", ") + std::to_string(extent);
    file.info.shape_note = "tensor " + detail::quoted_excerpt(entry.name) + " of shape " + shape + "] is read as " +
                           std::to_string(rows) + " rows of " + std::to_string(cols) + " columns (its extents of 1 dropped)";
  }
  file.info.tensor_name = entry.name;
  file.info.metadata = header.metadata;
  // The header check matched shape * itemsize against data_offsets, which lie
  // within the data area: every read below is in bounds.
  file.table = detail::read_table_payload(source, data_start + entry.begin, rows, cols, *format, ByteOrder::little,
                                          StorageOrder::row_major, max_rows, rows_in_place);
  return file;
}

// The length and the JSON header, padded so the data starts aligned.
std::vector<std::byte> safetensors_header_bytes(const TableView& view, std::string_view name,
                                                std::string_view tensor_name,
                                                const std::map<std::string, std::string>& metadata) {
  if (tensor_name.empty() || tensor_name == "__metadata__") {
    throw TableFileError(name, "tensor name", detail::quoted_excerpt(tensor_name) + " cannot name a tensor",
                         "a non-empty name other than '__metadata__'");
  }
  check_utf8(tensor_name, name, "tensor name");
  for (const auto& [key, value] : metadata) {
    check_utf8(key, name, "__metadata__");
    check_utf8(value, name, "__metadata__");
  }
  nlohmann::json header;
  header[std::string(tensor_name)] = {
      {"dtype", dtype_name(view.format())},
      {"shape", {view.rows(), view.cols()}},
      {"data_offsets", {0, detail::payload_bytes(view, view.format())}},
  };
  if (!metadata.empty()) header["__metadata__"] = metadata;
  std::string text = header.dump();
  // Spaces after the JSON are allowed by the format; they align the data.
  text.append((data_alignment - text.size() % data_alignment) % data_alignment, ' ');

  std::vector<std::byte> out;
  out.reserve(length_bytes + text.size());
  detail::append_uint_le(out, text.size(), length_bytes);
  for (const char c : text) out.push_back(static_cast<std::byte>(c));
  return out;
}

}  // namespace

TableFile read_safetensors_bytes(std::span<const std::byte> bytes, std::string_view name,
                                 const std::optional<std::string>& tensor_name) {
  return read_safetensors_source(detail::MemorySource(bytes, name), tensor_name, any_table_rows);
}

TableFile read_safetensors(const std::filesystem::path& path, const std::optional<std::string>& tensor_name,
                           const TableRowLimit& max_rows, const RowsInPlace& rows_in_place) {
  return read_safetensors_source(detail::FileSource(path), tensor_name, max_rows, rows_in_place);
}

std::vector<std::byte> encode_safetensors(const Table& table, std::string_view name, std::string_view tensor_name,
                                          const std::map<std::string, std::string>& metadata) {
  std::vector<std::byte> out = safetensors_header_bytes(table, name, tensor_name, metadata);
  detail::write_table_payload(table, table.format,
                              [&](std::span<const std::byte> bytes) { out.insert(out.end(), bytes.begin(), bytes.end()); });
  return out;
}

void write_safetensors(const std::filesystem::path& path, const TableView& table, std::string_view tensor_name,
                       const std::map<std::string, std::string>& metadata) {
  const std::vector<std::byte> header = safetensors_header_bytes(table, path.string(), tensor_name, metadata);
  detail::write_table_atomically(path, header, table, table.format());
}

void write_safetensors(const std::filesystem::path& path, const ProducedTable& table, std::string_view tensor_name,
                       const std::map<std::string, std::string>& metadata) {
  const std::vector<std::byte> header =
      safetensors_header_bytes(table.shape(), path.string(), tensor_name, metadata);
  detail::write_table_atomically(path, header, table, table.format);
}

}  // namespace pecheck
