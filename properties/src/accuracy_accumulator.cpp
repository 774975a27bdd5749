#include "pecheck/properties/accuracy_accumulator.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <type_traits>

#include "pecheck/properties/accuracy.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::properties {

namespace {

struct EntryError {
  Mismatch mismatch = Mismatch::none;
  double ulps = 0.0;
  double abs_error = 0.0;
};

// ulp_error and absolute_error of one entry, the same doubles, without their
// library calls (ilogb, ldexp) on the common path: a finite value against a
// finite exact value with 2^-900 <= |hi| <= 2^1000. There the exact value's
// binade is read from the bits of fl(hi + lo) (lib/src/numbers/ulp.cpp has
// why, and what a power of two with a tail of the other sign means), the ULP
// is a power of two 2^k with -953 <= k <= 1000 (k >= -901 - 52 for float64),
// so 2^-k is a normal double too and |difference| * 2^-k is the same
// correctly rounded quotient as |difference| / 2^k. Anything else goes
// through the library's own functions.
inline EntryError entry_error(double value, DoubleDouble exact, const Format& format) {
  const double magnitude = std::fabs(exact.hi);
  const DoubleDouble sum = two_sum(exact.hi, exact.lo);
  const double sum_magnitude = std::fabs(sum.hi);
  const bool common = std::isfinite(value) && std::isfinite(exact.lo) && magnitude >= 0x1p-900 &&
                      magnitude <= 0x1p1000 && sum_magnitude >= 0x1p-900 && sum_magnitude <= 0x1p1000;
  if (!common) {
    const UlpError error = ulp_error(value, exact, format);
    return {error.mismatch, error.ulps, absolute_error(value, exact)};
  }
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(sum_magnitude);
  const int exponent = static_cast<int>(bits >> 52) - 1023;
  const bool power_of_two = (bits & ((std::uint64_t{1} << 52) - 1)) == 0;
  const bool below = sum.lo != 0.0 && std::signbit(sum.lo) != std::signbit(sum.hi);
  const int binade = std::max(power_of_two && below ? exponent - 1 : exponent, format.min_exponent);
  const int k = binade - (format.precision - 1);
  const double inverse_ulp = std::bit_cast<double>(static_cast<std::uint64_t>(1023 - k) << 52);
  const double difference = std::fabs((value - exact.hi) - exact.lo);
  return {Mismatch::none, difference * inverse_ulp, difference};
}

}  // namespace

AccuracyAccumulator::AccuracyAccumulator(FormatId format, double budget_ulp, const Float64AngleAllowance* allowance)
    : format_id_(format), budget_ulp_(budget_ulp), allowance_(allowance) {
  histogram_.upper_edges = ulp_histogram_edges();
  histogram_.counts.assign(histogram_.upper_edges.size(), 0);
}

void AccuracyAccumulator::beyond_budget(std::int64_t row, std::int64_t column, double value, DoubleDouble exact,
                                        double ulps, double abs_error) {
  const double bound = allowance_->bound(row, column, exact);
  // A bound of 0 (an entry computed exactly) admits nothing but the exact value.
  const double ratio = bound > 0.0 ? abs_error / bound : std::numeric_limits<double>::infinity();
  ++beyond_ulp_;
  if (!(abs_error <= bound)) ++beyond_bound_;
  const Entry here{row, column, value, exact};
  if (worst_ratio_entry_.row < 0 || ratio > worst_ratio_ ||
      (ratio == worst_ratio_ && here.before(worst_ratio_entry_))) {
    worst_ratio_ = ratio;
    worst_ratio_ulp_ = ulps;
    worst_ratio_bound_ = bound;
    worst_ratio_entry_ = here;
  }
}

