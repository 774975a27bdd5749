// The one-file rotary cache reader (rotary_cache_file.hpp), which reads the
// payload in blocks into the two tables in the file's own format, against
// read_npy_array, which decodes every element to double on its own path: the
// same values in every layout (complex64 and complex128, a (2, L, d) stack in
// C and Fortran order), byte order and width; and the refusals, one line each.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "pecheck/npy_array.hpp"
#include "pecheck/rotary_cache_file.hpp"
#include "pecheck/table_file.hpp"
#include "pecheck/testing/npy_bytes.hpp"
#include "pecheck/testing/temp_dir.hpp"

namespace pecheck {
namespace {

using testing::npy_bytes;

// count distinct finite values of itemsize bytes (4: float, 8: double), in
// the byte order given: value k is k + 0.25 * (k % 4), negated when k is odd.
std::vector<std::uint8_t> values_bytes(std::size_t count, int itemsize, bool big_endian) {
  const auto width = static_cast<std::size_t>(itemsize);
  std::vector<std::uint8_t> out(count * width);
  for (std::size_t k = 0; k < count; ++k) {
    const double x = (k % 2 == 0 ? 1.0 : -1.0) * (static_cast<double>(k) + 0.25 * static_cast<double>(k % 4));
    std::uint8_t* to = out.data() + k * width;
    if (itemsize == 4) {
      const auto f = static_cast<float>(x);
      std::memcpy(to, &f, 4);
    } else {
      std::memcpy(to, &x, 8);
    }
    if (big_endian) std::reverse(to, to + width);
  }
  return out;
}

class RotaryCacheFile : public ::testing::Test {
 protected:
  std::filesystem::path write(const std::string& dict, const std::vector<std::uint8_t>& data) {
    const std::filesystem::path path = dir / ("cache" + std::to_string(files++) + ".npy");
    const std::vector<std::byte> bytes = npy_bytes(dict, data);
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                static_cast<std::streamsize>(bytes.size()));
    return path;
  }

  std::string refusal(const std::string& dict, const std::vector<std::uint8_t>& data) {
    try {
      (void)read_combined_rotary_cache(write(dict, data));
    } catch (const TableFileError& e) {
      return e.what();
    }
    return "accepted";
  }

  testing::TempDir dir;
  int files = 0;
};

// A complex (L, h) array: cos(r, c) is the real part of element (r, c), sin
// the imaginary part; read_npy_array gives it as (L, h, 2).
void expect_complex_parts(const RotaryCache& cache, const NpyArray& array, std::int64_t rows, std::int64_t cols) {
  ASSERT_EQ(cache.cos.rows, rows);
  ASSERT_EQ(cache.cos.cols, cols);
  ASSERT_EQ(cache.sin.rows, rows);
  ASSERT_EQ(cache.sin.cols, cols);
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) {
      const auto k = static_cast<std::size_t>((r * cols + c) * 2);
      EXPECT_EQ(cache.cos.at(r, c), array.values[k]) << r << ", " << c;
      EXPECT_EQ(cache.sin.at(r, c), array.values[k + 1]) << r << ", " << c;
    }
  }
}

// A (2, L, d) stack: cos is [0], sin is [1]; read_npy_array gives C order
// whatever the file's order.
void expect_stack_parts(const RotaryCache& cache, const NpyArray& array, std::int64_t rows, std::int64_t cols) {
  ASSERT_EQ(cache.cos.rows, rows);
  ASSERT_EQ(cache.cos.cols, cols);
  ASSERT_EQ(cache.sin.rows, rows);
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) {
      EXPECT_EQ(cache.cos.at(r, c), array.values[static_cast<std::size_t>(r * cols + c)]) << r << ", " << c;
      EXPECT_EQ(cache.sin.at(r, c), array.values[static_cast<std::size_t>((rows + r) * cols + c)]) << r << ", " << c;
    }
  }
}

TEST_F(RotaryCacheFile, complexInEitherWidthAndByteOrderSplitsIntoRealAndImaginaryParts) {
  for (const std::string descr : {"<c8", ">c8", "<c16", ">c16"}) {
    const int part = descr.substr(2) == "8" ? 4 : 8;
    // 300 x 700 complex values: more than one 1 MiB block at 16 bytes each.
    const std::int64_t rows = 300, cols = 700;
    const auto path = write("{'descr': '" + descr + "', 'fortran_order': False, 'shape': (300, 700), }",
                            values_bytes(static_cast<std::size_t>(rows * cols * 2), part, descr[0] == '>'));
    const RotaryCache cache = read_combined_rotary_cache(path);
    EXPECT_EQ(cache.cos.format, part == 4 ? FormatId::float32 : FormatId::float64) << descr;
    expect_complex_parts(cache, read_npy_array(path), rows, cols);
  }
}

TEST_F(RotaryCacheFile, stackInEitherOrderWidthAndByteOrderReadsCosThenSin) {
  for (const std::string descr : {"<f4", ">f4", "<f8", ">f8"}) {
    for (const bool fortran : {false, true}) {
      const std::int64_t rows = 70, cols = 2100;  // 294,000 values: several blocks
      const auto path = write("{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                                  ", 'shape': (2, 70, 2100), }",
                              values_bytes(static_cast<std::size_t>(2 * rows * cols), descr[2] - '0', descr[0] == '>'));
      const RotaryCache cache = read_combined_rotary_cache(path);
      SCOPED_TRACE(descr + (fortran ? " Fortran" : " C"));
      expect_stack_parts(cache, read_npy_array(path), rows, cols);
    }
  }
}

TEST_F(RotaryCacheFile, refusalsNameTheFileAndWhatWasExpected) {
  // Rows past 2^24, from the header: the file holds no payload at all.
  EXPECT_NE(refusal("{'descr': '<c8', 'fortran_order': False, 'shape': (16777217, 1), }", {})
                .find("(16777217, 1) is 16777217 rows (expected at most 2^24 rows"),
            std::string::npos);
  EXPECT_NE(refusal("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 16777217, 1), }", {})
                .find("is 16777217 rows"),
            std::string::npos);
  EXPECT_NE(refusal("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 1, 1), }", values_bytes(2, 4, false))
                .find("dtype <i4: expected a float or complex cache"),
            std::string::npos);
  EXPECT_NE(refusal("{'descr': '<c8', 'fortran_order': True, 'shape': (2, 1), }", values_bytes(4, 4, false))
                .find("fortran_order: a Fortran-order complex array (expected a complex array in C order)"),
            std::string::npos);
  EXPECT_NE(refusal("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", values_bytes(4, 4, false))
                .find("shape (2, 2) of '<c8': expected a complex (positions, d/2) freqs_cis or a (2, positions, d) stack"),
            std::string::npos);
  EXPECT_NE(refusal("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 1, 1), }", values_bytes(3, 4, false))
                .find("shape (3, 1, 1) of '<f4': expected"),
            std::string::npos);
  // A shape that claims more data than the file holds.
  EXPECT_NE(refusal("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2, 2), }", values_bytes(7, 4, false))
                .find("needs 32 bytes of data, the file holds 28"),
            std::string::npos);
}

}  // namespace
}  // namespace pecheck
