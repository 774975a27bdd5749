// check_request: the table requests every implementation refuses, each with
// a message naming the command-line flag to change.
#include <gtest/gtest.h>

#include <string>

#include "pecheck/fast_encoding.hpp"

namespace pecheck {
namespace {

std::string refusal(const Convention& convention, const TableRequest& request) {
  try {
    check_request(convention, request);
  } catch (const ConventionError& error) {
    return error.what();
  }
  return "";
}

TEST(CheckRequest, acceptsEveryPositionBelow2To24) {
  const Convention vaswani = *find_preset("vaswani");
  EXPECT_EQ(refusal(vaswani, {0, 8, 0}), "");
  EXPECT_EQ(refusal(vaswani, {1, 8, max_exact_position - 1}), "");
  EXPECT_EQ(refusal(vaswani, {max_exact_position, 8, 0}), "");
  EXPECT_EQ(refusal(vaswani, {8, 8, max_exact_position - 8}), "");
}

TEST(CheckRequest, refusesWhatNoTableCanHoldNamingTheFlag) {
  const Convention vaswani = *find_preset("vaswani");
  EXPECT_NE(refusal(vaswani, {-1, 8, 0}).find("--rows"), std::string::npos);
  EXPECT_NE(refusal(vaswani, {4, 8, -1}).find("--offset"), std::string::npos);
  EXPECT_NE(refusal(vaswani, {4, 0, 0}).find("--dim"), std::string::npos);
  EXPECT_NE(refusal(vaswani, {4, max_dim + 1, 0}).find("--dim"), std::string::npos);
  // The last row would hold position 2^24, which float32 cannot tell from 2^24 + 1.
  const std::string past_end = refusal(vaswani, {9, 8, max_exact_position - 8});
  EXPECT_NE(past_end.find("--offset"), std::string::npos) << past_end;
  EXPECT_NE(past_end.find("16777216"), std::string::npos) << past_end;
  EXPECT_NE(refusal(vaswani, {1, 8, max_exact_position}).find("--offset"), std::string::npos);
  // 2^31 entries and more are refused before anything is allocated.
  EXPECT_NE(refusal(vaswani, {max_exact_position, max_dim, 0}).find("too large"), std::string::npos);
}

TEST(CheckRequest, appliesTheConventionsOwnRules) {
  EXPECT_NE(refusal(*find_preset("tf-tutorial"), {4, 9, 0}).find("--dim"), std::string::npos);
  EXPECT_NE(refusal(*find_preset("fairseq"), {4, 2, 0}).find("--dim"), std::string::npos);
  Convention shifted = *find_preset("vaswani");
  shifted.position_offset = -3;  // row r holds position r - 3: negative positions are relative encodings'
  EXPECT_EQ(refusal(shifted, {4, 8, 0}), "");
  shifted.position_offset = 1 - max_exact_position;  // row 0 holds -(2^24 - 1)
  EXPECT_EQ(refusal(shifted, {4, 8, 0}), "");
  shifted.position_offset = -max_exact_position;  // row 0 would hold -2^24
  EXPECT_NE(refusal(shifted, {4, 8, 1}).find("--offset"), std::string::npos);
  shifted.position_offset = 5;
  EXPECT_NE(refusal(shifted, {4, 8, max_exact_position - 8}).find("position 16777216"), std::string::npos);
}

TEST(CheckRequest, takesPositionsThatRunDownToMinus2To24Exclusive) {
  // 2^25 - 1 rows: L = 2^24, positions 2^24 - 1 down to -(2^24 - 1), the
  // whole range; the length is checked as the table's rows plus --offset.
  const Convention espnet = for_rows(*find_preset("espnet-rel"), 2 * max_exact_position - 1);
  EXPECT_EQ(refusal(espnet, {4, 8, 2 * max_exact_position - 5}), "");
  EXPECT_NE(refusal(espnet, {5, 8, 2 * max_exact_position - 5}).find("position -16777216"), std::string::npos);
  // A relative preset not yet given its length is refused, not guessed.
  EXPECT_NE(refusal(*find_preset("transformer-xl"), {4, 8, 0}).find("table's length"), std::string::npos);
}

}  // namespace
}  // namespace pecheck
