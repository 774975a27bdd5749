#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "kept_entries.hpp"
#include "pecheck/accuracy/accumulator.hpp"

namespace pecheck::accuracy {

double Tally::rms_ulp() const {
  return measured() > 0 ? std::sqrt(sum_squares.value() / static_cast<double>(measured())) : 0.0;
}

double Tally::max_abs_error() const {
  // A typed mismatch other than a signed zero has a NaN or an infinity on one side.
  if (mismatches > signed_zeros) return std::numeric_limits<double>::infinity();
  return worst_abs ? worst_abs->abs_error : 0.0;
}

bool Tally::values_in_unit_interval() const { return largest_value_bits <= std::bit_cast<std::uint64_t>(1.0); }

void merge_into(Tally& tally, const Tally& part) {
  tally.entries += part.entries;
  tally.mismatches += part.mismatches;
  tally.signed_zeros += part.signed_zeros;
  tally.beyond_budget += part.beyond_budget;
  tally.sum_squares.merge(part.sum_squares);
  keep(tally.worst, part.worst, ulps_of);
  keep(tally.worst_abs, part.worst_abs, abs_error_of);
  keep(tally.first_mismatch, part.first_mismatch, no_size);
  keep(tally.nearest_zero, part.nearest_zero, closeness_to_zero);
  if (tally.histogram.size() < part.histogram.size()) tally.histogram.resize(part.histogram.size(), 0);
  for (std::size_t k = 0; k < part.histogram.size(); ++k) tally.histogram[k] += part.histogram[k];
  tally.largest_value_bits = std::max(tally.largest_value_bits, part.largest_value_bits);
  tally.beyond_bound += part.beyond_bound;
  if (part.worst_ratio_entry &&
      (!tally.worst_ratio_entry || part.worst_ratio > tally.worst_ratio ||
       (part.worst_ratio == tally.worst_ratio && part.worst_ratio_entry->key < tally.worst_ratio_entry->key))) {
    tally.worst_ratio = part.worst_ratio;
    tally.worst_ratio_bound = part.worst_ratio_bound;
    tally.worst_ratio_entry = part.worst_ratio_entry;
  }
}

}  // namespace pecheck::accuracy
