#include "pecheck/safetensors.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "table_file_testing.hpp"
#include "pecheck/testing/table_values.hpp"

using namespace pecheck::testing;  // fill_table, flat_at, flat_set, table_of, values_of

namespace pecheck {
namespace {

using namespace pecheck::testing;
using namespace std::string_view_literals;

// A .safetensors file from its parts: the 8-byte length (of the header as
// given, unless claimed_length says otherwise), the header text, the data.
std::vector<std::byte> safetensors_file(std::string_view header, std::span<const std::byte> data,
                                        std::optional<std::uint64_t> claimed_length = std::nullopt) {
  std::vector<std::byte> out;
  append_uint(out, claimed_length.value_or(header.size()), 8, false);
  for (const char c : header) out.push_back(static_cast<std::byte>(c));
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::vector<std::byte> encode_bits(const std::vector<std::uint64_t>& bits, int width) {
  std::vector<std::byte> out;
  for (const std::uint64_t b : bits) append_uint(out, b, width, false);
  return out;
}

std::string dtype_of(FormatId format) {
  switch (format) {
    case FormatId::float64: return "F64";
    case FormatId::float32: return "F32";
    case FormatId::float16: return "F16";
    case FormatId::bfloat16: return "BF16";
  }
  return "";
}

Table table_from_bits(const std::vector<std::uint64_t>& bits, std::int64_t rows, std::int64_t cols, FormatId format) {
  Table table = make_table(rows, cols, format);
  // The bits themselves, stored: a signalling NaN stays signalling.
  const auto width = static_cast<std::size_t>(storage_bytes(format));
  for (std::size_t k = 0; k < bits.size(); ++k) {
    std::memcpy(table.mutable_bytes().data() + k * width, &bits[k], width);  // little-endian host
  }
  return table;
}

struct Layout {
  nlohmann::json header;
  std::span<const std::byte> data;
};

Layout split(std::span<const std::byte> file) {
  const std::uint64_t length = read_uints(file.first(8), 8).front();
  return {nlohmann::json::parse(as_string(file.subspan(8, length))), file.subspan(8 + length)};
}

TEST(SafetensorsRoundTrip, everyFormatIsStoredNativelyAndReadBackBitForBit) {
  RecordProperty("pattern_seed", std::to_string(pattern_seed));
  TempDir dir;
  for (const FormatId format : all_formats) {
    SCOPED_TRACE(dtype_of(format));
    const std::vector<std::uint64_t> bits = interesting_bits(format, 20);
    const auto path = dir / "table.safetensors";
    write_safetensors(path, table_from_bits(bits, 4, 5, format));

    const std::vector<std::byte> file = read_all(path);
    const std::uint64_t header_length = read_uints(std::span(file).first(8), 8).front();
    EXPECT_EQ((8 + header_length) % 8, 0u) << "the data starts 8-byte aligned";
    const Layout layout = split(file);
    const int width = layout_of_format(format).bytes();
    const nlohmann::json expected_header = {
        {"pe", {{"dtype", dtype_of(format)}, {"shape", {4, 5}}, {"data_offsets", {0, 20 * width}}}}};
    EXPECT_EQ(layout.header, expected_header) << "no __metadata__ unless asked for";
    EXPECT_EQ(read_uints(layout.data, width), bits);

    const TableFile read = read_safetensors(path);
    EXPECT_EQ(read.info.dtype, dtype_of(format));
    EXPECT_EQ(read.info.tensor_name, "pe");
    EXPECT_EQ(read.info.ndim, 2);
    EXPECT_EQ(read.table.format, format);
    ASSERT_EQ(read.table.rows, 4);
    ASSERT_EQ(read.table.cols, 5);
    EXPECT_TRUE(are_values_of(values_of(read.table), bits, format));
    EXPECT_EQ(encode_safetensors(read.table, "again"), file) << "NaN payloads must survive";
  }
}

TEST(SafetensorsRoundTrip, metadataAndTensorNameAreKept) {
  TempDir dir;
  const auto path = dir / "named.safetensors";
  const std::map<std::string, std::string> metadata{{"convention", "vaswani"}, {"note", "caf\xc3\xa9"}};
  Table table = make_table(1, 2, FormatId::float32);
  table = table_of(table.rows, table.cols, table.format, {0.25, -1.0});
  write_safetensors(path, table, "positional_encoding", metadata);
  const TableFile read = read_safetensors(path, "positional_encoding");
  EXPECT_EQ(read.info.metadata, metadata);
  EXPECT_EQ(read.info.tensor_name, "positional_encoding");
  EXPECT_EQ(values_of(read.table), values_of(table));
}

// Three tensors, pe in the middle: I64 ids [0, 40), pe F32 2 x 2 [40, 56), other F16 (3,) [56, 62).
std::vector<std::byte> three_tensor_file() {
  std::vector<std::byte> data = encode_bits({0, 1, 2, 3, 4}, 8);
  const auto pe = encode_bits({0x3f800000, 0x40000000, 0x40400000, 0x40800000}, 4);
  const auto other = encode_bits({0x3c00, 0xbc00, 0x0001}, 2);
  data.insert(data.end(), pe.begin(), pe.end());
  data.insert(data.end(), other.begin(), other.end());
  return safetensors_file(
      R"({"other":{"dtype":"F16","shape":[3],"data_offsets":[56,62]},)"
      R"("ids":{"dtype":"I64","shape":[5],"data_offsets":[0,40]},)"
      R"("__metadata__":{"format":"pt"},)"
      R"("pe":{"dtype":"F32","shape":[2,2],"data_offsets":[40,56]}})",
      data);
}

TEST(SafetensorsRead, theNamedTensorIsReadAmongOthers) {
  const auto file = three_tensor_file();
  const TableFile pe = read_safetensors_bytes(file, "three.safetensors", "pe");
  EXPECT_EQ(values_of(pe.table), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(pe.info.metadata.at("format"), "pt");
  const TableFile other = read_safetensors_bytes(file, "three.safetensors", "other");
  EXPECT_EQ(other.info.ndim, 1);
  EXPECT_EQ(other.table.rows, 1) << "a 1-D tensor is one row";
  EXPECT_EQ(other.table.cols, 3);
  EXPECT_EQ(other.table.format, FormatId::float16);
  EXPECT_EQ(values_of(other.table), (std::vector<double>{1, -1, 0x1p-24}));
}

// A buffer registered as (1, N, d) (or (N, 1, d), (1, 1, N, d)) is the (N, d) table.
TEST(SafetensorsRead, tensorsWhoseOtherExtentsAreOneAreReadAsTheTable) {
  const auto data = encode_bits({0x3f800000, 0x40000000, 0x40400000, 0x40800000, 0x40a00000, 0x40c00000}, 4);
  for (const char* shape : {"[3,1,2]", "[1,3,2]", "[1,1,3,2]"}) {
    SCOPED_TRACE(shape);
    const TableFile read = read_safetensors_bytes(
        safetensors_file(std::string(R"({"pe":{"dtype":"F32","shape":)") + shape + R"(,"data_offsets":[0,24]}})", data),
        "pe.safetensors", std::nullopt);
    EXPECT_EQ(read.table.rows, 3);
    EXPECT_EQ(read.table.cols, 2);
    EXPECT_EQ(read.table.at(2, 1), 6.0);
    EXPECT_NE(read.info.shape_note.find("3 rows of 2 columns"), std::string::npos) << read.info.shape_note;
  }
}

TEST(SafetensorsRead, withoutANameSeveralTensorsAreAnErrorListingThem) {
  const auto file = three_tensor_file();
  for (const std::optional<std::string>& name : {std::optional<std::string>(), std::optional<std::string>("missing")}) {
    try {
      read_safetensors_bytes(file, "three.safetensors", name);  // NOLINT(bugprone-unused-return-value)
      FAIL() << "chose a tensor";
    } catch (const TableFileError& error) {
      const std::string message = error.what();
      EXPECT_TRUE(is_good_error_message(message, "three.safetensors", "tensor name"));
      for (const char* listed : {"'ids'", "'other'", "'pe'"}) EXPECT_NE(message.find(listed), std::string::npos) << message;
    }
  }
}

TEST(SafetensorsRead, emptyTensorsAreTables) {
  const auto file = safetensors_file(R"({"pe":{"dtype":"BF16","shape":[0,8],"data_offsets":[0,0]}})", {});
  const TableFile read = read_safetensors_bytes(file, "empty.safetensors");
  EXPECT_EQ(read.table.rows, 0);
  EXPECT_EQ(read.table.cols, 8);
}

TEST(SafetensorsWrite, refusesNamesThatCannotBeReadBack) {
  const Table table = make_table(1, 1, FormatId::float64);
  for (const std::string_view name : {std::string_view(""), std::string_view("__metadata__"), std::string_view("\xff")}) {
    try {
      encode_safetensors(table, "bad.safetensors", name);
      FAIL() << "wrote a tensor named " << name;
    } catch (const TableFileError& error) {
      EXPECT_TRUE(is_good_error_message(error.what(), "bad.safetensors", "tensor name"));
    }
  }
  EXPECT_THROW(encode_safetensors(table, "bad.safetensors", "pe", {{"k", "\xc3"}}), TableFileError);
}

TEST(SafetensorsInterop, anIndependentReaderReadsWhatPecheckWrites) {
  const auto python = python_with_numpy();
  if (!python) GTEST_SKIP() << "no python3 with numpy";
  TempDir dir;
  for (const FormatId format : all_formats) {
    SCOPED_TRACE(dtype_of(format));
    const std::vector<std::uint64_t> bits = interesting_bits(format, 12);
    const auto path = dir / "pecheck.safetensors";
    write_safetensors(path, table_from_bits(bits, 3, 4, format), "pe", {{"convention", "vaswani"}});
    const CommandResult result = run_interop(*python, "dump-safetensors " + shell_quote(path.string()) + " pe");
    ASSERT_EQ(result.status, 0) << result.output;
    const InteropRecord record = parse_interop_record(result.output);
    EXPECT_EQ(record.dtype, dtype_of(format));
    EXPECT_EQ(record.rows, 3);
    EXPECT_EQ(record.cols, 4);
    EXPECT_EQ(record.metadata, R"({"convention":"vaswani"})");
    EXPECT_EQ(record.bits, bits);
  }
}

TEST(SafetensorsInterop, pecheckReadsWhatAnIndependentWriterWrites) {
  const auto python = python_with_numpy();
  if (!python) GTEST_SKIP() << "no python3 with numpy";
  TempDir dir;
  const CommandResult written = run_interop(*python, "write-safetensors " + shell_quote(dir.path().string()));
  ASSERT_EQ(written.status, 0) << written.output;
  const std::vector<InteropFile> files = interop_files(dir.path(), ".safetensors");
  for (const auto& [path, expected] : files) {
    SCOPED_TRACE(path.filename().string());
    const TableFile read = read_safetensors(path, "pe");
    EXPECT_EQ(read.info.dtype, expected.dtype);
    EXPECT_EQ(read.info.ndim, expected.ndim);
    EXPECT_EQ(nlohmann::json(read.info.metadata), nlohmann::json::parse(expected.metadata));
    ASSERT_EQ(read.table.rows, expected.rows);
    ASSERT_EQ(read.table.cols, expected.cols);
    EXPECT_TRUE(are_values_of(values_of(read.table), expected.bits, read.table.format));
    EXPECT_EQ(read_uints(split(encode_safetensors(read.table, "again")).data, layout_of_format(read.table.format).bytes()),
              expected.bits);
  }
  EXPECT_EQ(files.size(), 8u);
}

// Every input here is malformed; each must raise TableFileError naming the
// file and the field at fault, on one line.
std::vector<MalformedCase> malformed_safetensors_cases() {
  const auto data = encode_bits({0x3f800000, 0x40000000, 0x40400000, 0x40800000, 0x40a00000, 0x40c00000}, 4);
  const auto with_header = [&](const std::string& header) { return safetensors_file(header, data); };
  const auto with_entry = [&](const std::string& entry) { return with_header(R"({"pe":)" + entry + "}"); };
  const std::string good_header = R"({"pe":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]}})";
  const auto good = with_header(good_header);
  const auto prefix = [&](std::size_t n) {
    return std::vector<std::byte>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
  };
  auto longer = good;
  longer.push_back(std::byte{0});
  std::string deep = R"({"pe":{"dtype":"F32","shape":[[[[[[2]]]]],3],"data_offsets":[0,24]}})";

  std::vector<MalformedCase> cases{
      {"empty", {}, "header length"},
      {"truncated_in_length", prefix(5), "header length"},
      {"zero_length_header", safetensors_file("", data), "header length"},
      {"header_length_past_end", safetensors_file(good_header, data, good_header.size() + data.size() + 1), "header length"},
      {"header_length_huge", safetensors_file(good_header, data, std::uint64_t{1} << 63), "header length"},
      {"header_length_over_limit", safetensors_file(good_header, data, 100'000'001), "header length"},
      {"truncated_in_header", prefix(30), "header length"},
      {"truncated_in_data", prefix(good.size() - 3), "data_offsets"},
      {"byte_after_data", longer, "data"},
      {"npy_file", to_bytes("\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }"sv),
       "header length"},
      {"bad_json", with_header(R"({"pe":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]})"), "header"},
      {"trailing_garbage", with_header(good_header + " x"), "header"},
      // The format pads a header with spaces (0x20) only. A NUL used to end
      // parsing, so a second object could hide behind it.
      {"nul_hides_a_second_tensor",
       with_header(good_header + std::string(1, '\0') + R"({"pe":{"dtype":"F32","shape":[6],"data_offsets":[0,24]}})"),
       "header"},
      {"nul_padding", with_header(good_header + std::string(4, '\0')), "header"},
      {"newline_after_object", with_header(good_header + "\n"), "header"},
      {"tab_after_object", with_header(good_header + "  \t"), "header"},
      {"not_an_object", with_header("[1, 2, 3]"), "header"},
      {"leading_space", with_header(" " + good_header), "header"},
      {"non_utf8_name", with_header(R"({"p)" "\xff" R"(":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]}})"), "header"},
      {"duplicate_tensor", with_header(R"({"pe":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]},)"
                                       R"("pe":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]}})"),
       "header"},
      {"duplicate_field", with_entry(R"({"dtype":"F32","dtype":"F64","shape":[2,3],"data_offsets":[0,24]})"), "header"},
      {"nested_too_deep", with_header(deep), "header"},
      {"number_overflow", with_entry(R"({"dtype":"F32","shape":[2,3],"data_offsets":[0,1e400]})"), "header"},
      {"offsets_past_data", with_entry(R"({"dtype":"F32","shape":[2,3],"data_offsets":[8,32]})"), "data_offsets"},
      {"offsets_at_uint64_max", with_entry(R"({"dtype":"F32","shape":[2,3],"data_offsets":[0,18446744073709551615]})"),
       "data_offsets"},
      {"offsets_reversed", with_entry(R"({"dtype":"F32","shape":[0,3],"data_offsets":[24,0]})"), "data_offsets"},
      {"offsets_three_numbers", with_entry(R"({"dtype":"F32","shape":[2,3],"data_offsets":[0,24,24]})"), "data_offsets"},
      {"offsets_negative", with_entry(R"({"dtype":"F32","shape":[2,3],"data_offsets":[-8,16]})"), "data_offsets"},
      {"overlapping_tensors", with_header(R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},)"
                                          R"("pe":{"dtype":"F32","shape":[4],"data_offsets":[8,24]}})"),
       "data_offsets"},
      {"gap_between_tensors", with_header(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                                          R"("pe":{"dtype":"F32","shape":[4],"data_offsets":[8,24]}})"),
       "data_offsets"},
      {"shape_lies", with_entry(R"({"dtype":"F32","shape":[3,3],"data_offsets":[0,24]})"), "shape"},
      {"shape_overflows", with_entry(R"({"dtype":"F32","shape":[4294967296,4294967296,16],"data_offsets":[0,24]})"),
       "shape"},
      {"shape_negative", with_entry(R"({"dtype":"F32","shape":[-2,-3],"data_offsets":[0,24]})"), "shape"},
      {"shape_float", with_entry(R"({"dtype":"F32","shape":[2.0,3],"data_offsets":[0,24]})"), "shape"},
      {"shape_not_array", with_entry(R"({"dtype":"F32","shape":"2x3","data_offsets":[0,24]})"), "shape"},
      {"three_dimensions", with_entry(R"({"dtype":"F32","shape":[2,3,1],"data_offsets":[0,24]})"), "shape"},
      {"zero_dimensions",
       safetensors_file(R"({"pe":{"dtype":"F32","shape":[],"data_offsets":[0,4]}})", std::span(data).first(4)),
       "shape"},
      {"int64_dtype", with_entry(R"({"dtype":"I64","shape":[3],"data_offsets":[0,24]})"), "dtype"},
      {"unknown_dtype", with_entry(R"({"dtype":"F12","shape":[2,3],"data_offsets":[0,24]})"), "dtype"},
      {"dtype_not_string", with_entry(R"({"dtype":32,"shape":[2,3],"data_offsets":[0,24]})"), "dtype"},
      {"missing_offsets", with_entry(R"({"dtype":"F32","shape":[2,3]})"), "entry"},
      {"unknown_field", with_entry(R"({"dtype":"F32","shape":[2,3],"data_offsets":[0,24],"order":"C"})"), "entry"},
      {"entry_not_object", with_entry(R"(["F32",[2,3],[0,24]])"), "entry"},
      {"metadata_not_object", with_header(R"({"__metadata__":"pt",)" + good_header.substr(1)), "__metadata__"},
      {"metadata_value_not_string", with_header(R"({"__metadata__":{"n":1},)" + good_header.substr(1)), "__metadata__"},
      {"no_tensor", safetensors_file("{}", {}), "header"},
      {"two_tensors_no_name", with_header(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                          R"("b":{"dtype":"F32","shape":[4],"data_offsets":[8,24]}})"),
       "tensor name"},
  };
  return cases;
}

TEST(SafetensorsMalformed, everyMalformedInputRaisesAOneLineErrorNamingTheFileAndField) {
  const auto cases = malformed_safetensors_cases();
  EXPECT_GE(cases.size(), 30u);
  expect_every_malformed_input_refused(cases, ".safetensors",
                                       [](const std::filesystem::path& path) { return read_safetensors(path); });
}

TEST(SafetensorsRead, aHeaderPaddedWithSpacesIsRead) {
  const auto file = safetensors_file(R"({"pe":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})" + std::string(7, ' '),
                                     encode_bits({0x3f800000, 0x40000000}, 4));
  const TableFile read = read_safetensors_bytes(file, "padded.safetensors");
  EXPECT_EQ(read.table.at(0, 1), 2.0);
}

TEST(SafetensorsMalformed, nanIsAValueNotAFormatError) {
  const auto file = safetensors_file(R"({"pe":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]}})",
                                     encode_bits({0x7fc1, 0xff80}, 2));
  const TableFile read = read_safetensors_bytes(file, "nan.safetensors");
  EXPECT_TRUE(std::isnan(flat_at(read.table, static_cast<std::int64_t>(0))));
  EXPECT_EQ(flat_at(read.table, static_cast<std::int64_t>(1)), -std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace pecheck
