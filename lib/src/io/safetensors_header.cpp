#include "safetensors_header.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "byte_io.hpp"
#include "pecheck/table_file.hpp"
#include "table_codec.hpp"

namespace pecheck::detail {

namespace {

using Json = nlohmann::json;

// The deepest a valid header nests: the root object, a tensor entry, its
// shape or offsets array. Refusing deeper input before building the DOM also
// bounds the parser's work on hostile input.
constexpr std::size_t max_depth = 3;

// A first pass over the JSON as SAX events, for what the DOM cannot tell
// afterwards: a key repeated within one object (the DOM keeps only one of
// them) and nesting deeper than a header needs.
class StructureCheck {
 public:
  std::string error;  // empty when the header passed
  std::string expected;

  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(Json::number_integer_t) { return true; }
  bool number_unsigned(Json::number_unsigned_t) { return true; }
  bool number_float(Json::number_float_t, const Json::string_t&) { return true; }
  bool string(Json::string_t&) { return true; }
  bool binary(Json::binary_t&) { return true; }
  bool start_object(std::size_t) { return open(true); }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(false); }
  bool end_array() { return close(); }
  bool key(Json::string_t& key) {
    auto& keys = open_keys_.back();
    if (!keys->insert(key).second) {
      error = "key " + quoted_excerpt(key) + " appears twice in one object";
      expected = "each key once";
      return false;
    }
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& exception) {
    // nlohmann's message starts with "[json.exception.parse_error.101] ".
    std::string_view message = exception.what();
    if (const auto bracket = message.find("] "); bracket != std::string_view::npos) message.remove_prefix(bracket + 2);
    error = "invalid JSON: " + std::string(message);
    expected = "a valid JSON object";
    return false;
  }

 private:
  bool open(bool object) {
    if (open_keys_.size() >= max_depth) {
      error = "nested deeper than " + std::to_string(max_depth) + " levels";
      expected = "tensors of fields of numbers or strings";
      return false;
    }
    open_keys_.push_back(object ? std::optional<std::set<std::string>>(std::in_place) : std::nullopt);
    return true;
  }
  bool close() {
    open_keys_.pop_back();
    return true;
  }

