// The first step's table of sin and cos at the turn's table points, built
// from an eighth of the turn by symmetry, against MPFR at every point (the
// definition: the nearest double-word of MPFR's value at 192 bits), bit for
// bit, zeros' signs included.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <bit>
#include <cstdint>

#include "../src/turn_constants.hpp"

namespace pecheck::reference {
namespace {

struct Words {
  double hi, lo;
};

Words nearest_words(mpfr_t x) {
  const double hi = mpfr_get_d(x, MPFR_RNDN);
  mpfr_sub_d(x, x, hi, MPFR_RNDN);
  return {hi, mpfr_get_d(x, MPFR_RNDN)};
}

void expect_same_bits(double built, double defined, const char* what, std::int64_t j) {
  EXPECT_EQ(std::bit_cast<std::uint64_t>(built), std::bit_cast<std::uint64_t>(defined))
      << what << " at point " << j << ": " << std::hexfloat << built << " against MPFR's " << defined;
}

TEST(TurnConstants, everyTablePointIsMpfrsNearestDoubleWord) {
  const TurnConstants& t = turn_constants();
  mpfr_t x, step;
  mpfr_init2(x, 192);
  mpfr_init2(step, 192);
  for (std::int64_t j = 0; j < table_steps; ++j) {
    const auto slot = static_cast<std::size_t>(j);
    mpfr_set_si(step, static_cast<long>(j), MPFR_RNDN);
    mpfr_sinu(x, step, static_cast<unsigned long>(table_steps), MPFR_RNDN);
    const Words s = nearest_words(x);
    mpfr_cosu(x, step, static_cast<unsigned long>(table_steps), MPFR_RNDN);
    const Words c = nearest_words(x);
    expect_same_bits(t.sin_hi[slot], s.hi, "sin hi", j);
    expect_same_bits(t.sin_lo[slot], s.lo, "sin lo", j);
    expect_same_bits(t.cos_hi[slot], c.hi, "cos hi", j);
    expect_same_bits(t.cos_lo[slot], c.lo, "cos lo", j);
  }
  mpfr_clear(x);
  mpfr_clear(step);
}

}  // namespace
}  // namespace pecheck::reference
