#include "legend_layout.hpp"

#include <algorithm>
#include <cstdint>

#include "pecheck/reports/escape.hpp"

namespace pecheck::reports::plot {

namespace {

// Advance widths of ASCII 32..126 in 1/2048 em: for each character the
// larger of DejaVu Sans's and Liberation Sans Regular's, read from the fonts'
// hmtx tables (Debian 12's fonts-dejavu-core 2.37 and fonts-liberation2
// 2.1.5; both have 2048 units per em). Chromium on Debian draws sans-serif
// with DejaVu Sans, which is wider than Liberation for most characters.
constexpr std::uint16_t ascii_advance[95] = {
    651,  821,  942,  1716, 1303, 1946, 1597, 563,  799,  799,  1024, 1716, 651,  739,  651,  690,
    1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690,  690,  1716, 1716, 1716, 1139,
    2079, 1401, 1405, 1479, 1577, 1366, 1251, 1593, 1540, 604,  1024, 1366, 1141, 1767, 1532, 1612,
    1366, 1612, 1479, 1366, 1251, 1499, 1401, 2025, 1403, 1366, 1403, 799,  690,  799,  1716, 1139,
    1024, 1255, 1300, 1126, 1300, 1260, 721,  1300, 1298, 569,  569,  1186, 569,  1995, 1298, 1253,
    1300, 1300, 842,  1067, 803,  1298, 1212, 1675, 1212, 1212, 1075, 1303, 690,  1303, 1716,
};
// Any other character: the widest advance either font has for the ones the
// report writes (em dash and ellipsis, 2048), plus the 79 units of '@'.
constexpr double other_advance = 2079.0;

// The words of a name and the line breaks between them, greedy: as many words
// on a line as fit in `width`; a word wider than a line is cut between characters.
std::vector<std::string> wrap(const std::string& name, double width) {
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start <= name.size()) {
    const std::size_t space = name.find(' ', start);
    const std::size_t end = space == std::string::npos ? name.size() : space;
    if (end > start) words.push_back(name.substr(start, end - start));
    start = end + 1;
  }
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& word : words) {
    const std::string joined = line.empty() ? word : line + ' ' + word;
    if (text_width_bound(joined, legend_font_px) <= width) {
      line = joined;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    line.clear();
    for (std::size_t i = 0; i < word.size();) {
      // Whole UTF-8 sequences only: a continuation byte is 10xxxxxx.
      std::size_t next = i + 1;
      while (next < word.size() && (static_cast<unsigned char>(word[next]) & 0xc0) == 0x80) ++next;
      const std::string piece = word.substr(i, next - i);
      if (!line.empty() && text_width_bound(line + piece, legend_font_px) > width) {
        lines.push_back(line);
        line.clear();
      }
      line += piece;
      i = next;
    }
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

// The text as a viewer shows it: escaped as the SVG writes it (ill-formed
// UTF-8 as U+FFFD, control characters as visible "\x1b"), references back
// to their one character, and tab and newline as the spaces SVG draws.
std::string as_drawn(const std::string& name) {
  const std::string escaped = escape_xml_text(name);
  std::string out;
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    const char c = escaped[i];
    if (c == '&') {
      const std::size_t end = escaped.find(';', i);
      const std::string reference = escaped.substr(i, end - i + 1);
      out += reference == "&lt;" ? '<' : reference == "&gt;" ? '>' : reference == "&amp;" ? '&' : ' ';  // &#13;
      i = end;
    } else {
      out += (c == '\n' || c == '\t' || c == '\r') ? ' ' : c;
    }
  }
  return out;
}

}  // namespace

double text_width_bound(std::string_view text, double font_px) {
  double units = 0.0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 32 && c < 127) {
      units += ascii_advance[c - 32];
    } else if ((c & 0xc0) != 0x80) {  // the first byte of a non-ASCII character
      units += other_advance;
    }
  }
  return units / 2048.0 * font_px;
}

LegendLayout layout_legend(const std::vector<std::string>& names, double panel_width, double height,
                           double max_fraction) {
  LegendLayout layout;
  if (names.size() < 2 && (names.empty() || names.front().empty())) return layout;
  const double text_room = max_fraction * panel_width - legend_gap - legend_sample;
  std::vector<double> tall, wide;  // each entry's height and its longest line
  for (const std::string& name : names) {
    layout.lines.push_back(wrap(as_drawn(name), text_room));
    double widest = 0.0;
    for (const std::string& line : layout.lines.back()) widest = std::max(widest, text_width_bound(line, legend_font_px));
    wide.push_back(widest);
    tall.push_back(legend_row + legend_line * static_cast<double>(layout.lines.back().size() - 1));
  }
  // Entries in order, down a column until the next would pass the height,
  // then the next column (an entry taller than the height has one to itself).
  double x = 0.0, y = 0.0, column_width = 0.0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (y > 0.0 && y + tall[i] > height) {
      x += legend_sample + column_width + legend_column_gap;
      y = 0.0;
      column_width = 0.0;
    }
    layout.offsets.push_back(x);
    layout.baselines.push_back(y + 12.0);  // an 11 px line's ascent stays below the top
    y += tall[i];
    column_width = std::max(column_width, wide[i]);
    layout.height = std::max(layout.height, y);
  }
  layout.width = legend_gap + x + legend_sample + column_width;
  return layout;
}

}  // namespace pecheck::reports::plot
