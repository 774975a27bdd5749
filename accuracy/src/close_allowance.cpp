#include "pecheck/accuracy/close_allowance.hpp"

#include <cmath>

#include "pecheck/number_text.hpp"

namespace pecheck::accuracy {

CloseAllowance::CloseAllowance(double atol, double rtol)
    : atol_(atol),
      rtol_(rtol),
      name_("the assert_close bound atol + rtol |exact| (atol " + significant(atol, 4) + ", rtol " +
            significant(rtol, 4) + ")") {}

double CloseAllowance::bound(std::int64_t, std::int64_t, DoubleDouble exact) const {
  return atol_ + rtol_ * std::fabs(exact.hi + exact.lo);
}

}  // namespace pecheck::accuracy
