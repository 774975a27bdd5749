#include "pecheck/text_wrap.hpp"

namespace pecheck {

namespace {

std::string wrap_paragraph(std::string_view text, std::size_t width, std::string_view first_indent,
                           std::string_view indent) {
  std::string out;
  std::string line(first_indent);
  bool line_has_word = false;
  std::size_t k = 0;
  while (k < text.size()) {
    while (k < text.size() && text[k] == ' ') ++k;
    if (k >= text.size()) break;
    std::size_t end = text.find(' ', k);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(k, end - k);
    if (line_has_word && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = std::string(indent);
      line_has_word = false;
    }
    if (line_has_word) line += ' ';
    line += word;
    line_has_word = true;
    k = end;
  }
  return out + line + "\n";
}

}  // namespace

std::string wrap_text(std::string_view text, std::size_t width, std::string_view first_indent,
                      std::string_view indent) {
  std::string out;
  bool first = true;
  std::size_t k = 0;
  while (k <= text.size()) {
    std::size_t end = text.find('\n', k);
    if (end == std::string_view::npos) end = text.size();
    out += wrap_paragraph(text.substr(k, end - k), width, first ? first_indent : indent, indent);
    first = false;
    k = end + 1;
  }
  return out;
}

std::string wrap_lines(std::string_view text, std::size_t width) {
  std::string out;
  std::size_t k = 0;
  while (k < text.size()) {
    std::size_t end = text.find('\n', k);
    const bool newline = end != std::string_view::npos;
    if (!newline) end = text.size();
    const std::string_view line = text.substr(k, end - k);
    if (line.size() <= width) {
      out += line;
      if (newline) out += '\n';
    } else {
      const std::size_t lead = line.find_first_not_of(' ');
      const std::string indent(lead == std::string_view::npos ? 0 : lead, ' ');
      std::string wrapped = wrap_paragraph(line.substr(indent.size()), width, indent, indent + "  ");
      if (!newline) wrapped.pop_back();
      out += wrapped;
    }
    k = end + 1;
  }
  return out;
}

}  // namespace pecheck
