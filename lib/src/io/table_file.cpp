#include "pecheck/table_file.hpp"


#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <string>
#include <system_error>

#include "byte_io.hpp"
#include "byte_source.hpp"
#include "pecheck/one_line_text.hpp"
#include "support/utf8_sequence.hpp"
#include "pecheck/npy.hpp"
#include "pecheck/safetensors.hpp"

namespace pecheck {

namespace {


std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace

namespace detail {

std::optional<std::size_t> first_invalid_utf8(std::string_view text) {
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t length = utf8_sequence_length(text, pos);
    if (length == 0) return pos;
    pos += length;
  }
  return std::nullopt;
}

std::string quoted_excerpt(std::string_view text, std::size_t max_chars) {
  // Python's repr rule: double quotes when the text holds a single quote and no double quote.
  const std::string_view shown = text.substr(0, max_chars);
  const bool double_quoted = shown.find('\'') != std::string_view::npos && shown.find('"') == std::string_view::npos;
  const char quote = double_quoted ? '"' : '\'';
  std::string out(1, quote);
  for (const char c : shown) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7F || c == quote || c == '\\') {
      out += hex_escape(byte);
    } else {
      out += c;
    }
  }
  out += quote;
  if (text.size() > max_chars) out += "...";
  return out;
}

}  // namespace detail

TableFileError::TableFileError(std::string_view path, std::string_view field, std::string_view problem,
                               std::string_view expected)
    : std::runtime_error(escape_control_characters(path) + ": " + escape_control_characters(field) + ": " + escape_control_characters(problem) + " (expected " +
                         escape_control_characters(expected) + ")") {}

std::optional<TableFileKind> table_file_kind(const std::filesystem::path& path) {
  const std::string extension = lowercase(path.extension().string());
  if (extension == ".npy") return TableFileKind::npy;
  if (extension == ".safetensors") return TableFileKind::safetensors;
  return std::nullopt;
}

namespace {

TableFileKind kind_or_throw(const std::filesystem::path& path) {
  const auto kind = table_file_kind(path);
  if (!kind) {
    throw TableFileError(path.string(), "file name",
                         "the extension " + detail::quoted_excerpt(path.extension().string()) +
                             " names no table format",
                         "'.npy' or '.safetensors'");
  }
  return *kind;
}

}  // namespace

TableFile read_table_file(const std::filesystem::path& path, const std::optional<std::string>& tensor_name,
                          const TableRowLimit& max_rows, const RowsInPlace& rows_in_place) {
  switch (kind_or_throw(path)) {
    case TableFileKind::npy: return read_npy(path, max_rows, rows_in_place);
    case TableFileKind::safetensors: return read_safetensors(path, tensor_name, max_rows, rows_in_place);
  }
  return read_npy(path, max_rows, rows_in_place);
}

void write_table_file(const std::filesystem::path& path, const TableView& table) {
  switch (kind_or_throw(path)) {
    case TableFileKind::npy: write_npy(path, table); return;
    case TableFileKind::safetensors: write_safetensors(path, table); return;
  }
}

void write_table_file(const std::filesystem::path& path, const ProducedTable& table) {
  switch (kind_or_throw(path)) {
    case TableFileKind::npy: write_npy(path, table); return;
    case TableFileKind::safetensors: write_safetensors(path, table); return;
  }
}

std::vector<std::byte> read_file_bytes(const std::filesystem::path& path) {
  const detail::FileSource source(path);
  return source.read_vector(0, static_cast<std::size_t>(source.size()));
}

}  // namespace pecheck