  std::vector<std::optional<std::set<std::string>>> open_keys_;  // one per open container; arrays hold none
};

std::string tensor_field(const std::string& tensor, std::string_view field) {
  return "tensor " + quoted_excerpt(tensor) + " " + std::string(field);
}

std::string offsets_text(std::uint64_t begin, std::uint64_t end) {
  // Built by appending: GCC 12 warns falsely (-Wrestrict) on "[" + std::string&&.
  std::string text = "[";
  text += std::to_string(begin);
  text += ", ";
  text += std::to_string(end);
  text += "]";
  return text;
}

std::uint64_t unsigned_value(const Json& value, std::string_view name, const std::string& field,
                             std::string_view expected) {
  if (!value.is_number_unsigned()) throw TableFileError(name, field, "an element is not a non-negative integer", expected);
  return value.get<std::uint64_t>();
}

std::map<std::string, std::string> parse_metadata(const Json& value, std::string_view name) {
  if (!value.is_object()) throw TableFileError(name, "__metadata__", "not an object", "an object of strings");
  std::map<std::string, std::string> metadata;
  for (const auto& [key, entry] : value.items()) {
    if (!entry.is_string()) {
      throw TableFileError(name, "__metadata__", "the value of " + quoted_excerpt(key) + " is not a string",
                           "an object of strings");
    }
    metadata.emplace(key, entry.get<std::string>());
  }
  return metadata;
}

SafetensorsEntry parse_entry(const std::string& tensor, const Json& value, std::string_view name) {
  constexpr std::string_view fields = "an object with 'dtype', 'shape' and 'data_offsets'";
  if (!value.is_object()) throw TableFileError(name, tensor_field(tensor, "entry"), "not an object", fields);
  for (const auto& [key, unused] : value.items()) {
    if (key != "dtype" && key != "shape" && key != "data_offsets") {
      throw TableFileError(name, tensor_field(tensor, "entry"), "unknown field " + quoted_excerpt(key), fields);
    }
  }
  for (const char* key : {"dtype", "shape", "data_offsets"}) {
    if (!value.contains(key)) {
      throw TableFileError(name, tensor_field(tensor, "entry"), "the field '" + std::string(key) + "' is missing", fields);
    }
  }
  SafetensorsEntry entry;
  entry.name = tensor;
  const Json& dtype = value["dtype"];
  if (!dtype.is_string()) throw TableFileError(name, tensor_field(tensor, "dtype"), "not a string", "a dtype such as \"F32\"");
  entry.dtype = dtype.get<std::string>();

  const std::string shape_field = tensor_field(tensor, "shape");
  const Json& shape = value["shape"];
  if (!shape.is_array()) throw TableFileError(name, shape_field, "not an array", "an array of non-negative integers");
  for (const Json& dimension : shape) {
    entry.shape.push_back(unsigned_value(dimension, name, shape_field, "an array of non-negative integers"));
  }

  const std::string offsets_field = tensor_field(tensor, "data_offsets");
  const Json& offsets = value["data_offsets"];
  if (!offsets.is_array() || offsets.size() != 2) {
    throw TableFileError(name, offsets_field, "not an array of two numbers", "[begin, end]");
  }
  entry.begin = unsigned_value(offsets[0], name, offsets_field, "[begin, end] of non-negative integers");
  entry.end = unsigned_value(offsets[1], name, offsets_field, "[begin, end] of non-negative integers");
  return entry;
}

void check_against_data(const SafetensorsEntry& entry, std::uint64_t data_bytes, std::string_view name) {
  const std::string offsets_field = tensor_field(entry.name, "data_offsets");
  if (entry.begin > entry.end) {
    throw TableFileError(name, offsets_field, offsets_text(entry.begin, entry.end) + " ends before it begins",
                         "begin <= end");
  }
  if (entry.end > data_bytes) {
    throw TableFileError(name, offsets_field,
                         offsets_text(entry.begin, entry.end) + " runs past the data area of " +
                             std::to_string(data_bytes) + " bytes",
                         "offsets within the data area");
  }
  const auto itemsize = safetensors_itemsize(entry.dtype);
  if (!itemsize) return;
  // The product of all dimensions, by the same overflow-free check the .npy
  // reader uses, folded one dimension at a time into (rows, 1).
  std::uint64_t elements = 1;
  std::string shape_text = "[";
  for (std::size_t i = 0; i < entry.shape.size(); ++i) shape_text += (i ? ", " : "") + std::to_string(entry.shape[i]);
  shape_text += "] of " + quoted_excerpt(entry.dtype);
  for (const std::uint64_t dimension : entry.shape) {
    if (dimension != 0 && elements > std::numeric_limits<std::uint64_t>::max() / dimension) {
      throw TableFileError(name, tensor_field(entry.name, "shape"), shape_text + " has more than 2^64 elements",
                           "a shape that matches data_offsets");
    }
    elements *= dimension;
  }
  checked_entries(elements, 1, *itemsize, entry.end - entry.begin, name, tensor_field(entry.name, "shape"),
                  shape_text + " at " + offsets_text(entry.begin, entry.end));
}

// The reference implementation's rule: sorted by offset, the tensors cover
// the data area exactly, each starting where the previous one ended.
void check_tiling(std::vector<const SafetensorsEntry*> entries, std::uint64_t data_bytes, std::string_view name) {
  std::sort(entries.begin(), entries.end(), [](const auto* a, const auto* b) {
    return std::pair(a->begin, a->end) < std::pair(b->begin, b->end);
  });
  std::uint64_t covered = 0;
  const SafetensorsEntry* previous = nullptr;
  for (const SafetensorsEntry* entry : entries) {
    if (entry->begin < covered) {
      throw TableFileError(name, tensor_field(entry->name, "data_offsets"),
                           offsets_text(entry->begin, entry->end) + " overlaps tensor " +
                               quoted_excerpt(previous->name) + " at " + offsets_text(previous->begin, previous->end),
                           "tensors that do not overlap");
    }
    if (entry->begin > covered) {
      throw TableFileError(name, tensor_field(entry->name, "data_offsets"),
                           "data bytes [" + std::to_string(covered) + ", " + std::to_string(entry->begin) +
                               ") before it belong to no tensor",
                           "tensors that tile the data area");
    }
    covered = entry->end;
    previous = entry;
  }
  if (covered != data_bytes) {
    throw TableFileError(name, "data", "data bytes [" + std::to_string(covered) + ", " + std::to_string(data_bytes) +
                                           ") belong to no tensor",
                         "tensors that tile the data area");
  }
}

}  // namespace

