// A strict XML 1.0 well-formedness checker that also builds a small tree,
// for the tests of the JUnit writer, the SVG plots and the HTML page (which
// pecheck writes as polyglot markup: well-formed XML after the doctype).
// It rejects what real parsers reject: unbalanced or misnested tags,
// unquoted or duplicate attributes, '<' in attribute values, unknown or
// malformed references, "]]>" in text, ill-formed UTF-8 and characters
// outside XML's Char production. No DTD, no namespaces.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pecheck::reports::testing {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  // values after reference expansion
  std::vector<XmlElement> children;
  std::string text;  // the character data directly inside, references expanded

  const std::string* attribute(std::string_view key) const {
    for (const auto& [name_, value] : attributes) {
      if (name_ == key) return &value;
    }
    return nullptr;
  }
  // Every descendant (and this element) named `element_name`, in document order.
  void collect(std::string_view element_name, std::vector<const XmlElement*>& out) const {
    if (name == element_name) out.push_back(this);
    for (const XmlElement& child : children) child.collect(element_name, out);
  }
  std::vector<const XmlElement*> all(std::string_view element_name) const {
    std::vector<const XmlElement*> out;
    collect(element_name, out);
    return out;
  }
  // All character data below this element.
  std::string all_text() const {
    std::string out = text;
    for (const XmlElement& child : children) out += child.all_text();
    return out;
  }
};

class XmlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class XmlParser {
 public:
  explicit XmlParser(std::string_view input) : in_(input) {}

  XmlElement parse_document() {
    check_characters();
    if (starts_with("<?xml")) skip_past("?>");
    skip_misc();
    if (starts_with("<!DOCTYPE")) {
      skip_past(">");
      skip_misc();
    }
    XmlElement root = parse_element();
    skip_misc();
    if (pos_ != in_.size()) fail("content after the root element");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw XmlError(what + " at byte " + std::to_string(pos_) + ": '" +
                   std::string(in_.substr(pos_ > 20 ? pos_ - 20 : 0, 60)) + "'");
  }

  bool starts_with(std::string_view prefix) const { return in_.substr(pos_).substr(0, prefix.size()) == prefix; }

  void skip_past(std::string_view end) {
    const std::size_t found = in_.find(end, pos_);
    if (found == std::string_view::npos) fail("unterminated construct, expected " + std::string(end));
    pos_ = found + end.size();
  }

  void skip_space() {
    while (pos_ < in_.size() && (in_[pos_] == ' ' || in_[pos_] == '\n' || in_[pos_] == '\t' || in_[pos_] == '\r')) {
      ++pos_;
    }
  }

  void skip_misc() {
    for (;;) {
      skip_space();
      if (starts_with("<!--")) {
        skip_past("-->");
      } else if (starts_with("<?")) {
        skip_past("?>");
      } else {
        return;
      }
    }
  }

