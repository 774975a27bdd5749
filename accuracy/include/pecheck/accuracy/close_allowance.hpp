// The criterion people bring from torch.testing.assert_close and
// numpy.isclose, as an allowance: an entry passes when
//   |stored - exact| <= atol + rtol * |exact|
// (validate --atol A --rtol R). Against the exact value, not another float
// table: `exact` here is the correctly rounded reference's.
#pragma once

#include <string>
#include <string_view>

#include "pecheck/accuracy/allowance.hpp"

namespace pecheck::accuracy {

inline constexpr std::string_view close_allowance_source =
    "the criterion of torch.testing.assert_close and numpy.isclose, |actual - expected| <= atol + rtol |expected|, "
    "with the exact value as expected";

class CloseAllowance final : public Allowance {
 public:
  CloseAllowance(double atol, double rtol);
  // atol + rtol |exact|, evaluated in double: its rounding (half an ULP of
  // the bound) is far below any tolerance worth giving.
  double bound(std::int64_t row, std::int64_t column, DoubleDouble exact) const override;
  std::string_view name() const override { return name_; }
  std::string_view source() const override { return close_allowance_source; }

 private:
  double atol_;
  double rtol_;
  std::string name_;
};

}  // namespace pecheck::accuracy
