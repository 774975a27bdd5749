// Your positional encoding, checked against pecheck's correctly rounded
// reference from your own GoogleTest suite.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include <pecheck/properties/gtest.hpp>

namespace {

// "My" implementation: the paper's table (interleaved sin/cos, base 10000),
// angles in double, each value rounded once to float32.
pecheck::Table my_encoding(std::int64_t rows, std::int64_t dim, std::int64_t first_position) {
  pecheck::Table table = pecheck::make_table(rows, dim, pecheck::FormatId::float32);
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < dim; ++c) {
      const double w = std::pow(10000.0, -2.0 * static_cast<double>(c / 2) / static_cast<double>(dim));
      const double angle = static_cast<double>(first_position + r) * w;
      table.set(r, c, static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle)));
    }
  }
  return table;
}

TEST(MyEncoding, matchesThePaper) {
  EXPECT_THAT(my_encoding(32, 64, 0), pecheck::testing::MatchesConvention("vaswani"));
  EXPECT_THAT(my_encoding(8, 64, 4096), pecheck::testing::MatchesConvention("vaswani", 4096));
}

TEST(MyEncoding, isNotTensor2tensors) {
  EXPECT_THAT(my_encoding(32, 64, 0), ::testing::Not(pecheck::testing::MatchesConvention("tensor2tensor")));
}

}  // namespace