namespace {

// A row's exact values as double-doubles or as plain doubles (lo zero).
inline double hi_of(const DoubleDouble& x) { return x.hi; }
inline double lo_of(const DoubleDouble& x) { return x.lo; }
inline double hi_of(double x) { return x; }
inline double lo_of(double) { return 0.0; }

// Eight doubles, and their bits, as GCC's vector extensions hold them: one
// register where the target has 512-bit vectors, four pairs where it has
// SSE2 only; every operation is the scalar one lane by lane.
using Doubles = double __attribute__((vector_size(64)));
using Floats = float __attribute__((vector_size(32)));
using Bits = std::uint64_t __attribute__((vector_size(64)));
using Lanes = std::int64_t __attribute__((vector_size(64)));  // masks: -1 true, 0 false
constexpr std::size_t width = 8;

// What a row's pass gathers besides its entries' errors.
struct RowTotals {
  std::int64_t common = 0;               // entries on the common path
  double squares = 0.0;                  // their ulps squared, summed as below
  double max_ulps = 0.0;                 // the largest ulps
  double max_abs_error = 0.0;            // the largest |error|
  std::array<std::int64_t, 4> above{};   // entries with ulps above each of four edges
  std::uint64_t largest_value_bits = 0;  // the largest bit pattern of |value|, every entry's
};

// Helpers take and give vectors by reference: a vector of 64 bytes passed or
// returned by value takes a calling convention that depends on the target's
// vector width (GCC warns, -Wpsabi, on a target without 512-bit vectors).
inline void load_values(const float* v, Doubles& out) {
  Floats f;
  std::memcpy(&f, v, sizeof f);
  out = __builtin_convertvector(f, Doubles);
}
inline void load_values(const double* v, Doubles& out) { std::memcpy(&out, v, sizeof out); }
inline void load_exact(const double* e, Doubles& hi, Doubles& lo) {
  std::memcpy(&hi, e, sizeof hi);
  lo = Doubles{};
}
inline void load_exact(const DoubleDouble* e, Doubles& hi, Doubles& lo) {
  static_assert(sizeof(DoubleDouble) == 2 * sizeof(double));
  Doubles first;
  Doubles second;
  std::memcpy(&first, e, sizeof first);
  std::memcpy(&second, e + width / 2, sizeof second);
  hi = __builtin_shuffle(first, second, Lanes{0, 2, 4, 6, 8, 10, 12, 14});
  lo = __builtin_shuffle(first, second, Lanes{1, 3, 5, 7, 9, 11, 13, 15});
}
constexpr std::uint64_t magnitude_bits = 0x7fffffffffffffffULL;

// The common path of entry_error for a whole row, eight entries at a time
// without branches: ulps and |error| where common[c] (as entry_error's
// common case, the same doubles), 0 elsewhere (those entries go through
// entry_error), and in the same pass the row's totals. The ULP is the same
// power of two: the binade 2^e of fl(hi + lo) is its bits masked to the
// exponent, halved for a power of two with a tail of the other sign, floored
// at the format's smallest normal 2^min_exponent, times 2^(1 - p); all exact,
// since 2^-953 <= ulp <= 2^1000 in the common case. Its inverse 2^-k is read
// off the bits as narrow_rounding does (reference/src/double_tier.hpp):
// 0x7fe0000000000000 - bits(2^k) = bits(2^-k) for a normal 2^k with
// |k| <= 1022. The values are read in their own type (a float converts to a
// double exactly), the exact values as DoubleDouble or, for a row of plain
// doubles, as double: every lo zero, so fl(hi + lo) = hi with no tail, and
// the same doubles come without the two_sum.
//
// Written with vector types because GCC 12 left every scalar form of this
// loop that also gathered the totals scalar, and the totals' separate
// passes were most of the accumulator's time. The squares go into eight
// partial sums, lane j taking entries j, j + 8, ... in order and the last
// count % 8 entries going to lane 0, added up 0 to 7: the RMS agrees with
// a pass entry by entry to about n 2^-53 relative, far below its digits.
template <bool StoreEntries, typename Value, typename Exact>
RowTotals common_errors(const Value* __restrict values, const Exact* __restrict exact, std::size_t count,
                        const Format& format, std::span<const double, 4> edges, double* __restrict ulps,
                        double* __restrict abs_error, unsigned char* __restrict common) {
  const double min_normal = std::ldexp(1.0, format.min_exponent);
  const double ulp_scale = std::ldexp(1.0, 1 - format.precision);
  constexpr bool plain = std::is_same_v<Exact, double>;
  Doubles squares{};
  Bits max_ulps{};
  Bits max_abs{};
  Lanes common_count{};
  Bits largest_value{};
  std::array<Lanes, 4> above{};
  // The edges in registers: read through the span, they were loaded again
  // every eight entries (the stores might have changed them, for all GCC knew).
  std::array<Doubles, 4> edge;
  for (std::size_t k = 0; k < 4; ++k) edge[k] = Doubles{} + edges[k];
  // n lanes from entry c (n < 8 only for the row's last entries, padded with
  // zeros, which are not common and add nothing).
  const auto entries = [&](std::size_t c, std::size_t n, Doubles& entry_ulps, Doubles& entry_abs, Lanes& is_common,
                           Bits& value_bits) [[gnu::always_inline]] {
    Doubles value{};
    Doubles hi{};
    Doubles lo{};
    if (n == width) {
      load_values(values + c, value);
      load_exact(exact + c, hi, lo);
    } else {
      for (std::size_t j = 0; j < n; ++j) {
        value[j] = static_cast<double>(values[c + j]);
        hi[j] = hi_of(exact[c + j]);
        lo[j] = lo_of(exact[c + j]);
      }
    }
    const Doubles sum = plain ? hi : hi + lo;  // two_sum, written out
    const Doubles bb = sum - hi;
    const Doubles tail = plain ? Doubles{} : (hi - (sum - bb)) + (lo - bb);
    const Doubles magnitude = reinterpret_cast<Doubles>(reinterpret_cast<Bits>(hi) & magnitude_bits);
    const Doubles sum_magnitude = reinterpret_cast<Doubles>(reinterpret_cast<Bits>(sum) & magnitude_bits);
    const Doubles lo_magnitude = reinterpret_cast<Doubles>(reinterpret_cast<Bits>(lo) & magnitude_bits);
    value_bits = reinterpret_cast<Bits>(value) & magnitude_bits;
    const Lanes in_range = (reinterpret_cast<Doubles>(value_bits) <= 0x1.fffffffffffffp1023) &
                           (lo_magnitude <= 0x1.fffffffffffffp1023) & (magnitude >= 0x1p-900) &
                           (magnitude <= 0x1p1000) & (sum_magnitude >= 0x1p-900) & (sum_magnitude <= 0x1p1000);
    is_common = n == width ? in_range : in_range & (Lanes{0, 1, 2, 3, 4, 5, 6, 7} < static_cast<std::int64_t>(n));
    const Doubles binade = reinterpret_cast<Doubles>(reinterpret_cast<Bits>(sum_magnitude) & 0x7ff0000000000000ULL);
    const Lanes below = (tail != 0.0) & ((tail < 0.0) != (sum < 0.0));
    const Doubles lowered = ((sum_magnitude == binade) & below) ? 0.5 * binade : binade;
    const Doubles ulp = (lowered > min_normal ? lowered : Doubles{} + min_normal) * ulp_scale;
    // Outside the common case the ULP may be anything: 1 keeps the bits a double.
    const Doubles ulp_safe = is_common ? ulp : Doubles{} + 1.0;
    const Doubles inverse_ulp = reinterpret_cast<Doubles>(0x7fe0000000000000ULL - reinterpret_cast<Bits>(ulp_safe));
    const Doubles difference = reinterpret_cast<Doubles>(reinterpret_cast<Bits>((value - hi) - lo) & magnitude_bits);
    entry_ulps = is_common ? difference * inverse_ulp : Doubles{};
    entry_abs = is_common ? difference : Doubles{};
    if constexpr (StoreEntries) {
      std::memcpy(ulps + c, &entry_ulps, n * sizeof(double));
      std::memcpy(abs_error + c, &entry_abs, n * sizeof(double));
      for (std::size_t j = 0; j < n; ++j) common[c + j] = is_common[j] != 0 ? 1 : 0;
    }
  };
  // Non-negative doubles order as their bits: the maxima are integer maxima.
  const auto add = [&](const Doubles& entry_ulps, const Doubles& entry_abs, const Lanes& is_common,
                       const Bits& value_bits) [[gnu::always_inline]] {
    const Bits ulps_bits = reinterpret_cast<Bits>(entry_ulps);
    const Bits abs_bits = reinterpret_cast<Bits>(entry_abs);
    largest_value = value_bits > largest_value ? value_bits : largest_value;
    max_ulps = ulps_bits > max_ulps ? ulps_bits : max_ulps;
    max_abs = abs_bits > max_abs ? abs_bits : max_abs;
    common_count -= is_common;
    for (std::size_t k = 0; k < 4; ++k) above[k] -= entry_ulps > edge[k];
  };
  Doubles entry_ulps;
  Doubles entry_abs;
  Lanes is_common;
  Bits value_bits;
  std::size_t c = 0;
  for (; c + width <= count; c += width) {
    entries(c, width, entry_ulps, entry_abs, is_common, value_bits);
    add(entry_ulps, entry_abs, is_common, value_bits);
    squares += entry_ulps * entry_ulps;
  }
  if (c < count) {
    entries(c, count - c, entry_ulps, entry_abs, is_common, value_bits);  // the padding's zeros count nothing
    add(entry_ulps, entry_abs, is_common, value_bits);
    for (std::size_t j = 0; j < count - c; ++j) squares[0] += entry_ulps[j] * entry_ulps[j];
  }
  RowTotals totals;
  for (std::size_t j = 0; j < width; ++j) {
    totals.squares += squares[j];
    totals.common += common_count[j];
    totals.max_ulps = std::max(totals.max_ulps, std::bit_cast<double>(max_ulps[j]));
    totals.max_abs_error = std::max(totals.max_abs_error, std::bit_cast<double>(max_abs[j]));
    totals.largest_value_bits = std::max<std::uint64_t>(totals.largest_value_bits, largest_value[j]);
    for (std::size_t k = 0; k < 4; ++k) totals.above[k] += above[k][j];
  }
  return totals;
}

// How many of values[0, n) exceed edges[k], ..., edges[k + 3] (those below
// `passed`; the others count 0), in one pass: four independent sums, where a
// pass per edge is one long chain of dependent additions.
void count_above_four(const double* values, std::size_t n, std::span<const double> edges, std::size_t k,
                      std::size_t passed, std::int64_t above[4]) {
  double edge[4];
  for (std::size_t j = 0; j < 4; ++j) {
    edge[j] = k + j < passed ? edges[k + j] : std::numeric_limits<double>::infinity();
  }
  const double e0 = edge[0], e1 = edge[1], e2 = edge[2], e3 = edge[3];
  std::int64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (std::size_t e = 0; e < n; ++e) {
    const double x = values[e];
    a0 += x > e0 ? 1 : 0;
    a1 += x > e1 ? 1 : 0;
    a2 += x > e2 ? 1 : 0;
    a3 += x > e3 ? 1 : 0;
  }
  above[0] = a0;
  above[1] = a1;
  above[2] = a2;
  above[3] = a3;
}

}  // namespace

