#include "rotated_double_tier.hpp"

#include <cmath>

#include "enclosure_decision.hpp"
#include "flagged_loop.hpp"

namespace pecheck::reference {

void rotated_row_trig(std::int64_t position, const StepsFrequencies& frequencies, RotatedRowTrig& trig) {
  const DoubleTierConstants k = double_tier_constants();
  const double p = static_cast<double>(position);
  const std::size_t count = frequencies.f0.size();
  for (std::vector<double>* v : {&trig.sin_value, &trig.sin_error, &trig.cos_value, &trig.cos_error}) {
    v->resize(count);
  }
  for (std::size_t i = 0; i < count; ++i) {
    const DoubleEnclosure e =
        double_tier_sin_cos(p, frequencies.f0[i], frequencies.f1[i], frequencies.f2[i], frequencies.error[i], k);
    trig.sin_value[i] = e.sin_value;
    trig.sin_error[i] = e.sin_error;
    trig.cos_value[i] = e.cos_value;
    trig.cos_error[i] = e.cos_error;
  }
}

void rotated_double_tier(const RotatedRowTrig& trig, const double* x_first, const double* x_second, std::size_t count,
                         double factor, const NarrowFormat& format_in, double exact_tolerance,
                         const RotatedRowOutputs& out) {
  const NarrowFormat format = format_in;  // a local copy: loop invariants
  const double* __restrict s = trig.sin_value.data();
  const double* __restrict es = trig.sin_error.data();
  const double* __restrict c = trig.cos_value.data();
  const double* __restrict ec = trig.cos_error.data();
  const double* __restrict xa = x_first;
  const double* __restrict xb = x_second;
  double* __restrict first_rounded = out.first_rounded;
  double* __restrict second_rounded = out.second_rounded;
  double* __restrict first_exact = out.first_exact;
  double* __restrict second_exact = out.second_exact;
  // With A = 1 the product by it is exact and adds 2u |v| to a bound that
  // holds without it: kept, so that one loop serves every factor.
  const double abs_factor = std::fabs(factor);
  flagged_loop(
      count, out.done, [&](std::size_t i) __attribute__((always_inline)) {
        const RotatedOutput a = rotated_output(xa[i], c[i], ec[i], -xb[i], s[i], es[i], factor, abs_factor);
        const RotatedOutput b = rotated_output(xa[i], s[i], es[i], xb[i], c[i], ec[i], factor, abs_factor);
        const NarrowRounding ra = narrow_rounding(a.value, a.error, format);
        const NarrowRounding rb = narrow_rounding(b.value, b.error, format);
        first_rounded[i] = ra.value;
        second_rounded[i] = rb.value;
        first_exact[i] = a.value;
        second_exact[i] = b.value;
        return ra.decided & rb.decided & within_relative(a.value, a.error, exact_tolerance) &
               within_relative(b.value, b.error, exact_tolerance);
      });
}

}  // namespace pecheck::reference
