#include "pecheck/sweep/statistics.hpp"

#include <bit>
#include <cmath>

namespace pecheck::sweep {

namespace {

// Bitwise equality of doubles: NaN equals itself, -0 differs from +0.
bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

// Whether `candidate` should replace `current` as the entry with the largest
// `size`: larger wins, and between equal sizes the smaller key. A total
// order, so the winner of any set is the same whatever the order of visits.
template <typename Size>
bool replaces(const std::optional<SweepEntry>& current, const SweepEntry& candidate, Size size) {
  if (!current) return true;
  const double a = size(candidate);
  const double b = size(*current);
  return a > b || (a == b && candidate.key < current->key);
}

double ulps_of(const SweepEntry& entry) { return entry.error.ulps; }
double abs_error_of(const SweepEntry& entry) { return entry.abs_error; }
double no_size(const SweepEntry&) { return 0.0; }

void keep_worse(std::optional<SweepEntry>& current, const SweepEntry& candidate, double (*size)(const SweepEntry&)) {
  if (replaces(current, candidate, size)) current = candidate;
}

void keep_worse(std::optional<SweepEntry>& current, const std::optional<SweepEntry>& candidate,
                double (*size)(const SweepEntry&)) {
  if (candidate) keep_worse(current, *candidate, size);
}

}  // namespace

bool SweepEntry::operator==(const SweepEntry& other) const {
  return key == other.key && position == other.position && same_bits(value, other.value) &&
         same_bits(exact.hi, other.exact.hi) && same_bits(exact.lo, other.exact.lo) &&
         error.mismatch == other.error.mismatch && same_bits(error.ulps, other.error.ulps) &&
         same_bits(abs_error, other.abs_error);
}

SweepEntry compare_entry(const EntryKey& key, std::int64_t position, double value, DoubleDouble exact,
                         const Format& format) {
  return SweepEntry{key, position, value, exact, ulp_error(value, exact, format), absolute_error(value, exact)};
}

double SweepStatistics::rms_ulp() const {
  return measured() > 0 ? std::sqrt(sum_squares_ulp.value() / static_cast<double>(measured())) : 0.0;
}

void record(SweepStatistics& s, const SweepEntry& entry, double budget_ulp) {
  ++s.entries;
  if (entry.error.mismatch != Mismatch::none) {
    ++s.mismatches;
    keep_worse(s.first_mismatch, entry, no_size);
    return;
  }
  if (entry.error.ulps > budget_ulp) ++s.beyond_budget;
  s.sum_squares_ulp.add_square(entry.error.ulps);
  keep_worse(s.worst_ulp, entry, ulps_of);
  keep_worse(s.worst_abs_error, entry, abs_error_of);
}

void merge_into(SweepStatistics& total, const SweepStatistics& part) {
  total.entries += part.entries;
  total.mismatches += part.mismatches;
  total.beyond_budget += part.beyond_budget;
  total.escalations += part.escalations;
  total.sum_squares_ulp.add(part.sum_squares_ulp);
  keep_worse(total.worst_ulp, part.worst_ulp, ulps_of);
  keep_worse(total.worst_abs_error, part.worst_abs_error, abs_error_of);
  keep_worse(total.first_mismatch, part.first_mismatch, no_size);
}

}  // namespace pecheck::sweep
