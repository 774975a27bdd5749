// One entry compared with its exact value, and where it is. The accumulator
// keeps a few (the worst, the first typed mismatch, ...); a key orders them,
// so that which one is kept never depends on the order the entries came in.
#pragma once

#include <compare>
#include <cstdint>

#include "pecheck/double_double.hpp"
#include "pecheck/format.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::accuracy {

// Where an entry is: the table among several measured together (a sweep's
// width; 0 when there is one), its row, its column. Ordered lexicographically.
struct EntryKey {
  std::int64_t table = 0;
  std::int64_t row = 0;
  std::int64_t column = 0;

  auto operator<=>(const EntryKey&) const = default;
};

struct ComparedEntry {
  EntryKey key;
  double value = 0.0;      // what the subject holds, a value of the format
  DoubleDouble exact;      // the exact value (about 106 bits)
  UlpError error;          // of value against exact in the format
  double abs_error = 0.0;  // |value - exact| (infinity when either is not finite)

  // Bit for bit: NaN equals itself, -0 differs from +0.
  bool operator==(const ComparedEntry& other) const;
};

// The entry at `key` with its errors in the format.
ComparedEntry compare_entry(const EntryKey& key, double value, DoubleDouble exact, const Format& format);

}  // namespace pecheck::accuracy