std::optional<int> safetensors_itemsize(std::string_view dtype) {
  static constexpr std::array<std::pair<std::string_view, int>, 17> sizes{{
      {"BOOL", 1}, {"U8", 1}, {"I8", 1}, {"F8_E5M2", 1}, {"F8_E4M3", 1}, {"F8_E8M0", 1},
      {"I16", 2}, {"U16", 2}, {"F16", 2}, {"BF16", 2},
      {"I32", 4}, {"U32", 4}, {"F32", 4},
      {"I64", 8}, {"U64", 8}, {"F64", 8}, {"C64", 8},
  }};
  for (const auto& [known, size] : sizes) {
    if (dtype == known) return size;
  }
  return std::nullopt;
}

SafetensorsHeader parse_safetensors_header(std::string_view json_text, std::uint64_t data_bytes,
                                           std::string_view name) {
  // JSON never holds a raw NUL, and the JSON parser takes one for the end of
  // its input: a second object behind a NUL would go unread. The format pads
  // the header with spaces (0x20) only, so whatever ends the object but
  // spaces is refused too.
  if (const std::size_t nul = json_text.find('\0'); nul != std::string_view::npos) {
    throw TableFileError(name, "header", "a NUL byte at offset " + std::to_string(nul),
                         "a JSON object padded with spaces only");
  }
  const std::size_t last = json_text.find_last_not_of(' ');
  if (last != std::string_view::npos && json_text[last] != '}') {
    throw TableFileError(name, "header",
                         "ends in " + quoted_excerpt(json_text.substr(last, 1)) + " at offset " + std::to_string(last),
                         "'}' then spaces only");
  }
  StructureCheck structure;
  Json::sax_parse(json_text.begin(), json_text.end(), &structure);
  if (!structure.error.empty()) throw TableFileError(name, "header", structure.error, structure.expected);
  Json root;
  try {
    root = Json::parse(json_text.begin(), json_text.end());
  } catch (const Json::exception& error) {
    // The first pass accepted this text; reaching here would be a bug in
    // either pass, still reported as the file's fault rather than a crash.
    throw TableFileError(name, "header", std::string("invalid JSON: ") + error.what(), "a valid header");
  }
  if (!root.is_object()) throw TableFileError(name, "header", "not a JSON object", "an object of tensors");

  SafetensorsHeader header;
  for (const auto& [key, value] : root.items()) {
    if (key == "__metadata__") {
      header.metadata = parse_metadata(value, name);
    } else {
      header.tensors.push_back(parse_entry(key, value, name));
    }
  }
  std::vector<const SafetensorsEntry*> entries;
  for (const SafetensorsEntry& entry : header.tensors) {
    check_against_data(entry, data_bytes, name);
    entries.push_back(&entry);
  }
  check_tiling(std::move(entries), data_bytes, name);
  return header;
}

}  // namespace pecheck::detail
