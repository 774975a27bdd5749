#include "pecheck/reports/escape.hpp"

#include <gtest/gtest.h>

#include "support/sample_report.hpp"
#include "support/xml_parse.hpp"

namespace pecheck::reports {
namespace {

const std::string replacement = "\xef\xbf\xbd";  // U+FFFD

std::size_t count(const std::string& text, const std::string& piece) {
  std::size_t n = 0;
  for (std::size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + piece.size())) ++n;
  return n;
}

TEST(Utf8, wellFormedTextIsUnchanged) {
  const std::string text = "ascii, \xc3\xa9 (2 bytes), \xe2\x88\x9a (3 bytes), \xf0\x9f\x98\x80 (4 bytes)";
  EXPECT_EQ(sanitize_utf8(text), text);
}

// Unicode's "maximal subpart" rule (Unicode 15, table 3-8 and 3-9): one
// U+FFFD per maximal ill-formed subsequence.
TEST(Utf8, eachIllFormedSubpartBecomesOneReplacementCharacter) {
  EXPECT_EQ(sanitize_utf8("a\xff"
                          "b"),
            "a" + replacement + "b");
  EXPECT_EQ(sanitize_utf8("\xc0\x80"), replacement + replacement);                    // overlong NUL
  EXPECT_EQ(sanitize_utf8("\xed\xa0\x80"), replacement + replacement + replacement);  // a surrogate
  EXPECT_EQ(sanitize_utf8("\xe2\x82"), replacement);                                  // truncated at the end
  EXPECT_EQ(sanitize_utf8("\xe2\x82"
                          "x"),
            replacement + "x");  // truncated before ASCII
  EXPECT_EQ(sanitize_utf8("\xf4\x90\x80\x80"), replacement + replacement + replacement + replacement);  // > U+10FFFF
  EXPECT_EQ(sanitize_utf8(std::string("\x80\xbf", 2)), replacement + replacement);  // lone continuations
}

TEST(Html, markupCharactersBecomeReferences) { EXPECT_EQ(escape_html("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;"); }

TEST(Html, controlCharactersAreShownNotEmitted) {
  EXPECT_EQ(escape_html(std::string("a\0b\x01\x1b\x7f", 6)), "a\\x00b\\x01\\x1b\\x7f");
  EXPECT_EQ(escape_html("\xc2\x85"), "\\u0085");  // NEL, a C1 control
  EXPECT_EQ(escape_html("tab\tnewline\n"), "tab\tnewline\n");
}

TEST(Html, hostileTextSurvivesAsTextInsideAnElement) {
  const std::string hostile = testing::hostile_text();
  const testing::XmlElement element = testing::parse_xml("<p>" + escape_html(hostile) + "</p>");
  EXPECT_TRUE(element.children.empty()) << "the text opened an element";
  EXPECT_NE(element.text.find("<script>alert(\"x&y\")</script>"), std::string::npos);
  EXPECT_NE(element.text.find("\\x00\\x01\\x1b\\x7f"), std::string::npos);
  EXPECT_EQ(count(element.text, replacement), 4u);  // \xff, \xc0, \x80 and the truncated \xe2\x82
}

TEST(Xml, textKeepsNewlinesAndEscapesMarkup) {
  EXPECT_EQ(escape_xml_text("a<b]]>c&d\ne"), "a&lt;b]]&gt;c&amp;d\ne");
  const testing::XmlElement element = testing::parse_xml("<t>" + escape_xml_text(testing::hostile_text()) + "</t>");
  EXPECT_TRUE(element.children.empty());
  EXPECT_NE(element.text.find("line1\nline2"), std::string::npos);
}

TEST(Xml, attributeValuesKeepNewlinesAndQuotes) {
  const std::string value = "say \"hi\" & 'bye'\nnext\tline";
  const testing::XmlElement element = testing::parse_xml("<t a=\"" + escape_xml_attribute(value) + "\"/>");
  ASSERT_NE(element.attribute("a"), nullptr);
  EXPECT_EQ(*element.attribute("a"), value);
}

TEST(Xml, hostileAttributeValueParses) {
  const std::string hostile = testing::hostile_text();
  const testing::XmlElement element = testing::parse_xml("<t a=\"" + escape_xml_attribute(hostile) + "\"/>");
  ASSERT_NE(element.attribute("a"), nullptr);
  EXPECT_NE(element.attribute("a")->find("<script>"), std::string::npos);
}

TEST(Markdown, inlineTextHasNoActiveCharacters) {
  EXPECT_EQ(escape_markdown("a|b*c_d`e<f>&g\nh[i](j)#k\\"), "a\\|b\\*c\\_d\\`e\\<f\\>&amp;g h\\[i\\](j)\\#k\\\\");
}

TEST(Markdown, cellsBreakLinesWithBr) {
  EXPECT_EQ(escape_markdown_cell("one\ntwo|three"), "one<br>two\\|three");
  const std::string cell = escape_markdown_cell(testing::hostile_text());
  EXPECT_EQ(cell.find('\n'), std::string::npos);
  // Every pipe is escaped, so the cell cannot split the table row.
  for (std::size_t at = cell.find('|'); at != std::string::npos; at = cell.find('|', at + 1)) {
    EXPECT_EQ(cell[at - 1], '\\');
  }
}

TEST(Markdown, codeBlockFenceIsLongerThanAnyBacktickRunInside) {
  const std::string block = markdown_code_block("a ```` b\n`c`");
  EXPECT_EQ(block.substr(0, 9), "`````text");
  EXPECT_EQ(block.substr(block.size() - 6), "`````\n");
  EXPECT_NE(block.find("a ```` b\n`c`\n"), std::string::npos);
}

TEST(Markdown, codeBlockShowsControlCharacters) {
  const std::string block = markdown_code_block(std::string("x\0y\x1b", 4));
  EXPECT_NE(block.find("x\\x00y\\x1b"), std::string::npos);
}

}  // namespace
}  // namespace pecheck::reports
