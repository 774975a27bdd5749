#include "pecheck/double_double_math.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "fast_constants.hpp"

namespace pecheck {

namespace fc = fast_constants;

DoubleDouble dd_exp(DoubleDouble x) {
  if (!(std::fabs(x.hi) <= 700.0)) {
    throw std::domain_error("dd_exp: argument " + std::to_string(x.hi) + " is outside [-700, 700]");
  }
  // x = k ln 2 + r with |r| <= ln 2 / 2 (plus a rounding). ln 2 is held in
  // three doubles (159 bits); k ln2_1 and k ln2_2 are exact products and
  // |k| <= 1010, so k ln 2 is known to 2^-150 and r to the 3u^2 |r| of the
  // additions: an absolute error of 2^-106 in r, a relative one in e^r.
  const double k = std::nearbyint(x.hi / fc::ln2_1);
  DoubleDouble r = dd_add(x, dd_negate(two_prod(k, fc::ln2_1)));
  r = dd_add(r, dd_negate(two_prod(k, fc::ln2_2)));
  r = dd_add(r, -k * fc::ln2_3);

  // e^r - 1 = r (1 + r/2! + r^2/3! + ... + r^22/23!) by Horner. The first
  // omitted term is r^24/24!: |r|^23 / 24! < 2^-35.2 / 2^79 = 2^-114 relative
  // to e^r - 1. Each Horner step costs a product and a sum, 10u^2 at most, and
  // the inner steps are damped by |r| / n, so the sum is within ~2^-102 of
  // e^r - 1 relatively; adding 1 shrinks that by |e^r - 1| / e^r <= 0.3.
  DoubleDouble acc{fc::inv_factorial[23][0], fc::inv_factorial[23][1]};
  for (int n = 22; n >= 1; --n) {
    acc = dd_add(dd_mul(r, acc), DoubleDouble{fc::inv_factorial[n][0], fc::inv_factorial[n][1]});
  }
  const DoubleDouble expm1_r = dd_mul(r, acc);
  return dd_ldexp(dd_add(expm1_r, 1.0), static_cast<int>(k));
}

DoubleDouble dd_log(DoubleDouble a) {
  if (!(a.hi > 0.0) || !std::isfinite(a.hi) || std::fabs(std::log(a.hi)) > 700.0) {
    throw std::domain_error("dd_log: argument " + std::to_string(a.hi) + " is not in [e^-700, e^700]");
  }
  // One Newton step on e^y = a from the double y0 = log(a.hi), |y - y0| <~ 2^-52 |y|:
  // z = a e^-y0 - 1 = e^(y - y0) - 1 and y = y0 + log1p(z) = y0 + z - z^2/2 + z^3/3.
  // z^3/3 < 2^-150 is dropped; z^2/2 needs only z.hi. The error is that of
  // e^-y0 (relative 2^-102), which becomes an absolute error in y.
  const double y0 = std::log(a.hi);
  const DoubleDouble z = dd_add(dd_mul(a, dd_exp(DoubleDouble{-y0, 0.0})), -1.0);
  const DoubleDouble log1p_z = dd_add(z, -0.5 * z.hi * z.hi);
  return dd_add(log1p_z, y0);
}

}  // namespace pecheck
