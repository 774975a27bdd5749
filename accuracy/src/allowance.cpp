#include "pecheck/accuracy/allowance.hpp"

#include <limits>
#include <string>

namespace pecheck::accuracy {

void Allowance::row_bounds(std::int64_t row, std::span<const double> exact, std::span<double> out) const {
  for (std::size_t c = 0; c < out.size(); ++c) out[c] = bound(row, static_cast<std::int64_t>(c), {exact[c], 0.0});
}

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
