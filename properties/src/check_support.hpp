// What every check needs around a subject: asking it for rows it can serve
// (a file holds only its own rows), its budget, the columns of each frequency
// pair, the error bound of one stored value, and text for messages.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/double_double.hpp"
#include "pecheck/format.hpp"
#include "pecheck/accuracy/angle_allowance.hpp"
#include "pecheck/accuracy/budgets.hpp"
#include "pecheck/properties/check.hpp"
#include "pecheck/properties/generators.hpp"
#include "pecheck/subject.hpp"

namespace pecheck::properties::support {

// The subject's table for the request. A subject with a fixed request (a
// file) is asked for its whole table, then the rows are cut out; a request
// outside its rows is a SubjectError naming both.
Table fetch_table(const Subject& subject, const SubjectCapabilities& capabilities, const Convention& convention,
                  const TableRequest& request, FormatId format);
inline Table fetch_table(const Subject& subject, const SubjectCapabilities& capabilities, const EncodingCase& c) {
  return fetch_table(subject, capabilities, c.convention, c.request, c.format);
}

// Table rows [begin, end) the subject can serve for a convention at width d.
struct RowRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};
RowRange servable_rows(const SubjectCapabilities& capabilities, const Convention& convention);

// The conventions and widths a measurement sweeps: the subject's own when it
// is fixed, else the presets at `dims` (each moved to a width it accepts).
struct ConventionWidth {
  Convention convention;
  std::int64_t dim = 0;
};
std::vector<ConventionWidth> sweep_targets(const SubjectCapabilities& capabilities, const std::vector<std::int64_t>& dims);

bool offers(const SubjectCapabilities& capabilities, FormatId format);
std::string formats_text(const SubjectCapabilities& capabilities);

// The subject's ULP budget in the format ("fast", "reference" or third-party).
const accuracy::UlpBudget& budget_for(const Subject& subject, FormatId format);

// The largest |stored - exact| for an exact value in [-1, 1] stored within
// `ulps` ULP: ulp(x) <= 2^(1-p) for every |x| <= 1 (equality at x = 1, whose
// binade is [1, 2)), so the bound is ulps * 2^(1-p).
double value_error_bound(FormatId format, double ulps);

// The largest |stored - exact| a subject's entries may have in the rows of a
// case: value_error_bound of its ULP budget and, for a third-party subject,
// the float64-angle bound (angle_allowance.hpp), whichever is larger, since
// an entry passes by either. The angle's share grows with the position.
class EntryErrorBound {
 public:
  EntryErrorBound(const Subject& subject, const Convention& convention, std::int64_t dim, FormatId format);
  // For every entry of convention rows 0 to `last_row`.
  double up_to_row(std::int64_t last_row) const;

 private:
  double ulp_bound_;
  std::optional<accuracy::Float64AngleAllowance> allowance_;
};

// A sum of doubles and exact products carried in double-double: the error of
// a sum of n terms of size <= 1 stays below n 2^-104, far under any bound here.
class ExactSum {
 public:
  void add(double x);
  void add_product(double a, double b);  // a*b without rounding (two_prod)
  DoubleDouble value() const { return sum_; }
  double approx() const { return sum_.hi + sum_.lo; }

 private:
  DoubleDouble sum_;
};
// (a.hi + a.lo) - (b.hi + b.lo) to about 2^-104 relative.
double difference(DoubleDouble a, DoubleDouble b);

// "0.70710677 (0x3f3504f3)": the value to 17 significant digits and its bits in the format.
std::string value_text(double value, FormatId format);

std::string position_text(const Convention& convention, std::int64_t row);

// Fails the current RapidCheck case with `message` alone (RC_FAIL would
// prefix the source file and line, which reports must not depend on).
[[noreturn]] void fail_case(const std::string& message);

Outcome not_applicable(const std::string& reason);
Outcome held(std::string message);
Outcome failed(std::string message);

}  // namespace pecheck::properties::support
