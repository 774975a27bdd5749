#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>
#include <sstream>
#include <thread>

#include "faults.hpp"
#include "pecheck/parallel_for.hpp"

namespace pecheck::validate {

namespace {

std::string where(const Table& table, std::size_t index) {
  const auto k = static_cast<std::int64_t>(index);
  return "row " + std::to_string(k / table.cols) + ", column " + std::to_string(k % table.cols);
}

// Parts of at least this many entries go to a second thread: below it the
// thread's start costs more than the half pass it takes over.
constexpr std::size_t parallel_entries = std::size_t{1} << 20;

// The largest magnitude bit pattern of the values (sign bit cleared), on up
// to two threads: one integer maximum an entry, which vectorises (a
// comparison of floats against -1 and 1 folded into a bool did not).
template <typename Bits, typename T>
Bits largest_magnitude_bits(std::span<const T> values, Bits magnitude_mask) {
  static_assert(sizeof(Bits) == sizeof(T));
  const auto largest_in = [magnitude_mask](std::span<const T> part) {
    Bits largest = 0;
    for (const T v : part) largest = std::max<Bits>(largest, std::bit_cast<Bits>(v) & magnitude_mask);
    return largest;
  };
  if (values.size() < 2 * parallel_entries || machine_threads() < 2) return largest_in(values);
  std::array<Bits, 2> largest{};
  const std::size_t half = values.size() / 2;
  parallel_for(2, [&](int worker) {
    largest[static_cast<std::size_t>(worker)] =
        largest_in(worker == 0 ? values.first(half) : values.subspan(half));
  });
  return std::max(largest[0], largest[1]);
}

// Whether every value is in [-1, 1] (none NaN or infinite): for IEEE formats
// the magnitude bit patterns order as the magnitudes, with infinity and NaN
// above every finite value, so the largest pattern is at most that of 1.
bool all_in_unit_interval(const Table& table) {
  switch (table.format) {
    case FormatId::float64:
      return largest_magnitude_bits<std::uint64_t>(table.storage<double>(), 0x7fff'ffff'ffff'ffffULL) <=
             std::bit_cast<std::uint64_t>(1.0);
    case FormatId::float32:
      return largest_magnitude_bits<std::uint32_t>(table.storage<float>(), 0x7fff'ffffU) <=
             std::bit_cast<std::uint32_t>(1.0F);
    case FormatId::float16:
      return largest_magnitude_bits<std::uint16_t>(table.storage<std::uint16_t>(), std::uint16_t{0x7fff}) <=
             std::uint16_t{0x3c00};
    case FormatId::bfloat16:
      return largest_magnitude_bits<std::uint16_t>(table.storage<std::uint16_t>(), std::uint16_t{0x7fff}) <=
             std::uint16_t{0x3f80};
  }
  return false;
}

}  // namespace

std::vector<Hazard> value_hazards(const Table& table) {
  // Almost every table has all its values in [-1, 1]: said in one pass over
  // its own type, before the pass entry by entry that finds where they are not.
  if (all_in_unit_interval(table)) return {};
  std::int64_t non_finite = 0;
  std::int64_t outside = 0;
  std::size_t first_non_finite = 0;
  std::size_t worst_outside = 0;
  for (std::size_t k = 0; k < static_cast<std::size_t>(table.size()); ++k) {
    const double v = table.flat(static_cast<std::int64_t>(k));
    if (!std::isfinite(v)) {
      if (non_finite++ == 0) first_non_finite = k;
    } else if (std::fabs(v) > 1.0) {
      if (outside++ == 0 || std::fabs(v) > std::fabs(table.flat(static_cast<std::int64_t>(worst_outside)))) worst_outside = k;
    }
  }
  std::vector<Hazard> hazards;
  const Format& format = format_of(table.format);
  if (non_finite > 0) {
    const double v = table.flat(static_cast<std::int64_t>(first_non_finite));
    std::ostringstream evidence;
    evidence << non_finite << " entr" << (non_finite == 1 ? "y is" : "ies are") << " NaN or infinite; the first, at "
             << where(table, first_non_finite) << ", is " << (std::isnan(v) ? "NaN" : (v > 0 ? "+inf" : "-inf"))
             << " (" << hex_bits(v, format) << "): sin and cos are finite everywhere";
    hazards.push_back({HazardKind::non_finite, evidence.str()});
  }
  if (outside > 0) {
    const double v = table.flat(static_cast<std::int64_t>(worst_outside));
    std::ostringstream evidence;
    evidence.precision(9);
    evidence << outside << " entr" << (outside == 1 ? "y lies" : "ies lie") << " outside [-1, 1]; the largest, at "
             << where(table, worst_outside) << ", is " << v << " (" << hex_bits(v, format)
             << "): 1 is representable in every format, so no rounding of sin or cos can pass it";
    hazards.push_back({HazardKind::out_of_range, evidence.str()});
  }
  return hazards;
}

}  // namespace pecheck::validate