void AccuracyAccumulator::add_entry(std::int64_t row, std::int64_t column, double value, DoubleDouble exact,
                                    double ulps) {
  sum_squares_.add(ulps * ulps);
  count_in_histogram(histogram_, ulps);
  const Entry here{row, column, value, exact};
  // Rows arrive in any order: the earliest of equal maxima is kept, as a
  // pass in row order keeps the first.
  if (worst_.row < 0 || ulps > max_ulp_ || (ulps == max_ulp_ && here.before(worst_))) {
    max_ulp_ = ulps;
    worst_ = here;
  }
}

template <typename Value>
void AccuracyAccumulator::add_values(const Value* values, std::int64_t count, std::int64_t convention_row,
                                     ExactRow exact) {
  const Format& format = format_of(format_id_);
  const auto n = static_cast<std::size_t>(count);
  const std::span<const double> edges = histogram_.upper_edges;
  const std::span<const double, 4> first_edges = edges.first<4>();
  // The row's totals first, without its entries' errors: most rows need
  // nothing more. A row that does (see below) is passed again, storing them.
  const auto row_pass = [&](auto store_entries) {
    constexpr bool store = decltype(store_entries)::value;
    return exact.plain != nullptr ? common_errors<store>(values, exact.plain, n, format, first_edges, ulps_.data(),
                                                         abs_.data(), common_.data())
                                  : common_errors<store>(values, exact.pairs, n, format, first_edges, ulps_.data(),
                                                         abs_.data(), common_.data());
  };
  const RowTotals totals = row_pass(std::false_type{});
  entries_ += count;
  largest_value_bits_ = std::max(largest_value_bits_, totals.largest_value_bits);

  // The common entries: counts, squares, the histogram and the row's maximum.
  const std::int64_t common_count = totals.common;
  // The row's sum in a fixed order, then an order-free sum over rows: the
  // RMS does not depend on which worker took which row.
  sum_squares_.add(totals.squares);
  // Bin k of the histogram counts the entries in (edge k-1, edge k]: the
  // entries above edge k-1 less those above edge k. An uncommon entry has
  // ulps 0 here and is taken out of bin 0. No entry is above an edge at or
  // past the row's maximum: those counts are 0 without a pass over the row
  // (a table within 1 ULP needs 6 of the 14 edges: the first four are
  // counted in the row's pass, the others four at a time).
  const double row_max = totals.max_ulps;
  std::size_t passed = 0;  // the edges below row_max
  while (passed < edges.size() && row_max > edges[passed]) ++passed;
  // The entries' errors are wanted for the edges past the first four, the
  // worst entry, the allowance's check and the uncommon entries: the same
  // doubles again, stored this time.
  const bool new_worst = worst_.row < 0 || row_max >= max_ulp_;
  const bool beyond = allowance_ != nullptr && row_max > budget_ulp_;
  if (passed > first_edges.size() || new_worst || beyond || totals.common != count) {
    ulps_.resize(n);
    abs_.resize(n);
    common_.resize(n);
    row_pass(std::true_type{});
  }
  std::int64_t above_previous = common_count;
  for (std::size_t k = 0; k < edges.size(); k += 4) {
    std::int64_t above[4] = {};
    if (k == 0) {
      std::copy(totals.above.begin(), totals.above.end(), above);
    } else if (k < passed) {
      count_above_four(ulps_.data(), n, edges, k, passed, above);
    }
    for (std::size_t j = 0; j < 4 && k + j < edges.size(); ++j) {
      histogram_.counts[k + j] += above_previous - above[j];
      above_previous = above[j];
    }
  }
  max_abs_error_ = std::max(max_abs_error_, totals.max_abs_error);
  if (new_worst) {
    for (std::size_t e = 0; e < n; ++e) {
      if (common_[e] == 0 || ulps_[e] != row_max) continue;
      const Entry here{convention_row, static_cast<std::int64_t>(e), values[e], exact[e]};
      if (worst_.row < 0 || row_max > max_ulp_ || here.before(worst_)) {
        max_ulp_ = row_max;
        worst_ = here;
      }
      break;  // the row's first
    }
  }
  if (beyond) {
    for (std::size_t e = 0; e < n; ++e) {
      if (common_[e] != 0 && ulps_[e] > budget_ulp_) {
        beyond_budget(convention_row, static_cast<std::int64_t>(e), values[e], exact[e], ulps_[e], abs_[e]);
      }
    }
  }

  // The rest (zeros, non-finite values, exact values out of range) entry by entry.
  if (common_count == count) return;
  for (std::size_t e = 0; e < n; ++e) {
    if (common_[e] != 0) continue;
    const EntryError error = entry_error(values[e], exact[e], format);
    max_abs_error_ = std::max(max_abs_error_, error.abs_error);
    if (error.mismatch != Mismatch::none) {
      ++mismatches_;
      continue;
    }
    add_entry(convention_row, static_cast<std::int64_t>(e), values[e], exact[e], error.ulps);
    if (allowance_ != nullptr && error.ulps > budget_ulp_) {
      beyond_budget(convention_row, static_cast<std::int64_t>(e), values[e], exact[e], error.ulps, error.abs_error);
    }
  }
}

