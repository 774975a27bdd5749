// The ranges a rotary convention's results must lie in for its cache to be
// finite and to mean what it says, checked once before a cache is built or a
// config.json accepted (check_rotary_results).
//
// Why these ranges
// ================
// Every inv_freq_i must lie in [2^-126, pi]:
//   - at most pi radians per position: sampled at whole positions, a
//     frequency w above pi turns fewer than two samples per turn and the
//     cache holds exactly the values of its alias 2 pi - w (Nyquist), so no
//     reader of the cache, pecheck's detection included, can tell which was
//     meant. It also keeps every angle p w below 2^24 pi, far inside float32's
//     range (2^128), for every position below 2^24 the caches hold. The
//     unscaled rule's largest frequency is inv_freq_0 = 1.
//   - at least 2^-126, the smallest normal float32: the computation models
//     hold inv_freq in float32 or bfloat16 (same exponent range), where a
//     smaller value loses significant bits and below 2^-150 becomes 0, a
//     column of cos 1 that no longer rotates.
// The attention factor a (explicit, or derived from the scaling rule) must
// lie in [2^-14, 65504]: the entries a cos and a sin reach |a|, and 65504 is
// float16's largest finite value (float16 has the narrowest range of the
// formats pecheck writes), 2^-14 its smallest normal one (below it every
// entry of a float16 cache is subnormal, with fewer significant bits than the
// format claims). Real factors are near 1: YaRN's 0.1 ln(s) + 1 stays below
// 72 for any finite double s.
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>

#include "pecheck/rotary_convention.hpp"
#include "pecheck/rotary_frequency.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck {

namespace {

constexpr double min_inv_freq = 0x1p-126;
constexpr double max_inv_freq = std::numbers::pi;
constexpr double min_attention_factor = 0x1p-14;
constexpr double max_attention_factor = 65504.0;

std::string number_text(double value) { return significant(value, 6); }

bool in_range(double w) { return w >= min_inv_freq && w <= max_inv_freq; }

[[noreturn]] void refuse(const RotaryConvention& c, const std::string& field, const std::string& why) {
  throw ConventionError("rotary convention '" + c.name + "': " + field + " " + why);
}

// The unscaled rule's frequencies base^(-2i/d) span [base^(-(d-2)/d), 1]; a
// factor dividing them (linear, and the divided bands of yarn and llama3; NTK
// likewise divides the slowest by it) keeps them in range when it lies in
// [1 / pi, base^(-(d-2)/d) 2^126].
std::string factor_range(const RotaryConvention& c, const RotaryDerived& d) {
  const double slowest = std::pow(c.base, -static_cast<double>(d.dims - 2) / static_cast<double>(d.dims));
  std::string range = "[";  // built by appending: GCC 12's false -Wrestrict on "[" + std::string (bug 105651)
  range += number_text(1.0 / max_inv_freq);
  range += ", ";
  range += number_text(slowest / min_inv_freq);
  range += "]";
  return range;
}

std::string ext_field(const RotaryConvention& c, const RotaryDerived& d, std::int64_t i) {
  const bool long_factors = d.ext_factors == &c.scaling.long_factor;
  return std::string(long_factors ? "rope_scaling.long_factor" : "rope_scaling.short_factor") + "[" +
         std::to_string(i) + "]";
}

}  // namespace

void check_rotary_results(const RotaryConvention& c) {
  const RotaryDerived d = rotary_derived(c);
  const RotaryScaling& s = c.scaling;
  const std::string inv_range = "expected every inv_freq in [2^-126, pi] radians per position";

  // The rope_theta alone: the unscaled rule's slowest frequency.
  const double slowest = std::pow(c.base, -static_cast<double>(d.dims - 2) / static_cast<double>(d.dims));
  if (!in_range(slowest)) {
    refuse(c, "base (rope_theta)",
           "is " + number_text(c.base) + ": the slowest frequency base^(-(d-2)/d) is " + number_text(slowest) +
               " for rotary width " + std::to_string(d.dims) + "; " + inv_range + " (a base of at most " +
               number_text(std::pow(min_inv_freq, -static_cast<double>(d.dims) / static_cast<double>(d.dims - 2))) +
               ")");
  }
  if (!std::isfinite(d.effective_base) || !(d.effective_base > 1.0)) {
    refuse(c, "rope_scaling.factor",
           "is " + number_text(s.factor) + ": the scaled base is " + number_text(d.effective_base) +
               ", expected a finite number > 1 (a factor in (0, " + number_text(slowest / min_inv_freq) + "])");
  }
  PlainDoubleArithmetic arithmetic;  // the ranges are not decided to the last bit
  for (std::int64_t i = 0; i < d.frequencies; ++i) {
    const double w = rotary_inv_freq(c, d, i, arithmetic);
    if (in_range(w)) continue;
    // A fitted ladder's pair at exactly 0 never rotates (cos 1, sin 0): finite and meaningful.
    if (s.kind == RotaryScalingKind::fitted && w == 0.0) continue;
    // So is the proportional form's tail beyond its rotated pairs.
    if (i >= d.rotated_frequencies) continue;
    const std::string found = "makes inv_freq_" + std::to_string(i) + " " + number_text(w) + "; " + inv_range;
    if (s.kind == RotaryScalingKind::longrope) {
      refuse(c, ext_field(c, d, i), "is " + number_text((*d.ext_factors)[static_cast<std::size_t>(i)]) + ": it " +
                                        found + " (one divides base^(-2i/d))");
    }
    refuse(c, "rope_scaling.factor",
           "is " + number_text(s.factor) + ": it " + found + " (a factor in " + factor_range(c, d) +
               " for this base and width)");
  }

  const double a = d.attention_factor;
  if (!(a >= min_attention_factor && a <= max_attention_factor)) {
    const std::string field = c.attention_factor ? "rope_scaling.attention_factor"
                                                 : "the attention factor derived from rope_scaling (factor " +
                                                       number_text(s.factor) + ", mscale, mscale_all_dim)";
    refuse(c, field,
           "is " + number_text(a) +
               ", expected a number in [2^-14, 65504] (cos and sin times it finite and normal in float16)");
  }
}

}  // namespace pecheck
