#include "npy_header.hpp"

#include <array>
#include <optional>

#include "byte_io.hpp"
#include "pecheck/table_file.hpp"

namespace pecheck::detail {

namespace {

constexpr std::uint64_t max_dimension = (std::uint64_t{1} << 63) - 1;  // NumPy's intp on 64-bit machines
constexpr std::array<std::string_view, 3> known_keys{"descr", "fortran_order", "shape"};

class HeaderParser {
 public:
  HeaderParser(std::string_view text, std::string_view display_name) : text_(text), name_(display_name) {}

  NpyHeader parse() {
    expect('{', "'{' opening the header dict");
    std::array<bool, known_keys.size()> seen{};
    skip_spaces();
    while (!at('}')) {
      const std::size_t key_offset = pos_;
      const std::string key = parse_string("a quoted key");
      const std::size_t index = key_index(key, key_offset);
      if (seen[index]) {
        fail("header", "key " + quoted_excerpt(key) + " appears twice (at offset " + std::to_string(key_offset) + ")",
             "each key once");
      }
      seen[index] = true;
      skip_spaces();
      expect(':', "':' after the key");
      skip_spaces();
      parse_value(index);
      skip_spaces();
      if (at(',')) {
        ++pos_;
        skip_spaces();
      } else if (!at('}')) {
        fail_here("',' or '}' after the value");
      }
    }
    ++pos_;
    for (std::size_t i = 0; i < known_keys.size(); ++i) {
      if (!seen[i]) {
        fail("header", "the key '" + std::string(known_keys[i]) + "' is missing",
             "the keys 'descr', 'fortran_order' and 'shape'");
      }
    }
    check_tail();
    return header_;
  }

 private:
  bool at(char c) const { return pos_ < text_.size() && text_[pos_] == c; }

  void skip_spaces() {
    while (at(' ')) ++pos_;
  }

  [[noreturn]] void fail(std::string_view field, const std::string& problem, std::string_view expected) const {
    throw TableFileError(name_, field, problem, expected);
  }

  [[noreturn]] void fail_here(std::string_view expected) const {
    // Only the padding left: the dict was never closed.
    const std::size_t rest = text_.find_first_not_of(' ', pos_);
    if (rest == std::string_view::npos || (rest + 1 == text_.size() && text_[rest] == '\n')) {
      fail("header", "the dict is not closed before the end of the header at offset " + std::to_string(text_.size()),
           expected);
    }
    fail("header", "unexpected " + quoted_excerpt(text_.substr(pos_), 8) + " at offset " + std::to_string(pos_), expected);
  }

  void expect(char c, std::string_view expected) {
    if (!at(c)) fail_here(expected);
    ++pos_;
  }

  std::size_t key_index(const std::string& key, std::size_t key_offset) const {
    for (std::size_t i = 0; i < known_keys.size(); ++i) {
      if (key == known_keys[i]) return i;
    }
    fail("header", "unknown key " + quoted_excerpt(key) + " at offset " + std::to_string(key_offset),
         "only 'descr', 'fortran_order' and 'shape'");
  }

  std::string parse_string(std::string_view expected) {
    if (!at('\'') && !at('"')) fail_here(expected);
    const char quote = text_[pos_];
    const std::size_t start = ++pos_;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      const char c = text_[pos_];
      if (c == '\\') fail("header", "escape sequence in a string at offset " + std::to_string(pos_), "a plain string");
      if (c == '\n') fail("header", "the string at offset " + std::to_string(start - 1) + " is not closed", "a closing quote");
      ++pos_;
    }
    if (pos_ >= text_.size()) {
      fail("header", "the string at offset " + std::to_string(start - 1) + " is not closed", "a closing quote");
    }
    return std::string(text_.substr(start, pos_++ - start));
  }

  void parse_value(std::size_t key) {
    switch (key) {
      case 0: parse_descr(); return;
      case 1: parse_fortran_order(); return;
      default: parse_shape(); return;
    }
  }

  void parse_descr() {
    if (at('[')) {
      fail("descr", "a structured dtype (a list of fields) is not supported",
           "a plain floating-point dtype such as '<f4'");
    }
    if (!at('\'') && !at('"')) fail("descr", "the value is not a string", "a dtype string such as '<f4'");
    header_.descr = parse_string("a dtype string");
  }

  void parse_fortran_order() {
    for (const auto& [word, value] : {std::pair{std::string_view("True"), true}, std::pair{std::string_view("False"), false}}) {
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        header_.fortran_order = value;
        return;
      }
    }
    fail("fortran_order", "the value at offset " + std::to_string(pos_) + " is " + quoted_excerpt(text_.substr(pos_), 8),
         "True or False");
  }

  // A Python tuple: (), (n,), (n, m), (n, m,) ...; "(n)" is an integer in
  // Python, not a tuple, and is refused as such.
  void parse_shape() {
    if (!at('(')) fail("shape", "the value at offset " + std::to_string(pos_) + " is not a tuple", "a tuple such as (3, 4)");
    ++pos_;
    skip_spaces();
    bool comma_seen = false;
    while (!at(')')) {
      header_.shape.push_back(parse_dimension());
      skip_spaces();
      if (at(',')) {
        comma_seen = true;
        ++pos_;
        skip_spaces();
      } else if (!at(')')) {
        fail_here("',' or ')' in the shape tuple");
      }
    }
    ++pos_;
    if (header_.shape.size() == 1 && !comma_seen) {
      fail("shape", "(" + std::to_string(header_.shape[0]) + ") is an integer, not a tuple",
           "(" + std::to_string(header_.shape[0]) + ",) for a 1-D shape");
    }
  }

  std::uint64_t parse_dimension() {
    const std::size_t start = pos_;
    if (at('-')) fail("shape", "negative dimension at offset " + std::to_string(pos_), "non-negative integers");
    std::uint64_t value = 0;
    bool too_large = false;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      const auto digit = static_cast<std::uint64_t>(text_[pos_] - '0');
      if (value > (max_dimension - digit) / 10) too_large = true;
      if (!too_large) value = value * 10 + digit;
      ++pos_;
    }
    if (pos_ == start) fail_here("a non-negative integer in the shape tuple");
    const std::string_view digits = text_.substr(start, pos_ - start);
    if (digits.size() > 1 && digits[0] == '0') {
      fail("shape", "dimension " + quoted_excerpt(digits) + " has a leading zero", "a decimal integer as Python writes it");
    }
    if (too_large) fail("shape", "dimension " + quoted_excerpt(digits) + " is too large", "at most 2^63 - 1");
    return value;
  }

  // NumPy pads the dict with spaces and ends the header with a newline.
  void check_tail() {
    const std::size_t tail_start = pos_;
    skip_spaces();
    if (pos_ + 1 == text_.size() && text_[pos_] == '\n') return;
    if (pos_ >= text_.size()) {
      fail("header", "no newline at the end of the header", "spaces then a newline after the dict");
    }
    fail("header", "unexpected " + quoted_excerpt(text_.substr(pos_), 8) + " at offset " + std::to_string(pos_) +
                       " after the dict closed at offset " + std::to_string(tail_start - 1),
         "spaces then a newline after the dict");
  }

  std::string_view text_;
  std::string_view name_;
  std::size_t pos_ = 0;
  NpyHeader header_;
};

}  // namespace

NpyHeader parse_npy_header(std::string_view text, std::string_view display_name) {
  return HeaderParser(text, display_name).parse();
}

}  // namespace pecheck::detail
