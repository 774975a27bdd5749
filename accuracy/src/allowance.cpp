#include "pecheck/accuracy/allowance.hpp"

#include <limits>
#include <string>

namespace pecheck::accuracy {

void Allowance::row_bounds(std::int64_t row, std::span<const std::int64_t> column, const ColumnsPlan*,
                           std::span<const double> exact, std::span<double> out) const {
  for (std::size_t e = 0; e < out.size(); ++e) {
    out[e] = bound(row, column.empty() ? static_cast<std::int64_t>(e) : column[e], {exact[e], 0.0});
  }
}

std::unique_ptr<const ColumnsPlan> Allowance::plan_columns(std::span<const std::int64_t>) const { return nullptr; }

AllowanceDecision judge(const Allowance& allowance, std::int64_t row, std::int64_t column, DoubleDouble exact,
                        double abs_error) {
  AllowanceDecision decision;
  decision.bound = allowance.bound(row, column, exact);
  decision.ratio = decision.bound > 0.0 ? abs_error / decision.bound : std::numeric_limits<double>::infinity();
  decision.admitted = abs_error <= decision.bound;
  return decision;
}

AbsoluteBoundCheck empty_bound_check(const Allowance& allowance) {
  AbsoluteBoundCheck check;
  check.name = std::string(allowance.name());
  check.source = std::string(allowance.source());
  return check;
}

}  // namespace pecheck::accuracy
