#include "pecheck/lines_protocol_reply.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

namespace pecheck {
namespace {

TEST(ReplyLines, cutsLinesAndKeepsWhatFollows) {
  ReplyLines lines(64);
  lines.append("ok\nerror no such");
  EXPECT_EQ(lines.take_line(), "ok");
  EXPECT_FALSE(lines.take_line().has_value()) << "the second reply has no newline yet";
  lines.append(" file\n");
  EXPECT_EQ(lines.take_line(), "error no such file");
  EXPECT_EQ(lines.buffered(), 0U);
}

TEST(ReplyLines, aReplyWithoutANewlineOverflowsInsteadOfGrowing) {
  ReplyLines lines(8);
  const std::string zeros(100, '\0');
  std::size_t taken = 0;
  while (lines.room() > 0) taken += lines.append(std::string_view(zeros).substr(taken));
  EXPECT_EQ(lines.buffered(), 9U) << "at most the longest line and one byte more";
  EXPECT_TRUE(lines.overflowed());
  EXPECT_EQ(lines.append("\n"), 0U) << "a full buffer takes nothing more";
  EXPECT_EQ(lines.start().size(), 9U);
}

TEST(ReplyLines, aLineOfExactlyTheLimitIsAReply) {
  ReplyLines lines(8);
  lines.append(std::string(8, 'x'));
  lines.append("\n");
  EXPECT_FALSE(lines.overflowed());
  EXPECT_EQ(lines.take_line(), std::string(8, 'x'));
}

// Whatever the bytes and however they arrive, the lines taken and what is
// left are the bytes appended, cut at each newline: nothing lost, nothing
// made up, and never more buffered than the limit allows.
RC_GTEST_PROP(ReplyLines, linesAndRestAreTheBytesAppended, (const std::vector<std::string>& chunks)) {
  ReplyLines lines(16);
  std::string appended;
  std::string taken;
  for (const std::string& chunk : chunks) {
    const std::size_t n = lines.append(chunk);
    RC_ASSERT(n <= chunk.size());
    RC_ASSERT(lines.buffered() <= 17U);
    appended += chunk.substr(0, n);
    while (auto line = lines.take_line()) {
      RC_ASSERT(line->find('\n') == std::string::npos);
      taken += *line + "\n";
    }
    if (lines.overflowed()) break;
  }
  RC_ASSERT(appended.size() == taken.size() + lines.buffered());
  RC_ASSERT(appended.substr(0, taken.size()) == taken);
}

TEST(ReplyMeaning, okErrorAndAnythingElse) {
  EXPECT_EQ(meaning_of("ok"), ReplyMeaning::ok);
  EXPECT_EQ(meaning_of("error cannot open"), ReplyMeaning::error);
  EXPECT_EQ(meaning_of("ok "), ReplyMeaning::out_of_step) << "only the exact reply 'ok'";
  EXPECT_EQ(meaning_of("loading model..."), ReplyMeaning::out_of_step);
  EXPECT_EQ(meaning_of(""), ReplyMeaning::out_of_step);
}

TEST(ReplyMeaning, aDescriptionIsOneShortLineWhateverTheReply) {
  const std::string hostile = "error \x1b[31m" + std::string(100000, 'x') + "\r\x01";
  for (const std::string& reply : {hostile, hostile.substr(6), std::string("\xff\xfe\x80")}) {
    const std::string text = describe_reply(reply);
    EXPECT_EQ(text.find_first_of("\n\r\x1b"), std::string::npos) << text.substr(0, 80);
    EXPECT_LT(text.size(), 500U);
  }
}

}  // namespace
}  // namespace pecheck
