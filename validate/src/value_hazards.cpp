#include <cmath>
#include <span>
#include <sstream>

#include "faults.hpp"

namespace pecheck::validate {

namespace {

std::string where(const Table& table, std::size_t index) {
  const auto k = static_cast<std::int64_t>(index);
  return "row " + std::to_string(k / table.cols) + ", column " + std::to_string(k % table.cols);
}

// Whether any value of the span is NaN, infinite or outside [-1, 1]: one
// comparison an entry (NaN compares false), which vectorises.
template <typename T>
bool all_in_unit_interval(std::span<const T> values) {
  bool inside = true;
  for (const T v : values) inside &= (v >= T(-1)) & (v <= T(1));
  return inside;
}

}  // namespace

std::vector<Hazard> value_hazards(const Table& table) {
  // Almost every table has all its values in [-1, 1]: said in one pass over
  // its own type, before the pass entry by entry that finds where they are not.
  if (table.format == FormatId::float32 && all_in_unit_interval(table.storage<float>())) return {};
  if (table.format == FormatId::float64 && all_in_unit_interval(table.storage<double>())) return {};
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
