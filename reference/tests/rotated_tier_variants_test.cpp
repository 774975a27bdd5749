// The rotated oracle's double tier under each instruction-set variant
// (rotated_tier_kernels.hpp): every variant this CPU runs gives the
// baseline's sin and cos with their bounds, and the baseline's rotated pairs,
// roundings, exact values and decisions bit for bit, for every rotary preset
// and scaling rule, in the narrow formats, at positions near 0, past 2^16 and
// near 2^24, with and without an attention factor.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "pecheck/isa.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/testing/isa_variants.hpp"
#include "pecheck/testing/presets.hpp"
#include "rotary_tiers.hpp"
#include "rotated_tier_kernels.hpp"

namespace pecheck::reference {
namespace {

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

struct Outputs {
  std::vector<double> first_rounded, second_rounded, first_exact, second_exact;
  std::vector<unsigned char> done;
  explicit Outputs(std::size_t n) : first_rounded(n), second_rounded(n), first_exact(n), second_exact(n), done(n) {}
  RotatedRowOutputs view() {
    return {first_rounded.data(), second_rounded.data(), first_exact.data(), second_exact.data(), done.data()};
  }
  bool operator==(const Outputs& o) const {
    return same_bits(first_rounded, o.first_rounded) && same_bits(second_rounded, o.second_rounded) &&
           same_bits(first_exact, o.first_exact) && same_bits(second_exact, o.second_exact) && done == o.done;
  }
};

TEST(RotatedTierVariants, everyVariantGivesTheBaselinesRowsBitForBit) {
  const std::vector<isa::Variant>& variants = isa::variants();
  std::mt19937_64 random(20261127);
  std::uniform_real_distribution<double> activation(-8.0, 8.0);
  std::int64_t compared = 0;
  for (const RotaryConvention& c : testing::every_rotary_rule()) {
    const StepsFrequencies frequencies(rotary_tier_frequencies(c, std::nullopt));
    const std::size_t n = frequencies.f0.size();
    for (const std::int64_t position :
         {std::int64_t{1}, std::int64_t{4097}, std::int64_t{65536 + 11}, (std::int64_t{1} << 24) - 3}) {
      if (!first_step_applies_to_row(position, frequencies)) continue;
      RotatedRowTrig baseline_trig;
      rotated_tier_kernels(0).row_trig(position, frequencies, baseline_trig);
      for (const FormatId format : {FormatId::bfloat16, FormatId::float16, FormatId::float32}) {
        std::vector<double> x_first(n), x_second(n);
        for (std::size_t i = 0; i < n; ++i) {
          x_first[i] = round_to_format(activation(random), format_of(format));
          x_second[i] = round_to_format(activation(random), format_of(format));
        }
        for (const double factor : {1.0, 1.25}) {
          const NarrowFormat narrow = narrow_format(format_of(format));
          const double tolerance = exact_tolerance(ExactValues::for_format, format);
          Outputs baseline(n);
          rotated_tier_kernels(0).double_tier(baseline_trig, x_first.data(), x_second.data(), n, factor, narrow,
                                              tolerance, baseline.view());
          for (std::size_t v = 1; v < variants.size(); ++v) {
            if (!variants[v].runs_here) continue;
            SCOPED_TRACE(variants[v].name + " " + c.name + " position " + std::to_string(position) + " " +
                         std::string(format_of(format).name));
            RotatedRowTrig trig;
            rotated_tier_kernels(v).row_trig(position, frequencies, trig);
            EXPECT_TRUE(same_bits(trig.sin_value, baseline_trig.sin_value) &&
                        same_bits(trig.sin_error, baseline_trig.sin_error) &&
                        same_bits(trig.cos_value, baseline_trig.cos_value) &&
                        same_bits(trig.cos_error, baseline_trig.cos_error));
            Outputs other(n);
            rotated_tier_kernels(v).double_tier(baseline_trig, x_first.data(), x_second.data(), n, factor, narrow,
                                                tolerance, other.view());
            EXPECT_TRUE(other == baseline);
            ++compared;
          }
        }
      }
    }
  }
  testing::expect_compared_if_any_variant_runs(compared);
}

}  // namespace
}  // namespace pecheck::reference
