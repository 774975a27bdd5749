// The guards every JSON input passes: nesting counted outside strings, files
// refused from their size, and excerpts that keep an error line short.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "pecheck/json_input.hpp"
#include "pecheck/one_line_text.hpp"
#include "pecheck/testing/temp_dir.hpp"

namespace pecheck {
namespace {

TEST(JsonInput, nestingIsCountedOutsideStrings) {
  EXPECT_EQ(json_nesting_beyond("[[1]]", 2), std::nullopt);
  EXPECT_EQ(json_nesting_beyond("[[[1]]]", 2), 2u);
  EXPECT_EQ(json_nesting_beyond("{\"a\": {\"b\": [1]}}", 2), 12u);
  // Brackets in strings, escaped quotes included, do not nest.
  EXPECT_EQ(json_nesting_beyond(R"(["[[[[", "\"[[[["])", 1), std::nullopt);
  // Closed arrays free their level again.
  EXPECT_EQ(json_nesting_beyond("[[1], [2], [3]]", 2), std::nullopt);
  EXPECT_EQ(json_nesting_beyond(std::string(100000, '['), max_json_depth), max_json_depth);
}

TEST(JsonInput, excerptsCutLongTextAndSayHowLong) {
  EXPECT_EQ(excerpt("short"), "short");
  EXPECT_EQ(excerpt(std::string(1000, 'x'), 4), "xxxx... (1000 bytes)");
  EXPECT_EQ(quoted_excerpt_of(std::string(1000, 'x'), 4), "'xxxx'... (1000 bytes)");
  // A cut never splits a UTF-8 sequence (e-acute is two bytes).
  EXPECT_EQ(excerpt("a\xC3\xA9\xC3\xA9", 2), "a... (5 bytes)");
  EXPECT_EQ(excerpt("a\nb"), "a\\x0Ab");
}

TEST(JsonInput, aFileLargerThanTheLimitIsRefusedFromItsSize) {
  const testing::TempDir dir;
  const auto path = dir.path() / "big.json";
  std::ofstream(path) << std::string(2000, ' ') << "{}";
  try {
    read_json_input(path, 1000, "config.json");
    FAIL() << "a 2002-byte file was read under a 1000-byte limit";
  } catch (const JsonInputError& e) {
    EXPECT_NE(std::string(e.what()).find("2002 bytes, more than the 1000 bytes a config.json may have"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(read_json_input(path, 2002, "config.json").size(), 2002u);
  EXPECT_THROW(read_json_input(dir.path() / "missing.json", 1000, "config.json"), JsonInputError);
  EXPECT_THROW(read_json_input(dir.path(), 1000, "config.json"), JsonInputError);
}

}  // namespace
}  // namespace pecheck
