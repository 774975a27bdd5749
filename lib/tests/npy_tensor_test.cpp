// Typed N-d arrays (npy_tensor.hpp): written and read back bit for bit in
// their own format at the payload's size, Fortran order and byte order
// handled, integers refused naming the file; and borrowed tables
// (table.hpp), which read a caller's buffer where it is.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "pecheck/npy_array.hpp"
#include "pecheck/npy_tensor.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/testing/npy_bytes.hpp"
#include "pecheck/testing/temp_dir.hpp"

namespace pecheck {
namespace {

Table counting(std::int64_t rows, std::int64_t cols, FormatId format) {
  Table t = make_table(rows, cols, format);
  for (std::int64_t k = 0; k < t.size(); ++k) t.set_flat(k, 0.25 * static_cast<double>(k) - 3.0);
  return t;
}

TEST(NpyTensor, aFourAxisArrayRoundTripsInItsOwnFormat) {
  const testing::TempDir dir;
  for (const FormatId format : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
    const Table values = counting(2 * 3 * 4, 8, format);
    const std::vector<std::int64_t> shape = {2, 3, 4, 8};
    write_npy_tensor(dir.path() / "a.npy", values.view(), shape);
    const NpyTensor back = read_npy_tensor(dir.path() / "a.npy");
    EXPECT_EQ(back.shape, shape);
    // NumPy has no bfloat16: it is stored (exactly) as float32.
    EXPECT_EQ(back.values.format, format == FormatId::bfloat16 ? FormatId::float32 : format);
    EXPECT_EQ(back.values.rows, 24);
    for (std::int64_t k = 0; k < values.size(); ++k) EXPECT_EQ(back.values.flat(k), values.flat(k)) << k;
    // The N-d reader agrees value for value.
    const NpyArray doubles = read_npy_array(dir.path() / "a.npy");
    for (std::int64_t k = 0; k < values.size(); ++k) EXPECT_EQ(doubles.values[static_cast<std::size_t>(k)], values.flat(k));
  }
}

TEST(NpyTensor, positionsAreWrittenAsInt64) {
  const testing::TempDir dir;
  const std::vector<std::int64_t> positions = {0, 7, 16777215};
  write_npy_positions(dir.path() / "pos.npy", positions);
  const NpyArray back = read_npy_array(dir.path() / "pos.npy");
  EXPECT_EQ(back.dtype, "<i8");
  EXPECT_EQ(back.shape, (std::vector<std::int64_t>{3}));
  EXPECT_EQ(back.integers, positions);
}

using testing::npy_bytes;

TEST(NpyTensor, fortranOrderAndBigEndianAreReadInCOrder) {
  // (2, 1, 2) float16 in Fortran order: a[0,0,0], a[1,0,0], a[0,0,1], a[1,0,1] = 1, 3, 2, 4.
  const NpyTensor f = read_npy_tensor_bytes(
      npy_bytes("{'descr': '<f2', 'fortran_order': True, 'shape': (2, 1, 2), }",
                {0x00, 0x3c, 0x00, 0x42, 0x00, 0x40, 0x00, 0x44}),
      "f.npy");
  ASSERT_EQ(f.values.rows, 2);
  EXPECT_EQ(f.values.format, FormatId::float16);
  EXPECT_EQ(f.values.at(0, 0), 1.0);
  EXPECT_EQ(f.values.at(0, 1), 2.0);
  EXPECT_EQ(f.values.at(1, 0), 3.0);
  EXPECT_EQ(f.values.at(1, 1), 4.0);
  const NpyTensor big = read_npy_tensor_bytes(
      npy_bytes("{'descr': '>f4', 'fortran_order': False, 'shape': (1, 1), }", {0x3f, 0x80, 0x00, 0x00}), "b.npy");
  EXPECT_EQ(big.values.at(0, 0), 1.0);
}

TEST(NpyTensor, anIntegerArrayIsRefusedNamingTheFileAndTheField) {
  try {
    (void)read_npy_tensor_bytes(npy_bytes("{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }",
                                          {1, 0, 0, 0, 0, 0, 0, 0}),
                                "ids.npy");
    FAIL() << "an integer array was read as floats";
  } catch (const TableFileError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("ids.npy"), std::string::npos) << message;
    EXPECT_NE(message.find("descr"), std::string::npos) << message;
    EXPECT_NE(message.find("a float dtype"), std::string::npos) << message;
  }
}

TEST(BorrowedTable, readsTheBufferWhereItIsAndRefusesWrites) {
  std::vector<float> buffer = {1.0F, 2.0F, 3.0F, 4.0F, 5.0F, 6.0F};
  const TableView view(FormatId::float32, 2, 3, 3, buffer.data());
  Table borrowed = borrowed_table(view);
  EXPECT_EQ(borrowed.bytes().data(), reinterpret_cast<const std::byte*>(buffer.data()));  // no copy
  buffer[4] = 50.0F;
  EXPECT_EQ(borrowed.at(1, 1), 50.0);  // the caller's memory, read in place
  EXPECT_THROW(borrowed.set(0, 0, 9.0), std::logic_error);
  // A copy owns its values.
  const Table copy = borrowed;
  buffer[0] = -1.0F;
  EXPECT_EQ(copy.at(0, 0), 1.0);
  // A view whose rows are not adjacent is copied.
  const TableView strided(FormatId::float32, 2, 2, 3, buffer.data());
  const Table copied = borrowed_table(strided);
  EXPECT_NE(copied.bytes().data(), reinterpret_cast<const std::byte*>(buffer.data()));
  EXPECT_EQ(copied.at(1, 1), 50.0);
}

}  // namespace
}  // namespace pecheck
