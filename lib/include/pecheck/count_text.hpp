// "1 entry", "2 entries": a count with its noun in the number it takes, for
// every printed count (a report reads "1 checks" as a bug).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pecheck {

// The noun for `count`: `singular` for exactly 1, otherwise `plural`
// (singular + "s" when not given).
inline std::string noun_for(std::int64_t count, std::string_view singular, std::string_view plural = {}) {
  if (count == 1) return std::string(singular);
  return plural.empty() ? std::string(singular) + "s" : std::string(plural);
}

// "<count> <noun>", the noun as noun_for chooses it.
inline std::string count_of(std::int64_t count, std::string_view singular, std::string_view plural = {}) {
  return std::to_string(count) + " " + noun_for(count, singular, plural);
}

}  // namespace pecheck
