// GoogleTest helpers: check a table your code produced against the correctly
// rounded reference from inside your own tests.
//
//   #include <pecheck/properties/gtest.hpp>
//   EXPECT_THAT(table, pecheck::testing::MatchesConvention("vaswani"));
//   EXPECT_THAT(table, pecheck::testing::MatchesConvention(convention, /*row_offset=*/2, /*max_ulp=*/1.0));
//
// Link pecheck::properties and GoogleTest's gmock. Header-only: the matcher
// is compiled with your test's GoogleTest, whatever version it is (1.11+).
#pragma once

#include <gmock/gmock.h>

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/accuracy/measure.hpp"
#include "pecheck/accuracy/angle_allowance.hpp"
#include "pecheck/accuracy/budgets.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/table.hpp"

namespace pecheck::testing {

// Matches a pecheck::Table whose every entry is within max_ulp (default:
// pecheck's third-party budget for the table's format) of the correctly
// rounded value of the convention's rows [row_offset, row_offset + rows), or
// within the float64-angle bound of an ordinary float64 computation
// (angle_allowance.hpp), with no NaN, infinity or signed-zero mismatch. On
// failure it explains with max and RMS ULP and the worst entry (row, column,
// bits, exact value).
class ConventionMatcher {
 public:
  using is_gtest_matcher = void;

  ConventionMatcher(Convention convention, std::int64_t row_offset, std::optional<double> max_ulp)
      : convention_(std::move(convention)), row_offset_(row_offset), max_ulp_(max_ulp) {}

  bool MatchAndExplain(const Table& table, std::ostream* why) const {
    const TableRequest request{table.rows, table.cols, row_offset_};
    try {
      check_request(convention_, request);
    } catch (const ConventionError& e) {
      if (why != nullptr) *why << "which the convention cannot produce: " << e.what();
      return false;
    }
    const accuracy::UlpBudget& budget = accuracy::ulp_budget(accuracy::BudgetKind::third_party, table.format);
    const double max_ulp = max_ulp_.value_or(budget.max_ulp);
    const reference::ReferenceTable exact = reference::reference_table(convention_, request, table.format, 0, reference::ExactValues::for_format);
    const accuracy::Float64AngleAllowance allowance(convention_, table.cols, table.format);
    const accuracy::Measurement m = accuracy::measure_accuracy(
        table, exact.exact, convention_, request, max_ulp, max_ulp_ ? "given" : std::string(budget.source), &allowance);
    if (why != nullptr) {
      *why << "whose " << format_of(table.format).name << " entries are within max " << m.max_ulp << " ULP (RMS "
           << m.rms_ulp << ", max abs error " << m.max_abs_error << ")";
      if (m.mismatches > 0) *why << " with " << m.mismatches << " NaN, infinity or signed-zero mismatches";
      if (m.entries > m.mismatches) {
        *why << "; the worst is row " << m.worst.row - row_offset_ << " (position " << m.worst.position
             << "), column " << m.worst.column << ": " << m.worst.value_hex << " against exact " << m.worst.exact_text;
      }
      if (m.abs_bound && m.abs_bound->beyond_ulp > 0) *why << "; " << accuracy::abs_bound_text(*m.abs_bound);
    }
    return accuracy::within_budget(m);
  }

  void DescribeTo(std::ostream* os) const {
    *os << "is the " << convention_.name << " encoding from row " << row_offset_ << " within "
        << (max_ulp_ ? std::to_string(*max_ulp_) : std::string("the third-party budget of")) << " ULP";
  }
  void DescribeNegationTo(std::ostream* os) const {
    *os << "is not the " << convention_.name << " encoding from row " << row_offset_ << " within its ULP budget";
  }

 private:
  Convention convention_;
  std::int64_t row_offset_;
  std::optional<double> max_ulp_;
};

inline ConventionMatcher MatchesConvention(Convention convention, std::int64_t row_offset = 0,
                                           std::optional<double> max_ulp = std::nullopt) {
  return ConventionMatcher(std::move(convention), row_offset, max_ulp);
}

// A preset by name ("vaswani", "fairseq", ...); an unknown name never matches.
inline ConventionMatcher MatchesConvention(const std::string& preset, std::int64_t row_offset = 0,
                                           std::optional<double> max_ulp = std::nullopt) {
  Convention convention;
  convention.name = "unknown preset '" + preset + "'";
  convention.min_dim = max_dim + 1;  // check_request refuses every width
  if (const auto found = find_preset(preset)) convention = *found;
  return ConventionMatcher(std::move(convention), row_offset, max_ulp);
}

}  // namespace pecheck::testing
