// The oracle on the proportional partial form and on M-RoPE's three ids,
// against values written out here from the public formulas at about 1330
// bits (not through rotary_frequency.hpp's rule): the proportional cache's
// inv_freq base^(-2i/head_dim) for i below int(fraction * head_dim // 2) and
// 0 past it (_compute_proportional_rope_parameters), and an M-RoPE pair
// rotated by the id its section gives it (Qwen2-VL's runs, Qwen3-VL's
// interleaving), each correctly rounded by independent_oracle.hpp.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>

#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/reference/rotated_reference.hpp"
#include "rotary_independent.hpp"

namespace pecheck {
namespace {

using testing::HighReal;

const FormatId all_formats[] = {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16};

// _compute_proportional_rope_parameters, written out: base^(-2i/head_dim) / factor, 0 past the rotated pairs.
HighReal proportional_inv_freq(double base, std::int64_t head_dim, double fraction, double factor, std::int64_t i) {
  const auto angles = static_cast<std::int64_t>(std::floor(fraction * static_cast<double>(head_dim) / 2.0));
  if (i >= angles) return HighReal(0);
  return 1 / boost::multiprecision::pow(HighReal(base), HighReal(2 * i) / HighReal(head_dim)) / HighReal(factor);
}

TEST(ProportionalReference, theWholeHeadIsCorrectlyRoundedWithItsTailAtFrequencyZero) {
  testing::use_decimal_digits(400);
  RotaryConvention c = *find_rotary_preset("gemma4-global");
  for (const double factor : {1.0, 8.0}) {
    if (factor != 1.0) {
      c.scaling.kind = RotaryScalingKind::linear;
      c.scaling.factor = factor;
      c.name = "gemma4-global linear x8";
    }
    ASSERT_EQ(rotary_columns(c), c.head_dim) << "the proportional cache spans the whole head";
    for (const std::int64_t position :
         {std::int64_t{0}, std::int64_t{1}, std::int64_t{4099}, std::int64_t{131071}, std::int64_t{16777215}}) {
      for (const FormatId format_id : all_formats) {
        const Format& format = format_of(format_id);
        const reference::RotaryReferenceCache cache =
            reference::rotary_reference_cache(c, {position, 1, format_id}, std::nullopt, 1);
        for (std::int64_t col = 0; col < rotary_columns(c); ++col) {
          const std::int64_t i = rotary_column_frequency(c, col);
          const HighReal theta = proportional_inv_freq(c.base, c.head_dim, c.rotary_fraction, factor, i) * position;
          for (const bool cosine : {true, false}) {
            const HighReal x = cosine ? HighReal(cos(theta)) : HighReal(sin(theta));
            const double expected = testing::round_independently(x, format);
            const double got = cosine ? cache.rounded.cos.at(0, col) : cache.rounded.sin.at(0, col);
            ASSERT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(expected))
                << c.name << " " << format.name << " position " << position << " column " << col
                << (cosine ? " cos" : " sin") << ": " << testing::rounding_failure(x, got, format);
          }
        }
      }
    }
  }
}

// The id row of frequency i, written from the two public functions.
std::int64_t independent_row(const std::vector<std::int64_t>& s, bool interleaved, std::int64_t i) {
  if (interleaved) {
    // apply_interleaved_mrope: freqs_t[..., slice(dim, 3 * s[dim], 3)] = freqs[dim] for dim 1, 2.
    for (std::int64_t dim = 2; dim >= 1; --dim) {
      if (i >= dim && i < 3 * s[static_cast<std::size_t>(dim)] && (i - dim) % 3 == 0) return dim;
    }
    return 0;
  }
  // apply_multimodal_rotary_pos_emb: cos.split(mrope_section * 2), chunk k from row k % 3.
  std::int64_t start = 0;
  for (std::int64_t k = 0; k < 3; ++k) {
    start += s[static_cast<std::size_t>(k)];
    if (i < start) return k;
  }
  return 2;
}

TEST(MropeReference, eachPairRotatesByItsSectionsIdCorrectlyRounded) {
  testing::use_decimal_digits(400);
  RotaryConvention qwen2_vl = *find_rotary_preset("qwen2");
  qwen2_vl.name = "qwen2-vl";
  qwen2_vl.mrope_section = {16, 24, 24};
  std::mt19937_64 random(11);
  for (const RotaryConvention& c : {qwen2_vl, *find_rotary_preset("qwen3-vl"), *find_rotary_preset("qwen3.5")}) {
    const std::int64_t n = rotary_derived(c).frequencies;
    for (const FormatId format_id : all_formats) {
      const Format& format = format_of(format_id);
      reference::RotatedOracle oracle(c, format_id);
      // An image token's ids: temporal, height and width far apart.
      const std::int64_t ids[3] = {1000003, 257, 65537};
      for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t row = mrope_position_row(c, i);
        ASSERT_EQ(row, independent_row(c.mrope_section, c.mrope_interleaved, i)) << c.name << " frequency " << i;
        const double xa = round_to_format(std::ldexp(1.0 + static_cast<double>(random() % 1000) / 1000.0, -1), format);
        const double xb = round_to_format(-0.75, format);
        const HighReal theta =
            1 / boost::multiprecision::pow(HighReal(c.base), HighReal(2 * i) / HighReal(rotary_derived(c).dims)) *
            ids[row];
        const reference::RotatedPair got = oracle.rotate(ids[row], i, xa, xb);
        const HighReal out_a = HighReal(xa) * cos(theta) - HighReal(xb) * sin(theta);
        const HighReal out_b = HighReal(xa) * sin(theta) + HighReal(xb) * cos(theta);
        EXPECT_EQ(got.first, testing::round_independently(out_a, format))
            << c.name << " " << format.name << " pair " << i << ": "
            << testing::rounding_failure(out_a, got.first, format);
        EXPECT_EQ(got.second, testing::round_independently(out_b, format))
            << c.name << " " << format.name << " pair " << i << ": "
            << testing::rounding_failure(out_b, got.second, format);
      }
    }
  }
}

}  // namespace
}  // namespace pecheck