void AccuracyAccumulator::add_row(const TableView& table, std::int64_t table_row, std::int64_t convention_row,
                                  std::span<const DoubleDouble> exact) {
  add_row(table, table_row, convention_row, ExactRow{exact.data(), nullptr});
}

void AccuracyAccumulator::add_row(const TableView& table, std::int64_t table_row, std::int64_t convention_row,
                                  std::span<const double> plain_exact) {
  add_row(table, table_row, convention_row, ExactRow{nullptr, plain_exact.data()});
}

void AccuracyAccumulator::add_row(const TableView& table, std::int64_t table_row, std::int64_t convention_row,
                                  ExactRow exact) {
  const std::int64_t count = table.cols();
  if (table.format() == FormatId::float32) {
    add_values(table.row<float>(table_row).data(), count, convention_row, exact);
    return;
  }
  if (table.format() == FormatId::float64) {
    add_values(table.row<double>(table_row).data(), count, convention_row, exact);
    return;
  }
  values_.resize(static_cast<std::size_t>(count));  // the 16-bit formats, decoded (exactly)
  for (std::int64_t c = 0; c < count; ++c) values_[static_cast<std::size_t>(c)] = table.at(table_row, c);
  add_values(values_.data(), count, convention_row, exact);
}

void AccuracyAccumulator::merge(const AccuracyAccumulator& other) {
  entries_ += other.entries_;
  mismatches_ += other.mismatches_;
  largest_value_bits_ = std::max(largest_value_bits_, other.largest_value_bits_);
  sum_squares_.merge(other.sum_squares_);
  max_abs_error_ = std::max(max_abs_error_, other.max_abs_error_);
  if (other.worst_.row >= 0 &&
      (worst_.row < 0 || other.max_ulp_ > max_ulp_ || (other.max_ulp_ == max_ulp_ && other.worst_.before(worst_)))) {
    max_ulp_ = other.max_ulp_;
    worst_ = other.worst_;
  }
  for (std::size_t k = 0; k < histogram_.counts.size(); ++k) histogram_.counts[k] += other.histogram_.counts[k];
  beyond_ulp_ += other.beyond_ulp_;
  beyond_bound_ += other.beyond_bound_;
  if (other.worst_ratio_entry_.row >= 0 &&
      (worst_ratio_entry_.row < 0 || other.worst_ratio_ > worst_ratio_ ||
       (other.worst_ratio_ == worst_ratio_ && other.worst_ratio_entry_.before(worst_ratio_entry_)))) {
    worst_ratio_ = other.worst_ratio_;
    worst_ratio_ulp_ = other.worst_ratio_ulp_;
    worst_ratio_bound_ = other.worst_ratio_bound_;
    worst_ratio_entry_ = other.worst_ratio_entry_;
  }
}

