// FastEncoder (the fast path's plan built once) gives fast_encoding's float64
// rows bit for bit, whatever the runs of rows asked of it, and refuses a
// request of another width or an impossible one.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "pecheck/fast_encoding.hpp"

namespace pecheck {
namespace {

void expect_same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    ASSERT_EQ(std::bit_cast<std::uint64_t>(a[k]), std::bit_cast<std::uint64_t>(b[k])) << "entry " << k;
  }
}

TEST(FastEncoder, givesFastEncodingsRowsBitForBit) {
  for (const char* preset : {"vaswani", "tensor2tensor", "fairseq", "marian-hf"}) {
    SCOPED_TRACE(preset);
    const Convention convention = *find_preset(preset);  // a copy: the optional is a temporary
    const std::int64_t dim = 38;
    const auto rows_of = [&](const TableRequest& request) {
      std::vector<double> out(static_cast<std::size_t>(request.rows * request.dim));
      return out;
    };
    const FastEncoder encoder(convention, dim);
    for (const TableRequest request : {TableRequest{1, dim, 0}, TableRequest{300, dim, 5},
                                       TableRequest{7, dim, std::int64_t{1} << 20}}) {
      std::vector<double> direct = rows_of(request);
      std::vector<double> encoded = rows_of(request);
      fast_encoding(convention, request, std::span<double>(direct));
      encoder.encode(request, std::span<double>(encoded));
      expect_same_bits(encoded, direct);
    }
  }
}

TEST(FastEncoder, refusesAnotherWidthAndImpossiblePositions) {
  const FastEncoder encoder(*find_preset("vaswani"), 16);
  std::vector<double> out(32);
  EXPECT_THROW(encoder.encode(TableRequest{2, 15, 0}, std::span<double>(out).first(30)), ConventionError);
  EXPECT_THROW(encoder.encode(TableRequest{2, 16, std::int64_t{1} << 24}, std::span<double>(out)), ConventionError);
}

}  // namespace
}  // namespace pecheck
