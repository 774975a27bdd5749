#include "pecheck/reports/escape.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace pecheck::reports {

namespace {

constexpr char32_t replacement_character = 0xFFFD;

// Decodes one code point starting at text[i], advancing i. Ill-formed input
// yields U+FFFD and advances past the maximal ill-formed subpart (Unicode's
// "substitution of maximal subparts"), so one bad byte costs one U+FFFD.
char32_t next_code_point(std::string_view text, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) {
    ++i;
    return lead;
  }
  int length = 0;
  char32_t code = 0;
  unsigned char second_low = 0x80, second_high = 0xBF;  // the allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0Fu;
    if (lead == 0xE0) second_low = 0xA0;   // no overlong forms
    if (lead == 0xED) second_high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07u;
    if (lead == 0xF0) second_low = 0x90;   // no overlong forms
    if (lead == 0xF4) second_high = 0x8F;  // nothing past U+10FFFF
  } else {
    ++i;  // a continuation byte without a lead, C0, C1 or F5..FF
    return replacement_character;
  }
  std::size_t k = i + 1;
  for (int n = 1; n < length; ++n, ++k) {
    const unsigned char low = n == 1 ? second_low : 0x80;
    const unsigned char high = n == 1 ? second_high : 0xBF;
    if (k >= text.size() || byte(k) < low || byte(k) > high) {
      i = k;  // the lead and the valid continuation bytes seen so far
      return replacement_character;
    }
    code = (code << 6) | (byte(k) & 0x3Fu);
  }
  i = k;
  return code;
}

void append_utf8(std::string& out, char32_t code) {
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

// C0 controls other than tab, newline and carriage return, DEL and the C1
// controls: not allowed in XML 1.0 (C0) or parse errors in HTML (all).
bool is_forbidden_control(char32_t code) {
  return (code < 0x20 && code != '\t' && code != '\n' && code != '\r') || (code >= 0x7F && code <= 0x9F);
}

void append_visible_control(std::string& out, char32_t code) {
  char buffer[8];
  if (code < 0x80) {
    std::snprintf(buffer, sizeof buffer, "\\x%02x", static_cast<unsigned>(code));
  } else {
    std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(code));
  }
  out += buffer;
}

// Walks the text code point by code point: `escape` returns the replacement
// for a code point, or nullptr to copy it (re-encoded, hence well-formed).
template <typename Escape>
std::string transform(std::string_view text, Escape escape) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (std::size_t i = 0; i < text.size();) {
    const char32_t code = next_code_point(text, i);
    if (is_forbidden_control(code)) {
      append_visible_control(out, code);
    } else if (const char* replacement = escape(code)) {
      out += replacement;
    } else {
      append_utf8(out, code);
    }
  }
  return out;
}

const char* html_reference(char32_t code) {
  switch (code) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&#39;";
    case '\r': return "&#13;";  // would otherwise be folded into the newline
    default: return nullptr;
  }
}

const char* markdown_escape(char32_t code, const char* newline) {
  switch (code) {
    case '\n': return newline;
    case '\r': return "";
    case '&': return "&amp;";
    case '\\': return "\\\\";
    case '`': return "\\`";
    case '*': return "\\*";
    case '_': return "\\_";
    case '[': return "\\[";
    case ']': return "\\]";
    case '<': return "\\<";
    case '>': return "\\>";
    case '|': return "\\|";
    case '#': return "\\#";
    case '~': return "\\~";
    case '!': return "\\!";
    default: return nullptr;
  }
}

}  // namespace

std::string sanitize_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) append_utf8(out, next_code_point(text, i));
  return out;
}

std::string escape_html(std::string_view text) { return transform(text, html_reference); }

std::string escape_xml_text(std::string_view text) {
  return transform(text, [](char32_t code) -> const char* {
    switch (code) {
      case '&': return "&amp;";
      case '<': return "&lt;";
      case '>': return "&gt;";    // required after "]]"; harmless elsewhere
      case '\r': return "&#13;";  // end-of-line handling would drop a literal one
      default: return nullptr;
    }
  });
}

std::string escape_xml_attribute(std::string_view text) {
  return transform(text, [](char32_t code) -> const char* {
    switch (code) {
      case '&': return "&amp;";
      case '<': return "&lt;";
      case '>': return "&gt;";
      case '"': return "&quot;";
      case '\'': return "&apos;";
      case '\t': return "&#9;";
      case '\n': return "&#10;";
      case '\r': return "&#13;";
      default: return nullptr;
    }
  });
}

std::string escape_markdown(std::string_view text) {
  return transform(text, [](char32_t code) { return markdown_escape(code, " "); });
}

std::string escape_markdown_cell(std::string_view text) {
  return transform(text, [](char32_t code) { return markdown_escape(code, "<br>"); });
}

std::string markdown_code_block(std::string_view text) {
  const std::string body = transform(text, [](char32_t code) -> const char* { return code == '\r' ? "\\r" : nullptr; });
  std::size_t longest = 0;
  for (std::size_t i = 0; i < body.size();) {
    std::size_t run = 0;
    while (i < body.size() && body[i] == '`') {
      ++run;
      ++i;
    }
    longest = std::max(longest, run);
    if (run == 0) ++i;
  }
  const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
  std::string out = fence + "text\n" + body;
  if (!body.empty() && body.back() != '\n') out += '\n';
  return out + fence + "\n";
}

}  // namespace pecheck::reports
