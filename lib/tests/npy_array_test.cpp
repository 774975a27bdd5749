// The .npy reader for arrays of any rank and integer dtypes (token ids,
// an input layer's (B, L, d) output): values, byte orders, Fortran order,
// and one-line errors for what it refuses.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "pecheck/npy_array.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/testing/npy_bytes.hpp"
#include "pecheck/testing/table_values.hpp"

using namespace pecheck::testing;  // fill_table, flat_at, flat_set, table_of, values_of

namespace pecheck {
namespace {

using testing::npy_bytes;

std::string refusal(const std::vector<std::byte>& bytes) {
  try {
    (void)read_npy_array_bytes(bytes, "a.npy");
  } catch (const TableFileError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(NpyArray, signedIntegersOfEveryWidthAreSignExtended) {
  const NpyArray i1 = read_npy_array_bytes(npy_bytes("{'descr': '|i1', 'fortran_order': False, 'shape': (2,), }", {0x7f, 0xff}), "a.npy");
  EXPECT_EQ(i1.integers, (std::vector<std::int64_t>{127, -1}));
  const NpyArray i4 = read_npy_array_bytes(
      npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", {1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff}), "a.npy");
  EXPECT_TRUE(i4.integer);
  EXPECT_EQ(i4.integers, (std::vector<std::int64_t>{1, -2}));
  const NpyArray big = read_npy_array_bytes(
      npy_bytes("{'descr': '>i8', 'fortran_order': False, 'shape': (1,), }", {0, 0, 0, 0, 0, 0, 1, 2}), "a.npy");
  EXPECT_EQ(big.integers, (std::vector<std::int64_t>{258}));
}

TEST(NpyArray, aFortranOrderThreeDimensionalArrayIsReturnedInCOrder) {
  // shape (2, 1, 3) in Fortran order stores a[0,0,0], a[1,0,0], a[0,0,1], a[1,0,1], ...
  const NpyArray a = read_npy_array_bytes(
      npy_bytes("{'descr': '|u1', 'fortran_order': True, 'shape': (2, 1, 3), }", {0, 10, 1, 11, 2, 12}), "a.npy");
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{2, 1, 3}));
  EXPECT_EQ(a.integers, (std::vector<std::int64_t>{0, 1, 2, 10, 11, 12}));
}

TEST(NpyArray, floatsKeepTheirFormat) {
  const NpyArray a = read_npy_array_bytes(
      npy_bytes("{'descr': '<f2', 'fortran_order': False, 'shape': (1, 1, 1), }", {0x00, 0x3c}), "a.npy");
  EXPECT_FALSE(a.integer);
  EXPECT_EQ(a.format, FormatId::float16);
  EXPECT_EQ(a.values, (std::vector<double>{1.0}));
  EXPECT_EQ(shape_text(a.shape), "(1, 1, 1)");
}

// A complex64 array (Meta's freqs_cis) is read as its float parts: shape (..., 2).
TEST(NpyArray, complexValuesAreReadAsTheirRealAndImaginaryParts) {
  const std::vector<std::uint8_t> data = {0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0};  // 1.0f, -2.0f
  const NpyArray a = read_npy_array_bytes(npy_bytes("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", data), "a.npy");
  EXPECT_FALSE(a.integer);
  EXPECT_EQ(a.format, FormatId::float32);
  EXPECT_EQ(a.values, (std::vector<double>{1.0, -2.0}));
  EXPECT_EQ(shape_text(a.shape), "(1, 2)");
}

TEST(NpyArray, refusalsNameTheFileTheFieldAndWhatWasExpected) {
  EXPECT_NE(refusal(npy_bytes("{'descr': '<c4', 'fortran_order': False, 'shape': (1,), }", std::vector<std::uint8_t>(4)))
                .find("a.npy: descr: unsupported dtype '<c4'"),
            std::string::npos);
  EXPECT_NE(refusal(npy_bytes("{'descr': '<c8', 'fortran_order': True, 'shape': (1, 2), }", std::vector<std::uint8_t>(16)))
                .find("a.npy: fortran_order: a Fortran-order complex array"),
            std::string::npos);
  EXPECT_NE(refusal(npy_bytes("{'descr': '=i4', 'fortran_order': False, 'shape': (1,), }", std::vector<std::uint8_t>(4)))
                .find("does not say how the file stores the bytes"),
            std::string::npos);
  EXPECT_NE(refusal(npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }", std::vector<std::uint8_t>(20)))
                .find("a.npy: shape: (2, 3) of '<i4' needs 24 bytes of data, the file holds 20"),
            std::string::npos);
  EXPECT_NE(refusal(npy_bytes("{'descr': '<u8', 'fortran_order': False, 'shape': (1,), }",
                              {0, 0, 0, 0, 0, 0, 0, 0x80}))
                .find("value 9223372036854775808 at flat index 0 does not fit a signed 64-bit integer"),
            std::string::npos);
}

}  // namespace
}  // namespace pecheck
