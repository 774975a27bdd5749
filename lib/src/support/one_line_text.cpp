#include "pecheck/one_line_text.hpp"

#include <algorithm>
#include <cstdio>

#include "utf8_sequence.hpp"

namespace pecheck {

std::string hex_escape(unsigned char byte) {
  char buffer[5];
  std::snprintf(buffer, sizeof buffer, "\\x%02X", byte);
  return buffer;
}

std::size_t utf8_sequence_length(std::string_view text, std::size_t pos) {
  const auto at = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = at(pos);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char second_min = 0x80;
  unsigned char second_max = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) second_min = 0xA0;  // overlong
    if (lead == 0xED) second_max = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) second_min = 0x90;  // overlong
    if (lead == 0xF4) second_max = 0x8F;  // past U+10FFFF
  } else {
    return 0;
  }
  if (text.size() - pos < length) return 0;
  if (at(pos + 1) < second_min || at(pos + 1) > second_max) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (at(pos + i) < 0x80 || at(pos + i) > 0xBF) return 0;
  }
  return length;
}

std::string escape_control_characters(std::string_view text, std::string_view kept) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size();) {
    const auto byte = static_cast<unsigned char>(text[pos]);
    if (byte < 0x20 || byte == 0x7F) {
      if (kept.find(text[pos]) != std::string_view::npos) {
        out += text[pos];
      } else {
        out += hex_escape(byte);
      }
      ++pos;
      continue;
    }
    const std::size_t length = utf8_sequence_length(text, pos);
    if (length == 0) {
      out += hex_escape(byte);
      ++pos;
      continue;
    }
    out.append(text.substr(pos, length));
    pos += length;
  }
  return out;
}

namespace {

// The length of the longest prefix of `text` of at most `max_bytes` that ends
// on a UTF-8 boundary (a cut never splits a sequence).
std::size_t cut_length(std::string_view text, std::size_t max_bytes) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t length = std::max<std::size_t>(utf8_sequence_length(text, pos), 1);
    if (pos + length > max_bytes) break;
    pos += length;
  }
  return pos;
}

std::string cut_note(std::string_view text) { return "... (" + std::to_string(text.size()) + " bytes)"; }

}  // namespace

std::string excerpt(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return escape_control_characters(text);
  return escape_control_characters(text.substr(0, cut_length(text, max_bytes))) + cut_note(text);
}

std::string quoted_excerpt_of(std::string_view text, std::size_t max_bytes) {
  // Appended piece by piece: "'" + std::string trips GCC 12's false -Wrestrict (bug 105651).
  std::string out(1, '\'');
  const bool cut = text.size() > max_bytes;
  out += escape_control_characters(cut ? text.substr(0, cut_length(text, max_bytes)) : text);
  out += '\'';
  if (cut) out += cut_note(text);
  return out;
}

}  // namespace pecheck
