// Text for a terminal: no line past the width unless one word is longer,
// no word lost or split, continuation lines indented.
#include "pecheck/text_wrap.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace pecheck {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

TEST(TextWrap, longLinesBreakAtSpacesUnderTheWidthKeepingEveryWord) {
  const std::string line =
      "  criterion: the ULP budget or the float64-angle bound: 172983 of 256000 entries (67.6%) beyond 2 ULP, "
      "172983 of them beyond the bound too (67.6%)";
  const std::string wrapped = wrap_lines(line + "\nshort\n", 40);
  const std::vector<std::string> lines = lines_of(wrapped);
  ASSERT_GE(lines.size(), 4u);
  for (const std::string& l : lines) EXPECT_LE(l.size(), 40u) << l;
  EXPECT_EQ(lines.back(), "short");
  EXPECT_EQ(lines[1].rfind("    ", 0), 0u);  // the line's two spaces, two more for a continuation
  EXPECT_EQ(words_of(wrapped), words_of(line + " short"));
}

TEST(TextWrap, aWordLongerThanTheWidthStandsAloneWhole) {
  const std::string path = "/a/very/long/path/that/cannot/be/broken/anywhere.npy";
  const std::vector<std::string> lines = lines_of(wrap_text("read " + path + " now", 20, "", "  "));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1], "  " + path);
}

TEST(TextWrap, shortTextIsLeftAsItIs) {
  const std::string text = "a:  two  spaces kept\n  indented\n";
  EXPECT_EQ(wrap_lines(text, 99), text);
}

}  // namespace
}  // namespace pecheck
