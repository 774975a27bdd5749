// The GoogleTest matcher for user tests: it accepts a correct table, and
// rejects one with float32 angles, explaining where.
#include "pecheck/properties/gtest.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace pecheck {
namespace {

using ::testing::Not;
using testing::MatchesConvention;

// The paper's table computed in double and rounded once to float32, as a
// careful user would.
Table careful_vaswani(std::int64_t rows, std::int64_t dim, std::int64_t offset, bool float32_angles) {
  Table table = make_table(rows, dim, FormatId::float32);
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < dim; ++c) {
      const std::int64_t i = c / 2;
      const double w = std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(dim));
      const auto p = static_cast<double>(r + offset);
      const double angle = float32_angles ? static_cast<float>(static_cast<float>(p) * static_cast<float>(w)) : p * w;
      table.set(r, c, static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle)));
    }
  }
  return table;
}

TEST(GtestMatcher, aCarefulTableMatchesItsConvention) {
  EXPECT_THAT(careful_vaswani(16, 32, 100, false), MatchesConvention("vaswani", 100));
  EXPECT_THAT(careful_vaswani(16, 32, 100, false), MatchesConvention(*find_preset("vaswani"), 100, 1.0));
}

TEST(GtestMatcher, float32AnglesDoNotMatchAndTheExplanationNamesTheWorstEntry) {
  const Table table = careful_vaswani(16, 32, 5000, true);
  EXPECT_THAT(table, Not(MatchesConvention("vaswani", 5000)));
  std::ostringstream why;
  EXPECT_FALSE(MatchesConvention("vaswani", 5000).MatchAndExplain(table, &why));
  EXPECT_NE(why.str().find("the worst is row"), std::string::npos) << why.str();
}

TEST(GtestMatcher, theWrongOffsetOrPresetDoesNotMatch) {
  const Table table = careful_vaswani(8, 16, 0, false);
  EXPECT_THAT(table, Not(MatchesConvention("vaswani", 1)));
  EXPECT_THAT(table, Not(MatchesConvention("tensor2tensor")));
  EXPECT_THAT(table, Not(MatchesConvention("no-such-preset")));
}

}  // namespace
}  // namespace pecheck
