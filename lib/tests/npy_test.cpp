#include "pecheck/npy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "table_file_testing.hpp"
#include "pecheck/testing/table_values.hpp"

using namespace pecheck::testing;  // fill_table, flat_at, flat_set, table_of, values_of

namespace pecheck {
namespace {

using namespace pecheck::testing;

// An .npy file from its parts. The dict is padded with spaces and a newline so
// the data starts at a multiple of 64, as NumPy writes it, unless the header
// is given whole (raw_header).
std::vector<std::byte> npy_file(int major, std::string_view dict, std::span<const std::byte> data, int minor = 0,
                                bool raw_header = false) {
  const std::size_t preamble = major == 1 ? 10 : 12;
  std::string header(dict);
  if (!raw_header) {
    const std::size_t unpadded = preamble + header.size() + 1;
    header += std::string((64 - unpadded % 64) % 64, ' ') + "\n";
  }
  std::vector<std::byte> out = to_bytes("\x93NUMPY");
  out.push_back(static_cast<std::byte>(major));
  out.push_back(static_cast<std::byte>(minor));
  append_uint(out, header.size(), major == 1 ? 2 : 4, false);
  for (const char c : header) out.push_back(static_cast<std::byte>(c));
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::vector<std::byte> encode_bits(const std::vector<std::uint64_t>& bits, int width, bool big_endian) {
  std::vector<std::byte> out;
  for (const std::uint64_t b : bits) append_uint(out, b, width, big_endian);
  return out;
}

std::string npy_dict(std::string_view descr, bool fortran, std::string_view shape) {
  return "{'descr': '" + std::string(descr) + "', 'fortran_order': " + (fortran ? "True" : "False") +
         ", 'shape': " + std::string(shape) + ", }";
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

// The data area of an .npy file (after the header its preamble announces).
std::span<const std::byte> npy_data(std::span<const std::byte> file) {
  const bool version_1 = std::to_integer<int>(file[6]) == 1;
  const std::size_t preamble = version_1 ? 10 : 12;
  const std::uint64_t length = read_uints(file.subspan(8, version_1 ? 2 : 4), version_1 ? 2 : 4).front();
  return file.subspan(preamble + length);
}

FormatId format_of_itemsize(int itemsize) {
  return itemsize == 2 ? FormatId::float16 : itemsize == 4 ? FormatId::float32 : FormatId::float64;
}

TEST(NpyRoundTrip, everyFormatIsWrittenAndReadBackBitForBit) {
  RecordProperty("pattern_seed", std::to_string(pattern_seed));
  TempDir dir;
  for (const FormatId format : all_formats) {
    SCOPED_TRACE(std::string(format == FormatId::float64   ? "float64"
                             : format == FormatId::float32 ? "float32"
                             : format == FormatId::float16 ? "float16"
                                                           : "bfloat16"));
    const std::vector<std::uint64_t> bits = interesting_bits(format, 24);
    const Table written = table_from_bits(bits, 4, 6, format);
    const auto path = dir / "table.npy";
    write_npy(path, written);

    // The stored bits are the patterns themselves; bfloat16 is stored as the
    // float32 with the same value, the pattern in the top half.
    const bool bfloat16 = format == FormatId::bfloat16;
    const int width = bfloat16 ? 4 : layout_of_format(format).bytes();
    std::vector<std::uint64_t> expected_stored = bits;
    if (bfloat16) {
      for (auto& b : expected_stored) b <<= 16;
    }
    const std::vector<std::byte> file = read_all(path);
    EXPECT_EQ(read_uints(npy_data(file), width), expected_stored);

    const TableFile read = read_npy(path);
    EXPECT_EQ(read.table.rows, 4);
    EXPECT_EQ(read.table.cols, 6);
    EXPECT_EQ(read.table.format, bfloat16 ? FormatId::float32 : format);
    EXPECT_EQ(read.info.dtype, "<f" + std::to_string(width));
    EXPECT_EQ(read.info.version, "1.0");
    EXPECT_TRUE(are_values_of(values_of(read.table), bits, format));
    // Written again, the table read gives the same file, NaN payloads included.
    EXPECT_EQ(encode_npy(read.table), file);
  }
}

TEST(NpyRead, everyVersionByteOrderLayoutAndWidthReadsTheSameValues) {
  RecordProperty("pattern_seed", std::to_string(pattern_seed));
  for (const int major : {1, 2, 3}) {
    for (const bool big_endian : {false, true}) {
      for (const bool fortran : {false, true}) {
        for (const int itemsize : {2, 4, 8}) {
          for (const int ndim : {1, 2}) {
            const FormatId format = format_of_itemsize(itemsize);
            const std::int64_t rows = ndim == 1 ? 1 : 3;
            const std::int64_t cols = ndim == 1 ? 7 : 5;
            const std::string descr = std::string(big_endian ? ">" : "<") + "f" + std::to_string(itemsize);
            SCOPED_TRACE(descr + " version " + std::to_string(major) + (fortran ? " fortran " : " C ") +
                         std::to_string(ndim) + "-D");
            const std::vector<std::uint64_t> bits = interesting_bits(format, static_cast<std::size_t>(rows * cols));
            // Fortran order stores column after column.
            std::vector<std::uint64_t> stored;
            for (std::int64_t j = 0; j < (fortran ? cols : 1); ++j) {
              for (std::int64_t i = 0; i < (fortran ? rows : rows * cols); ++i) {
                stored.push_back(bits[static_cast<std::size_t>(fortran ? i * cols + j : i)]);
              }
            }
            const std::string shape = ndim == 1 ? "(" + std::to_string(cols) + ",)"
                                                : "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
            const auto file = npy_file(major, npy_dict(descr, fortran, shape), encode_bits(stored, itemsize, big_endian));
            const TableFile read = read_npy_bytes(file, "built.npy");

            EXPECT_EQ(read.info.dtype, descr);
            EXPECT_EQ(read.info.byte_order, big_endian ? ByteOrder::big : ByteOrder::little);
            EXPECT_EQ(read.info.storage_order, fortran ? StorageOrder::column_major : StorageOrder::row_major);
            EXPECT_EQ(read.info.ndim, ndim);
            EXPECT_EQ(read.info.version, std::to_string(major) + ".0");
            ASSERT_EQ(read.table.rows, rows);
            ASSERT_EQ(read.table.cols, cols);
            EXPECT_EQ(read.table.format, format);
            EXPECT_TRUE(are_values_of(values_of(read.table), bits, format));
            const auto rewritten = encode_npy(read.table);
            EXPECT_EQ(read_uints(npy_data(rewritten), itemsize), bits) << "NaN payloads must survive";
          }
        }
      }
    }
  }
}

// The rows a reader says are in place hold their values when it says so:
// each count a whole number of rows, increasing, the last the table's rows,
// the same table every call; and the table read with the hook is the one read
// without it. Row-major payloads come in blocks of about 1 MiB (3000 rows of
// 200 float32 values: 1310 rows a block, the last block short), swapped in
// place for a big-endian file; Fortran order once, at the end.
TEST(NpyRead, rowsInPlaceAreToldAsTheyArriveAndHoldTheirValues) {
  TempDir dir;
  const std::int64_t rows = 3000;
  const std::int64_t cols = 200;
  std::vector<std::uint64_t> bits(static_cast<std::size_t>(rows * cols));
  for (std::size_t k = 0; k < bits.size(); ++k) bits[k] = std::bit_cast<std::uint32_t>(static_cast<float>(k) * 0.25f);
  const Table expected = table_from_bits(bits, rows, cols, FormatId::float32);
  for (const bool big_endian : {false, true}) {
    for (const bool fortran : {false, true}) {
      SCOPED_TRACE(std::string(big_endian ? "big-endian" : "little-endian") + (fortran ? ", Fortran order" : ""));
      std::vector<std::uint64_t> stored = bits;
      if (fortran) {
        for (std::int64_t r = 0; r < rows; ++r) {
          for (std::int64_t c = 0; c < cols; ++c)
            stored[static_cast<std::size_t>(c * rows + r)] = bits[static_cast<std::size_t>(r * cols + c)];
        }
      }
      const auto file =
          npy_file(1, npy_dict(big_endian ? ">f4" : "<f4", fortran, "(3000, 200)"), encode_bits(stored, 4, big_endian));
      write_bytes(dir / "t.npy", file);
      std::vector<std::int64_t> told;
      const Table* seen = nullptr;
      const TableFile read = read_npy(dir / "t.npy", any_table_rows, [&](const Table& table, std::int64_t in_place) {
        if (seen == nullptr) seen = &table;
        EXPECT_EQ(seen, &table);
        told.push_back(in_place);
        ASSERT_LE(in_place, rows);
        // The rows in place already hold their values.
        const auto bytes = static_cast<std::size_t>(in_place * cols) * sizeof(float);
        EXPECT_EQ(std::memcmp(table.bytes().data(), expected.bytes().data(), bytes), 0) << in_place << " rows";
      });
      ASSERT_FALSE(told.empty());
      EXPECT_EQ(told.back(), rows);
      EXPECT_TRUE(std::is_sorted(told.begin(), told.end()));
      EXPECT_EQ(std::adjacent_find(told.begin(), told.end()), told.end()) << "a count told twice";
      EXPECT_EQ(told.size(), fortran ? 1u : 3u);
      EXPECT_EQ(values_of(read.table), values_of(expected));
      EXPECT_EQ(values_of(read.table), values_of(read_npy(dir / "t.npy").table));
    }
  }
}

TEST(NpyRead, headersNumpyAndPythonWouldAcceptAreRead) {
  const std::vector<std::byte> data = encode_bits({0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600}, 2, false);
  for (const std::string_view dict : {
           std::string_view("{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }"),
           std::string_view("{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3)}"),
           std::string_view("{'shape': (2, 3), 'fortran_order': False, 'descr': '<f2'}"),
           std::string_view("{'fortran_order': False, 'descr': '<f2', 'shape': (2, 3,),}"),
           std::string_view("{\"descr\": \"<f2\", \"fortran_order\": False, \"shape\": (2, 3)}"),
           std::string_view("{'descr':'<f2','fortran_order':False,'shape':(2,3)}"),
           std::string_view("{ 'descr' : '<f2' , 'fortran_order' : False , 'shape' : ( 2 , 3 ) , }"),
       }) {
    SCOPED_TRACE(std::string(dict));
    const TableFile read = read_npy_bytes(npy_file(1, dict, data), "variant.npy");
    EXPECT_EQ(read.table.rows, 2);
    EXPECT_EQ(read.table.cols, 3);
    EXPECT_EQ(values_of(read.table), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  }
}

TEST(NpyRead, oneDimensionalArrayIsOneRowAndEmptyShapesAreTables) {
  const TableFile vector = read_npy_bytes(npy_file(1, npy_dict("<f8", false, "(3,)"), encode_bits({0, 0, 0}, 8, false)), "v");
  EXPECT_EQ(vector.table.rows, 1);
  EXPECT_EQ(vector.table.cols, 3);
  EXPECT_EQ(vector.info.ndim, 1);
  const TableFile empty = read_npy_bytes(npy_file(1, npy_dict("<f4", false, "(0, 16)"), {}), "e");
  EXPECT_EQ(empty.table.rows, 0);
  EXPECT_EQ(empty.table.cols, 16);
  EXPECT_TRUE(values_of(empty.table).empty());
}

// Buffers dumped as registered: (N, 1, d), (1, N, d), (1, 1, N, d) are the
// (N, d) table, in either storage order, and the reader says what it read.
TEST(NpyRead, arraysWhoseOtherExtentsAreOneAreReadAsTheTable) {
  std::vector<std::uint64_t> c_order;
  for (int k = 0; k < 12; ++k) c_order.push_back(std::bit_cast<std::uint64_t>(static_cast<double>(k)));
  std::vector<std::uint64_t> fortran_order;
  for (int col = 0; col < 4; ++col) {
    for (int row = 0; row < 3; ++row) fortran_order.push_back(c_order[static_cast<std::size_t>(row * 4 + col)]);
  }
  for (const char* shape : {"(3, 1, 4)", "(1, 3, 4)", "(1, 1, 3, 4)"}) {
    for (const bool fortran : {false, true}) {
      SCOPED_TRACE(std::string(shape) + (fortran ? " Fortran order" : " C order"));
      const TableFile read = read_npy_bytes(
          npy_file(1, npy_dict("<f8", fortran, shape), encode_bits(fortran ? fortran_order : c_order, 8, false)), "b.npy");
      ASSERT_EQ(read.table.rows, 3);
      ASSERT_EQ(read.table.cols, 4);
      for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 4; ++col) EXPECT_EQ(read.table.at(row, col), row * 4 + col);
      }
      EXPECT_NE(read.info.shape_note.find(shape), std::string::npos) << read.info.shape_note;
      EXPECT_NE(read.info.shape_note.find("3 rows of 4 columns"), std::string::npos) << read.info.shape_note;
    }
  }
  const TableFile plain = read_npy_bytes(npy_file(1, npy_dict("<f8", false, "(3, 4)"), encode_bits(c_order, 8, false)), "p");
  EXPECT_TRUE(plain.info.shape_note.empty());
}

TEST(NpyWrite, headerFollowsNumpysLayoutRules) {
  for (const auto& [rows, cols] : {std::pair<std::int64_t, std::int64_t>{0, 0}, {1, 1}, {3, 4}, {12345, 7},
                                   {std::int64_t{1} << 31, 0}}) {
    SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(cols));
    const Table table = make_table(rows, cols, FormatId::float64);
    const std::vector<std::byte> file = encode_npy(table);
    ASSERT_GE(file.size(), 64u);
    EXPECT_EQ(as_string(std::span(file).first(6)), "\x93NUMPY");
    EXPECT_EQ(std::to_integer<int>(file[6]), 1);
    EXPECT_EQ(std::to_integer<int>(file[7]), 0);
    const std::size_t header_length = read_uints(std::span(file).subspan(8, 2), 2).front();
    const std::size_t data_start = 10 + header_length;
    EXPECT_EQ(data_start % 64, 0u) << "NumPy aligns the data to 64 bytes";
    EXPECT_EQ(std::to_integer<char>(file[data_start - 1]), '\n');
    const std::string header = as_string(std::span(file).subspan(10, header_length));
    const std::string dict = npy_dict("<f8", false, "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")");
    EXPECT_EQ(header.substr(0, dict.size()), dict);
    EXPECT_EQ(header.find_first_not_of(' ', dict.size()), header.size() - 1) << "only spaces before the newline";
    EXPECT_EQ(file.size(), data_start + static_cast<std::size_t>(table.rows * table.cols) * 8);
  }
}

TEST(NpyWrite, storesABfloat16TableAsTheFloat32ValuesItHolds) {
  Table table = make_table(1, 3, FormatId::bfloat16);
  table.set(0, 0, 1.0 + 1.0 / 128);  // bfloat16 has 7 fraction bits: exact
  table.set(0, 1, -0x1p-133);        // its smallest subnormal
  table.set(0, 2, std::numeric_limits<double>::infinity());
  const TableFile read = read_npy_bytes(encode_npy(table), "b.npy");
  EXPECT_EQ(read.info.dtype, "<f4");
  EXPECT_EQ(values_of(read.table), values_of(table));
}

TEST(NpyWrite, failureNamesThePathAndTheReasonAndLeavesNoTemporary) {
  TempDir dir;
  const Table table = make_table(2, 2, FormatId::float32);
  const auto missing = dir / "no-such-directory" / "table.npy";
  try {
    write_npy(missing, table);
    FAIL() << "wrote into a missing directory";
  } catch (const TableFileError& error) {
    EXPECT_TRUE(is_good_error_message(error.what(), missing.string(), "write"));
    EXPECT_NE(std::string(error.what()).find("No such file or directory"), std::string::npos) << error.what();
  }
  // The rename fails when the target is a directory: the temporary must go.
  const auto occupied = dir / "occupied.npy";
  std::filesystem::create_directory(occupied);
  EXPECT_THROW(write_npy(occupied, table), TableFileError);
  const auto entries = std::distance(std::filesystem::directory_iterator(dir.path()), {});
  EXPECT_EQ(entries, 1) << "only the directory itself is left";
}

TEST(NpyWrite, replacesAnExistingFileWhole) {
  TempDir dir;
  const auto path = dir / "table.npy";
  write_npy(path, make_table(50, 50, FormatId::float64));
  Table small = make_table(1, 2, FormatId::float32);
  small = table_of(small.rows, small.cols, small.format, {0.5, -2.0});
  write_npy(path, small);
  EXPECT_EQ(values_of(read_npy(path).table), values_of(small));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);
}

TEST(NpyInterop, numpyReadsWhatPecheckWrites) {
  const auto python = python_with_numpy();
  if (!python) GTEST_SKIP() << "no python3 with numpy";
  TempDir dir;
  for (const FormatId format : all_formats) {
    const std::vector<std::uint64_t> bits = interesting_bits(format, 15);
    const auto path = dir / "pecheck.npy";
    write_npy(path, table_from_bits(bits, 3, 5, format));
    const CommandResult result = run_interop(*python, "dump-npy " + shell_quote(path.string()));
    ASSERT_EQ(result.status, 0) << result.output;
    const InteropRecord record = parse_interop_record(result.output);
    const bool bfloat16 = format == FormatId::bfloat16;
    EXPECT_EQ(record.dtype, "<f" + std::to_string(bfloat16 ? 4 : layout_of_format(format).bytes()));
    EXPECT_FALSE(record.fortran);
    EXPECT_EQ(record.version, "1.0");
    EXPECT_EQ(record.rows, 3);
    EXPECT_EQ(record.cols, 5);
    std::vector<std::uint64_t> expected = bits;
    if (bfloat16) {
      for (auto& b : expected) b <<= 16;
    }
    EXPECT_EQ(record.bits, expected);
  }
}

TEST(NpyInterop, pecheckReadsWhatNumpyWrites) {
  const auto python = python_with_numpy();
  if (!python) GTEST_SKIP() << "no python3 with numpy";
  TempDir dir;
  const CommandResult written = run_interop(*python, "write-npy " + shell_quote(dir.path().string()));
  ASSERT_EQ(written.status, 0) << written.output;
  const std::vector<InteropFile> files = interop_files(dir.path(), ".npy");
  for (const auto& [path, expected] : files) {
    SCOPED_TRACE(path.filename().string());
    const TableFile read = read_npy(path);
    EXPECT_EQ(read.info.dtype, expected.dtype);
    EXPECT_EQ(read.info.storage_order == StorageOrder::column_major, expected.fortran);
    EXPECT_EQ(read.info.ndim, expected.ndim);
    EXPECT_EQ(read.info.version, expected.version);
    ASSERT_EQ(read.table.rows, expected.rows);
    ASSERT_EQ(read.table.cols, expected.cols);
    EXPECT_TRUE(are_values_of(values_of(read.table), expected.bits, read.table.format));
    const int width = layout_of_format(read.table.format).bytes();
    EXPECT_EQ(read_uints(npy_data(encode_npy(read.table)), width), expected.bits);
  }
  EXPECT_EQ(files.size(), 3u * 2 * 2 * 2 * 3);
}

// Every input here is malformed; each must raise TableFileError naming the
// file and the field at fault, on one line.
std::vector<MalformedCase> malformed_npy_cases() {
  const auto data = encode_bits(std::vector<std::uint64_t>(12, 0x3f800000), 4, false);  // twelve 1.0f
  const std::string good_dict = npy_dict("<f4", false, "(3, 4)");
  const auto good = npy_file(1, good_dict, data);
  const auto with_dict = [&](const std::string& dict) { return npy_file(1, dict, data); };
  const auto with_shape = [&](const std::string& shape) { return with_dict(npy_dict("<f4", false, shape)); };
  const auto with_descr = [&](const std::string& descr) { return with_dict(npy_dict(descr, false, "(3, 4)")); };
  const auto prefix = [&](std::size_t n) { return std::vector<std::byte>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)); };
  const auto with_byte = [&](std::size_t offset, unsigned char value) {
    auto bytes = good;
    bytes[offset] = static_cast<std::byte>(value);
    return bytes;
  };
  auto longer = good;
  longer.push_back(std::byte{0});
  auto v2_past_end = npy_file(2, good_dict, data);
  v2_past_end[11] = std::byte{0xff};  // the top byte of the 4-byte length
  auto zero_length = prefix(8);
  append_uint(zero_length, 0, 2, false);

  std::vector<MalformedCase> cases{
      {"empty", {}, "magic"},
      {"truncated_in_magic", prefix(3), "magic"},
      {"wrong_magic", with_byte(5, 'Z'), "magic"},
      {"text_file", to_bytes("descr,shape\n<f4,3 4\n"), "magic"},
      {"truncated_after_magic", prefix(6), "version"},
      {"truncated_in_header_length", prefix(9), "header length"},
      {"version_4_0", with_byte(6, 4), "version"},
      {"version_1_1", with_byte(7, 1), "version"},
      {"version_0_0", with_byte(6, 0), "version"},
      {"zero_length_header", zero_length, "header length"},
      {"header_length_past_end", with_byte(9, 0x7f), "header length"},
      {"v2_header_length_past_end", v2_past_end, "header length"},
      {"truncated_in_header", prefix(40), "header length"},
      {"truncated_in_data", prefix(good.size() - 1), "shape"},
      {"byte_after_data", longer, "shape"},
      {"shape_lies", with_shape("(4, 4)"), "shape"},
      {"huge_shape", with_shape("(1099511627776, 1099511627776)"), "shape"},
      {"overflowing_shape", with_shape("(4611686018427387904, 4611686018427387904)"), "shape"},
      {"dimension_past_int64", with_shape("(99999999999999999999, 4)"), "shape"},
      {"negative_dimension", with_shape("(-3, 4)"), "shape"},
      {"leading_zero_dimension", with_shape("(03, 4)"), "shape"},
      {"integer_not_tuple", with_shape("(12)"), "shape"},
      {"shape_is_a_list", with_shape("[3, 4]"), "shape"},
      {"three_dimensions", with_shape("(3, 2, 2)"), "shape"},
      {"four_dimensions_not_led_by_ones", with_shape("(3, 1, 1, 4)"), "shape"},
      {"zero_dimensions", npy_file(1, npy_dict("<f4", false, "()"), encode_bits({0}, 4, false)), "shape"},
      {"int32_dtype", with_descr("<i4"), "descr"},
      {"complex_dtype", with_descr("<c8"), "descr"},
      {"object_dtype", with_descr("|O"), "descr"},
      {"native_byte_order", with_descr("=f4"), "descr"},
      {"not_applicable_byte_order", with_descr("|f4"), "descr"},
      {"structured_dtype", with_dict("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3, 4), }"), "descr"},
      {"descr_not_a_string", with_dict("{'descr': 4, 'fortran_order': False, 'shape': (3, 4), }"), "descr"},
      {"fortran_order_not_bool", with_dict("{'descr': '<f4', 'fortran_order': 'no', 'shape': (3, 4), }"), "fortran_order"},
      {"unterminated_dict", with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), "), "header"},
      {"unterminated_string", with_dict("{'descr': '<f4, 'fortran_order': False, 'shape': (3, 4), }"), "header"},
      {"escape_in_string", with_dict("{'descr': '<f\\x34', 'fortran_order': False, 'shape': (3, 4), }"), "header"},
      {"duplicate_key", with_dict("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }"), "header"},
      {"unknown_key", with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), 'extra': 1, }"), "header"},
      {"missing_key", with_dict("{'descr': '<f4', 'shape': (3, 4), }"), "header"},
      {"not_a_dict", with_dict("['<f4', False, (3, 4)]"), "header"},
      {"missing_comma", with_dict("{'descr': '<f4' 'fortran_order': False, 'shape': (3, 4), }"), "header"},
      {"newline_inside_dict", with_dict("{'descr': '<f4',\n'fortran_order': False, 'shape': (3, 4), }"), "header"},
      {"junk_after_dict", with_dict(good_dict + " x"), "header"},
      {"no_final_newline", npy_file(1, good_dict + "    ", data, 0, true), "header"},
      {"non_ascii_in_v1_header", with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), '\xc3\xa9': 1}"), "header"},
      {"non_utf8_in_v3_header", npy_file(3, "{'descr': '<f4\xff', 'fortran_order': False, 'shape': (3, 4), }", data), "header"},
      {"nul_in_header", with_byte(12, 0), "header"},
  };
  return cases;
}

TEST(NpyMalformed, everyMalformedInputRaisesAOneLineErrorNamingTheFileAndField) {
  const auto cases = malformed_npy_cases();
  EXPECT_GE(cases.size(), 30u);
  expect_every_malformed_input_refused(cases, ".npy", [](const std::filesystem::path& path) { return read_npy(path); });
}

TEST(NpyMalformed, nanAndInfinityAreValuesNotFormatErrors) {
  const auto file = npy_file(1, npy_dict("<f4", false, "(1, 3)"), encode_bits({0x7fc00000, 0x7f800000, 0xff800001}, 4, false));
  const TableFile read = read_npy_bytes(file, "nan.npy");
  EXPECT_TRUE(std::isnan(flat_at(read.table, static_cast<std::int64_t>(0))));
  EXPECT_TRUE(std::isinf(flat_at(read.table, static_cast<std::int64_t>(1))));
  EXPECT_TRUE(std::isnan(flat_at(read.table, static_cast<std::int64_t>(2))));
}

}  // namespace
}  // namespace pecheck
