// The rotary fast path against the oracle at sampled positions up to 2^24,
// every preset, every format, within the additive tables' budgets
// (accuracy/src/budgets.cpp; the rotary derivation is in lib/src/fast/rotary_fast.cpp).
#include <gtest/gtest.h>

#include <cstdio>

#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck {
namespace {

// budgets.cpp's "fast" budgets; float64 with an attention factor other than 1
// has one more rounding (rotary_fast.cpp, step 3): 3 ULP.
double fast_budget(FormatId format, double attention_factor) {
  switch (format) {
    case FormatId::float64:
      return attention_factor == 1.0 ? 2.0 : 3.0;
    case FormatId::float32:
      return 1.0;
    case FormatId::float16:
      return 0.5 + 4.0 * 0x1.0p-42;
    case FormatId::bfloat16:
      return 0.5 + 4.0 * 0x1.0p-45;
  }
  return 0.0;
}

// Blocks of 4 rows at powers of two, at the original lengths of the scaled
// presets, at bfloat16's and float16's last exact integers and at the top of
// float32's exact range.
const std::int64_t block_starts[] = {0,     254,    2046,    4094,    8190,     32766,
                                     65534, 131070, 1000000, 4194302, 12582911, 16777212};

TEST(RotaryFastPath, everyPresetIsWithinTheAdditiveBudgetsAtSampledPositionsUpTo2To24) {
  for (const RotaryConvention& c : rotary_presets()) {
    const double attention_factor = rotary_derived(c).attention_factor;
    for (const FormatId format_id : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
      const Format& format = format_of(format_id);
      double worst = 0.0;
      for (const std::int64_t first : block_starts) {
        const RotaryCacheRequest request{first, 4, format_id};
        const RotaryCache fast = fast_rotary_cache(c, request);
        const reference::RotaryReferenceCache oracle = reference::rotary_reference_cache(c, request, std::nullopt, 1);
        for (std::int64_t r = 0; r < request.rows; ++r) {
          for (std::int64_t col = 0; col < fast.cos.cols; ++col) {
            const auto k = static_cast<std::size_t>(r * fast.cos.cols + col);
            for (const bool cosine : {true, false}) {
              const double got = cosine ? fast.cos.at(r, col) : fast.sin.at(r, col);
              const UlpError error = ulp_error(got, cosine ? oracle.exact_cos[k] : oracle.exact_sin[k], format);
              ASSERT_EQ(error.mismatch, Mismatch::none) << c.name << " " << format.name << " position " << first + r;
              worst = std::max(worst, error.ulps);
              ASSERT_LE(error.ulps, fast_budget(format_id, attention_factor))
                  << c.name << " " << format.name << " position " << first + r << " column " << col
                  << (cosine ? " cos" : " sin");
            }
          }
        }
      }
      std::printf("rotary fast %-14s %-9s max %.4f ULP (budget %.4g)\n", c.name.c_str(),
                  std::string(format.name).c_str(), worst, fast_budget(format_id, attention_factor));
    }
  }
}

}  // namespace
}  // namespace pecheck
