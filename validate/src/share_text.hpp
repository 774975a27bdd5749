// A count of entries with its share of the whole: "440190 of 1048576 entries
// (42%)", so a reader sees at once whether a few entries or most are off.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "pecheck/number_text.hpp"

namespace pecheck::validate {

// "(42%)", "(0.0095%)": three significant digits; "(0%)" and "(100%)" only when exact.
inline std::string percent_text(std::int64_t count, std::int64_t total) {
  if (total <= 0) return "";
  if (count == 0) return "(0%)";
  if (count == total) return "(100%)";
  const double share = 100.0 * static_cast<double>(count) / static_cast<double>(total);
  // Never rounded to a whole 0 or 100: that would hide the entries or the remainder.
  const double shown = share > 99.9 ? std::min(share, 99.9) : share;
  // Appended, not "(" + text: GCC 12 warns -Wrestrict on a literal plus a
  // temporary string (a false positive, GCC bug 105651).
  std::string text = "(";
  text.append(significant(shown, 3)).append("%)");
  return text;
}

inline std::string share_text(std::int64_t count, std::int64_t total) {
  return std::to_string(count) + " of " + std::to_string(total) + (total == 1 ? " entry " : " entries ") +
         percent_text(count, total);
}

}  // namespace pecheck::validate
