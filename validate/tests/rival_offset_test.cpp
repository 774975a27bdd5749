// A row offset that another fits about as well (a narrow, coarse table sits
// at several positions within its rounding): the verdict is `deviates` only
// when the table deviates at both, and then the message names the other one;
// when it conforms at the other, it is `unknown` (detection_test's property
// over narrow coarse tables). pecheck's own tables, no Python needed.
#include <gtest/gtest.h>

#include <string>

#include "hazard_lookup.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/validate/table_validation.hpp"

namespace pecheck::validate {
namespace {

std::string reasons(const Validation& result) {
  std::string text;
  for (const std::string& reason : result.reasons) text += reason + "\n";
  return text;
}

// One pair (w = 1) in bfloat16: positions 710 apart differ in angle by
// 710 - 113 * 2 pi ~ 6e-5 rad, far below bfloat16's rounding of 2^-9.
Table one_pair_table() {
  return fast_table(*find_preset("vaswani"), TableRequest{16, 2, 0}, FormatId::bfloat16);
}

TEST(RivalOffset, aTableThatDeviatesAtEveryOffsetThatFitsDeviatesAndNamesTheOther) {
  Table table = one_pair_table();
  table.set(5, 0, 0.5);  // sin 5 = -0.96: wrong at every offset
  const Validation result = validate_table(table);
  ASSERT_TRUE(result.table().detection.offset_ambiguous) << reasons(result);
  ASSERT_TRUE(result.table().detection.rival_offset.has_value());
  ASSERT_TRUE(result.table().rival.has_value());
  EXPECT_EQ(result.verdict, ValidationVerdict::deviates) << reasons(result);
  const std::string rival = "row offset " + std::to_string(*result.table().detection.rival_offset);
  EXPECT_NE(reasons(result).find(rival), std::string::npos) << reasons(result);
  EXPECT_NE(reasons(result).find("deviates too"), std::string::npos) << reasons(result);
}

}  // namespace
}  // namespace pecheck::validate
