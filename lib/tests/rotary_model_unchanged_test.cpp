// The hf-float32 fast path, vectorised over a row's angles and split across
// threads, gives the same bits as the one-entry-per-call loop it replaced
// (kept below as previous_model_cache, test-only): every preset, float32,
// float16 and bfloat16, rows at both ends of [0, 2^24) and between.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "fast_constants.hpp"
#include "frequency_turns.hpp"
#include "pecheck/double_double_math.hpp"
#include "pecheck/rotary_cache.hpp"
#include "pecheck/rotary_frequency.hpp"
#include "round_pair.hpp"
#include "sincos_turns.hpp"

namespace pecheck {
namespace {

// The loop fast_rotary_model_cache ran before (lib/src/fast/rotary_model_fast.cpp
// has the derivation): one entry per kernel call, one thread.
RotaryCache previous_model_cache(const RotaryConvention& convention, const RotaryCacheRequest& request) {
  const RotaryDerived derived = rotary_derived(convention);
  const std::int64_t n = derived.frequencies;
  const std::vector<double> inv_freq = hf_float32_inv_freq(convention);
  const double factor = static_cast<float>(derived.attention_factor);
  const std::int64_t cols = rotary_columns(convention);
  const Format& format = format_of(request.format);
  RotaryCache cache{make_table(request.rows, cols, request.format), make_table(request.rows, cols, request.format)};
  double f1[sincos_lanes] = {}, f2[sincos_lanes] = {}, f3[sincos_lanes] = {};
  double sin_out[sincos_lanes], cos_out[sincos_lanes];
  std::vector<double> sin_row(static_cast<std::size_t>(n)), cos_row(sin_row);
  for (std::int64_t r = 0; r < request.rows; ++r) {
    const double p = static_cast<float>(request.first_position + r);
    for (std::int64_t i = 0; i < n; ++i) {
      const double angle = static_cast<float>(p * inv_freq[static_cast<std::size_t>(i)]);
      int exponent = 0;
      const double fraction = std::frexp(angle, &exponent);
      const auto m = static_cast<std::int64_t>(std::ldexp(fraction, 24));
      const DoubleDouble f =
          dd_ldexp(DoubleDouble{fast_constants::inv_two_pi_hi, fast_constants::inv_two_pi_lo}, exponent - 24);
      const TurnsSplit split = split_for_positions(f);
      f1[0] = split.f1;
      f2[0] = split.f2;
      f3[0] = split.f3;
      sincos_turns(m, f1, f2, f3, sincos_lanes, sin_out, cos_out);
      sin_row[static_cast<std::size_t>(i)] = sin_out[0];
      cos_row[static_cast<std::size_t>(i)] = cos_out[0];
    }
    for (std::int64_t c = 0; c < cols; ++c) {
      const auto i = static_cast<std::size_t>(rotary_column_frequency(convention, c));
      cache.cos.set(r, c, round_pair(two_prod(cos_row[i], factor), format));
      cache.sin.set(r, c, round_pair(two_prod(sin_row[i], factor), format));
    }
  }
  return cache;
}

bool same_bits(const Table& a, const Table& b) {
  return a.rows == b.rows && a.cols == b.cols && a.format == b.format && a.bytes().size() == b.bytes().size() &&
         std::memcmp(a.bytes().data(), b.bytes().data(), a.bytes().size()) == 0;
}

TEST(RotaryModelUnchanged, everyPresetAndFormatGivesThePreviousBits) {
  const ComputationModel model = *find_computation_model("hf-float32");
  // 40 rows: enough for both workers of a two-thread split to get rows.
  const std::int64_t starts[] = {0, 65536 - 20, (std::int64_t{1} << 24) - 40};
  for (const RotaryConvention& c : rotary_presets()) {
    for (const FormatId format : {FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
      for (const std::int64_t first : starts) {
        const RotaryCacheRequest request{first, 40, format};
        const RotaryCache now = fast_rotary_model_cache(c, request, model);
        const RotaryCache before = previous_model_cache(c, request);
        EXPECT_TRUE(same_bits(now.cos, before.cos)) << c.name << " " << format_of(format).name << " from " << first;
        EXPECT_TRUE(same_bits(now.sin, before.sin)) << c.name << " " << format_of(format).name << " from " << first;
      }
    }
  }
}

// The exact encoding's cache in the formats filled row by row: before
// RotaryRowStore each value was the kernel's double through Table::set (for
// an attention factor of 1). The float64 cache holds those doubles exactly,
// so the 16-bit caches must be it rounded by Table::set, bit for bit.
TEST(RotaryExactUnchanged, sixteenBitCachesAreTheFloat64CacheRoundedOnce) {
  for (const RotaryConvention& c : rotary_presets()) {
    if (rotary_derived(c).attention_factor != 1.0) continue;  // covered by the model test's round_pair path
    for (const std::int64_t first : {std::int64_t{0}, (std::int64_t{1} << 24) - 40}) {
      const RotaryCache wide = fast_rotary_cache(c, {first, 40, FormatId::float64});
      for (const FormatId format : {FormatId::float16, FormatId::bfloat16}) {
        const RotaryCache now = fast_rotary_cache(c, {first, 40, format});
        RotaryCache before{make_table(40, wide.cos.cols, format), make_table(40, wide.cos.cols, format)};
        for (std::int64_t k = 0; k < wide.cos.size(); ++k) {
          before.cos.set_flat(k, wide.cos.flat(k));
          before.sin.set_flat(k, wide.sin.flat(k));
        }
        EXPECT_TRUE(same_bits(now.cos, before.cos)) << c.name << " " << format_of(format).name << " from " << first;
        EXPECT_TRUE(same_bits(now.sin, before.sin)) << c.name << " " << format_of(format).name << " from " << first;
      }
    }
  }
}

}  // namespace
}  // namespace pecheck