  // The whole input must be well-formed UTF-8 of XML Chars.
  void check_characters() {
    for (std::size_t i = 0; i < in_.size();) {
      const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(in_[k]); };
      std::uint32_t code = byte(i);
      std::size_t length = 1;
      if (code >= 0x80) {
        if (code >= 0xC2 && code <= 0xDF)
          length = 2, code &= 0x1F;
        else if (code >= 0xE0 && code <= 0xEF)
          length = 3, code &= 0x0F;
        else if (code >= 0xF0 && code <= 0xF4)
          length = 4, code &= 0x07;
        else
          pos_ = i, fail("ill-formed UTF-8 lead byte");
        if (i + length > in_.size()) pos_ = i, fail("truncated UTF-8");
        for (std::size_t k = 1; k < length; ++k) {
          if ((byte(i + k) & 0xC0) != 0x80) pos_ = i, fail("ill-formed UTF-8 continuation");
          code = (code << 6) | (byte(i + k) & 0x3F);
        }
        const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (code < smallest[length] || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) {
          pos_ = i, fail("overlong or surrogate UTF-8");
        }
      }
      if (!is_char(code)) pos_ = i, fail("character U+" + std::to_string(code) + " is not allowed in XML");
      i += length;
    }
  }

  static bool is_char(std::uint32_t c) {
    return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
           (c >= 0x10000 && c <= 0x10FFFF);
  }

  static bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':'; }
  static bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }

  std::string parse_name() {
    if (pos_ >= in_.size() || !is_name_start(in_[pos_])) fail("expected a name");
    const std::size_t start = pos_;
    while (pos_ < in_.size() && is_name_char(in_[pos_])) ++pos_;
    return std::string(in_.substr(start, pos_ - start));
  }

  static void append_utf8(std::string& out, std::uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  // At '&': expands one reference into `out`.
  void parse_reference(std::string& out) {
    const std::size_t end = in_.find(';', pos_);
    if (end == std::string_view::npos || end - pos_ > 12) fail("unterminated reference");
    const std::string_view name = in_.substr(pos_ + 1, end - pos_ - 1);
    if (name == "lt")
      out += '<';
    else if (name == "gt")
      out += '>';
    else if (name == "amp")
      out += '&';
    else if (name == "quot")
      out += '"';
    else if (name == "apos")
      out += '\'';
    else if (name.size() > 1 && name[0] == '#') {
      const bool hex = name[1] == 'x';
      const std::string digits(name.substr(hex ? 2 : 1));
      if (digits.empty() ||
          digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") != std::string::npos) {
        fail("malformed character reference");
      }
      const unsigned long code = std::stoul(digits, nullptr, hex ? 16 : 10);
      if (!is_char(static_cast<std::uint32_t>(code))) fail("character reference to a non-Char");
      append_utf8(out, static_cast<std::uint32_t>(code));
    } else {
      fail("unknown entity '" + std::string(name) + "'");
    }
    pos_ = end + 1;
  }

  std::string parse_attribute_value() {
    if (pos_ >= in_.size() || (in_[pos_] != '"' && in_[pos_] != '\'')) fail("attribute value not quoted");
    const char quote = in_[pos_++];
    std::string value;
    while (pos_ < in_.size() && in_[pos_] != quote) {
      const char c = in_[pos_];
      if (c == '<') fail("'<' in an attribute value");
      if (c == '&') {
        parse_reference(value);
        continue;
      }
      // Attribute-value normalisation: literal whitespace becomes a space.
      value += (c == '\n' || c == '\t' || c == '\r') ? ' ' : c;
      ++pos_;
    }
    if (pos_ >= in_.size()) fail("unterminated attribute value");
    ++pos_;
    return value;
  }

  XmlElement parse_element() {
    if (!starts_with("<")) fail("expected an element");
    ++pos_;
    XmlElement element;
    element.name = parse_name();
    for (;;) {
      const std::size_t before = pos_;
      skip_space();
      if (starts_with("/>")) {
        pos_ += 2;
        return element;
      }
      if (starts_with(">")) {
        ++pos_;
        break;
      }
      if (pos_ == before) fail("expected whitespace between attributes");
      std::string name = parse_name();
      skip_space();
      if (!starts_with("=")) fail("expected '=' after attribute " + name);
      ++pos_;
      skip_space();
      for (const auto& existing : element.attributes) {
        if (existing.first == name) fail("duplicate attribute " + name);
      }
      element.attributes.emplace_back(std::move(name), parse_attribute_value());
    }
    for (;;) {
      if (pos_ >= in_.size()) fail("unclosed element " + element.name);
      if (starts_with("</")) {
        pos_ += 2;
        if (parse_name() != element.name) fail("misnested end tag for " + element.name);
        skip_space();
        if (!starts_with(">")) fail("malformed end tag");
        ++pos_;
        return element;
      }
      if (starts_with("<!--")) {
        skip_past("-->");
      } else if (starts_with("<![CDATA[")) {
        const std::size_t end = in_.find("]]>", pos_);
        if (end == std::string_view::npos) fail("unterminated CDATA");
        element.text += std::string(in_.substr(pos_ + 9, end - pos_ - 9));
        pos_ = end + 3;
      } else if (starts_with("<")) {
        element.children.push_back(parse_element());
      } else if (in_[pos_] == '&') {
        parse_reference(element.text);
      } else {
        if (starts_with("]]>")) fail("']]>' in character data");
        element.text += in_[pos_++];
      }
    }
  }

  std::string_view in_;
  std::size_t pos_ = 0;
};

inline XmlElement parse_xml(std::string_view input) { return XmlParser(input).parse_document(); }

}  // namespace pecheck::reports::testing
