// What `pecheck merge` verifies in a part beyond its fields' types: that its
// figures are ones a sweep of its rows can produce. A part is a file anyone
// can edit, and merge prints its verdict from them: a NaN worst value once
// merged as "held ... max inf ULP", an absurd sum of squares as an absurd
// RMS. Each worst entry is computed again (one row of the subject and of the
// reference, about a millisecond), and the counts and the sum of squares are
// checked against each other and against those entries.
#include "part_checks.hpp"

#include <bit>
#include <cmath>

#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/reference/reference.hpp"

namespace pecheck::sweep {

namespace {

class PartChecker {
 public:
  PartChecker(const SweepResult& result, const std::string& source) : result_(result), source_(source) {}

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw SweepFileError(source_ + ": field '" + field + "': " + what);
  }

  // The entry's place, then its value and exact value, as the sweep computes them.
  void check_entry(const std::string& field, const std::optional<SweepEntry>& entry, bool measured) const {
    if (!entry) return;
    const SweepWork& work = result_.work;
    const EntryKey& key = entry->key;
    if (key.row < result_.rows.first || key.row > result_.rows.last) {
      fail(field + ".row", std::to_string(key.row) + " is outside the shard's rows " + range_text(result_.rows));
    }
    if (key.dim < work.dims.first || key.dim > work.dims.last || (key.dim - work.dims.first) % work.dims.step != 0) {
      fail(field + ".dim", std::to_string(key.dim) + " is not one of the widths " + widths_text(work.dims));
    }
    if (key.column < 0 || key.column >= key.dim) {
      fail(field + ".column", std::to_string(key.column) + " is outside 0:" + std::to_string(key.dim - 1));
    }
    const Convention convention = *find_preset(work.convention);  // make_work checked the name
    if (entry->position != position_of_row(convention, key.row)) {
      fail(field + ".position", std::to_string(entry->position) + ", but row " + std::to_string(key.row) +
                                    " holds position " + std::to_string(position_of_row(convention, key.row)) +
                                    " in convention " + work.convention);
    }
    const TableRequest request{1, key.dim, key.row};
    const reference::ReferenceTable reference =
        reference::reference_table(convention, request, work.format, 1, reference::ExactValues::for_format);
    const DoubleDouble exact = reference.exact[static_cast<std::size_t>(key.column)];
    if (!same_bits(exact.hi, entry->exact.hi) || !same_bits(exact.lo, entry->exact.lo)) {
      fail(field + ".exact", "is not the reference's exact value at d " + std::to_string(key.dim) + ", row " +
                                 std::to_string(key.row) + ", column " + std::to_string(key.column) + " (" +
                                 hex_float(exact.hi) + " + " + hex_float(exact.lo) + ")");
    }
    const double value = work.subject == "reference" ? reference.rounded.view().at(0, key.column)
                                                     : fast_table(convention, request, work.format, 1).view().at(0, key.column);
    if (!same_bits(value, entry->value)) {
      fail(field + ".value_bits", "is not the " + work.subject + " subject's value at d " + std::to_string(key.dim) +
                                      ", row " + std::to_string(key.row) + ", column " + std::to_string(key.column) +
                                      " (" + hex_bits(value, format_of(work.format)) + ")");
    }
    // The subject's value and the reference's exact value, each right, must
    // also be the kind of entry the field holds.
    if (measured && (entry->error.mismatch != Mismatch::none || !std::isfinite(entry->error.ulps))) {
      fail(field + ".value_bits", "a " + std::string(to_string(entry->error.mismatch)) +
                                      " mismatch (expected a measured entry: a finite value with a finite ULP error)");
    }
    if (!measured && entry->error.mismatch == Mismatch::none) {
      fail(field + ".value_bits", "the value and the exact value agree in kind (expected a typed mismatch)");
    }
  }

  void check_counts() const {
    const SweepStatistics& s = result_.statistics;
    if (s.measured() > 0 && (!s.worst_ulp || !s.worst_abs_error)) {
      fail(s.worst_ulp ? "worst_abs_error" : "worst_ulp", "null, but " + std::to_string(s.measured()) +
                                                             " entries were measured");
    }
    if (s.measured() == 0 && (s.worst_ulp || s.worst_abs_error)) fail("worst_ulp", "present, but no entry was measured");
    if ((s.mismatches > 0) != s.first_mismatch.has_value()) {
      fail("first_mismatch", std::string(s.first_mismatch ? "present" : "null") + " with " +
                                 std::to_string(s.mismatches) + " mismatches");
    }
    if (!s.worst_ulp) {
      if (!(s.sum_squares_ulp == ExactSquareSum{})) fail("sum_squares_ulp.integer", "not 0 with no entry measured");
      return;
    }
    const double max = s.worst_ulp->error.ulps;
    const double budget = result_.work.budget_ulp;
    if ((max > budget) != (s.beyond_budget > 0)) {
      fail("beyond_budget", std::to_string(s.beyond_budget) + " with a largest error of " + std::to_string(max) +
                                " ULP against the budget " + std::to_string(budget));
    }
    // Every square is rounded to a multiple of 2^-64 before it is summed
    // (square_sum.hpp), each within 2^-65, and value() is within 2 double
    // ulps of the integer: the sum lies between the largest square and
    // `measured` times it, widened by those roundings.
    const double n = static_cast<double>(s.measured());
    const double sum = s.sum_squares_ulp.value();
    const double slack = 0x1p-48;
    const double lowest = max * max * (1.0 - slack) - 0x1p-65;
    const double highest = n * (max * max * (1.0 + slack) + 0x1p-65);
    if (!(sum >= lowest && sum <= highest)) {
      fail("sum_squares_ulp.integer", "a sum of " + std::to_string(sum) + " ULP^2 over " + std::to_string(s.measured()) +
                                          " entries whose largest error is " + std::to_string(max) +
                                          " ULP (expected between max^2 and entries x max^2)");
    }
    if (s.worst_abs_error->abs_error < s.worst_ulp->abs_error) {
      fail("worst_abs_error", "smaller than worst_ulp's absolute error (expected the largest)");
    }
  }

 private:
  static bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

  const SweepResult& result_;
  const std::string& source_;
};

}  // namespace

void check_part_figures(const SweepResult& result, const std::string& source) {
  const PartChecker checker(result, source);
  const SweepStatistics& s = result.statistics;
  // The entries first: a tampered entry is named by its own field rather
  // than by a count it no longer agrees with.
  checker.check_entry("worst_ulp", s.worst_ulp, true);
  checker.check_entry("worst_abs_error", s.worst_abs_error, true);
  checker.check_entry("first_mismatch", s.first_mismatch, false);
  checker.check_counts();
}

}  // namespace pecheck::sweep