bool AccuracyAccumulator::values_in_unit_interval() const {
  return largest_value_bits_ <= std::bit_cast<std::uint64_t>(1.0);
}

Measurement AccuracyAccumulator::measurement(const Convention& convention, std::string budget_source,
                                             std::int64_t escalations) const {
  const Format& format = format_of(format_id_);
  Measurement m;
  m.format = format_id_;
  m.budget_ulp = budget_ulp_;
  m.budget_source = std::move(budget_source);
  m.ulp_histogram = histogram_;
  m.entries = entries_;
  m.mismatches = mismatches_;
  m.max_ulp = max_ulp_;
  m.max_abs_error = max_abs_error_;
  m.reference_escalations = escalations;
  const std::int64_t measured = entries_ - mismatches_;
  m.rms_ulp = measured > 0 ? std::sqrt(sum_squares_.value() / static_cast<double>(measured)) : 0.0;
  if (worst_.row >= 0) m.worst = worst_input(convention, worst_.row, worst_.column, worst_.value, worst_.exact, format);
  if (allowance_ != nullptr) {
    m.abs_bound = float64_angle_bound_check();
    AbsoluteBoundCheck& check = *m.abs_bound;
    check.beyond_ulp = beyond_ulp_;
    check.beyond_bound = beyond_bound_;
    if (worst_ratio_entry_.row >= 0) {
      check.worst_ratio = worst_ratio_;
      check.worst_ulp = worst_ratio_ulp_;
      check.worst_bound = worst_ratio_bound_;
      const Entry& w = worst_ratio_entry_;
      check.worst = worst_input(convention, w.row, w.column, w.value, w.exact, format);
    }
  }
  return m;
}

}  // namespace pecheck::properties
