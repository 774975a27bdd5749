// A rotary cache's value hazards, found in two parts (every value's extent,
// then the count past the attention factor in a table whose largest value is
// past it), count what their definition counts: NaN and infinities, and the
// finite values whose magnitude exceeds factor (1 + 8 2^-p), in every format
// a cache is stored in; and they reach validate's hazards.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../src/rotary_value_hazards.hpp"
#include "pecheck/rotary_cache.hpp"
#include "pecheck/testing/presets.hpp"
#include "pecheck/validate/rotary_validation.hpp"

namespace pecheck::validate {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

struct Counts {
  std::int64_t non_finite = 0, beyond = 0;
};

// The definition, value by value, in double.
Counts by_definition(const Table& cos, const Table& sin, FormatId format, double factor) {
  const double limit = factor * (1.0 + 8.0 * std::ldexp(1.0, -format_of(format).precision));
  Counts counts;
  for (const Table* t : {&cos, &sin}) {
    for (std::int64_t k = 0; k < t->size(); ++k) {
      const double v = t->flat(k);
      counts.non_finite += !std::isfinite(v);
      counts.beyond += std::isfinite(v) && std::fabs(v) > limit;
    }
  }
  return counts;
}

Counts found_counts(const std::vector<Hazard>& hazards) {
  Counts counts;
  for (const Hazard& h : hazards) {
    const std::int64_t n = std::stoll(h.evidence);  // "N entries ..."
    if (h.kind == HazardKind::non_finite) counts.non_finite = n;
    if (h.kind == HazardKind::out_of_range) counts.beyond = n;
  }
  return counts;
}

TEST(RotaryValueHazards, countTheNonFiniteValuesAndThosePastTheFactorInEveryFormat) {
  std::mt19937_64 random(20261128);
  for (const FormatId format : {FormatId::float32, FormatId::float64, FormatId::bfloat16, FormatId::float16}) {
    const Format& f = format_of(format);
    for (const double factor : {1.0, 1.25}) {
      // The limit and the values either side of it in the format.
      const double limit = factor * (1.0 + 8.0 * std::ldexp(1.0, -f.precision));
      const double at_limit = std::ldexp(std::floor(std::ldexp(limit, f.precision - 1)), 1 - f.precision);
      const double past_limit = at_limit + std::ldexp(1.0, 1 - f.precision);
      const std::vector<double> specials = {std::nan(""), infinity,    -infinity,    at_limit, -at_limit,
                                            past_limit,   -past_limit, 2.0 * factor, 0.0,      -0.0};
      for (int trial = 0; trial < 6; ++trial) {
        Table cos = make_table(9, 6, format);
        Table sin = make_table(9, 6, format);
        std::uniform_real_distribution<double> unit(-factor, factor);
        for (Table* t : {&cos, &sin}) {
          for (std::int64_t k = 0; k < t->size(); ++k) t->set_flat(k, unit(random));
        }
        // Trial 0 has none of the specials (no table past its limit).
        for (int s = 0; s < trial * 3; ++s) {
          Table& t = random() % 2 == 0 ? cos : sin;
          t.set_flat(static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(t.size())),
                     specials[random() % specials.size()]);
        }
        SCOPED_TRACE(std::string(f.name) + " factor " + std::to_string(factor) + " trial " + std::to_string(trial));
        const Counts expected = by_definition(cos, sin, format, factor);
        const Counts found =
            found_counts(value_hazards(cos, sin, value_extent(cos), value_extent(sin), format, factor));
        EXPECT_EQ(found.non_finite, expected.non_finite);
        EXPECT_EQ(found.beyond, expected.beyond);
      }
    }
  }
}

TEST(RotaryValueHazards, anExtentIsTheLargestFiniteMagnitudeAndTheNonFiniteCount) {
  Table t = make_table(2, 3, FormatId::float32);
  const std::vector<double> values = {0.25, -0.75, std::nan(""), infinity, -0.5, 0.0};
  for (std::size_t k = 0; k < values.size(); ++k) t.set_flat(static_cast<std::int64_t>(k), values[k]);
  const ValueExtent extent = value_extent(t);
  EXPECT_EQ(extent.non_finite, 2);
  EXPECT_EQ(extent.largest, 0.75);
  Table none = make_table(1, 2, FormatId::float64);
  none.set_flat(0, std::nan(""));
  none.set_flat(1, -infinity);
  EXPECT_EQ(value_extent(none).non_finite, 2);
  EXPECT_LT(value_extent(none).largest, 0.0);  // no finite value
}

// Through validate: a llama3.1 cache with a NaN and a value past its factor.
TEST(RotaryValueHazards, reachValidatesHazards) {
  const RotaryConvention llama = testing::rotary_preset("llama3.1");
  for (const int threads : {1, 2}) {
    RotaryCache cache = fast_rotary_cache(llama, {0, 64, FormatId::float32});
    cache.cos.set(10, 4, std::nan(""));
    cache.sin.set(20, 7, 1.001);
    RotaryValidationOptions options;
    options.threads = threads;
    const Validation v = validate_rotary_cache(cache.cos, cache.sin, options);
    SCOPED_TRACE("threads " + std::to_string(threads));
    EXPECT_TRUE(v.has(HazardKind::non_finite));
    EXPECT_TRUE(v.has(HazardKind::out_of_range));
    EXPECT_EQ(v.verdict, ValidationVerdict::deviates);
  }
}

}  // namespace
}  // namespace pecheck::validate
