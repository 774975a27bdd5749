#include "rotary_model_angles.hpp"

#include <bit>
#include <cmath>
#include <optional>

#include "rotated_rounding.hpp"
#include "rotated_steps.hpp"

namespace pecheck::reference {

namespace {

// The first step's limits (first_step.cpp's first_step_applies): a position
// of at most 2^31 in magnitude, a frequency of at least 2^-50 steps, and
// |p f0| <= 2^40. model_row_angles_test holds the row path to the helpers'.
constexpr double max_position = 0x1p31;
constexpr double min_frequency = 0x1p-50;
constexpr double max_steps = 0x1p40;
// binary_angle_steps' range of the exponent e of m 2^e.
constexpr std::int64_t min_binary_exponent = -800;
constexpr std::int64_t max_binary_exponent = 800;

void stand_in(std::size_t i, double* positions, StepsFrequencies& f, unsigned char* applies) {
  positions[i] = 1.0;
  f.f0[i] = 1.0;
  f.f1[i] = 0.0;
  f.f2[i] = 0.0;
  f.error[i] = 0.0;
  applies[i] = 0;
}

}  // namespace

bool model_first_step_angle(double rounded_position, double inv_freq, const Format& angle_format,
                            std::int64_t& steps_position, StepsFrequency& steps) {
  // The exact product of two doubles is hi + lo (FMA), rounded once.
  const DoubleWord product = exact_product(rounded_position, inv_freq);
  const std::optional<BinaryAngleSteps> angle = binary_angle_steps(round_word(product.hi, product.lo, angle_format));
  if (!angle) return false;
  steps_position = angle->position;
  steps = angle->frequency;
  return first_step_applies(steps_position, steps);
}

// The plain path, entry by entry, the helpers' operations written out:
//   - round_word: hi rounded to the format by its bits (round_nearest: add
//     half a unit of the kept last place, less one unless that place is odd,
//     and clear the dropped bits), and when lo != 0 and hi is not in the
//     format, the value across, r + 2 (hi - r), taken when it is in the
//     format (hi a midpoint) and lo points to it. round_nearest sends a value
//     outside the format's normal binades to round_to_format: such an entry
//     (hi, or the value across when it is looked at) leaves the plain path.
//   - binary_angle_steps: the angle's significand s (with its leading bit)
//     is m 2^t, m odd, t its trailing zeros: s & -s = 2^t, read off the
//     exponent of that power of two converted to double (exact), so
//     m = s >> t and e = field - 1075 + t; the frequency is N / (2 pi) times
//     2^e, each word scaled exactly.
//   - first_step_applies on (m, frequency).
void model_row_angles(double rounded_position, std::span<const double> inv_freq, const Format& angle_format,
                      double* positions, StepsFrequencies& frequencies, unsigned char* applies) {
  const std::size_t n = inv_freq.size();
  const auto general = [&](std::size_t i) {
    std::int64_t m = 0;
    StepsFrequency f;
    if (!model_first_step_angle(rounded_position, inv_freq[i], angle_format, m, f)) {
      stand_in(i, positions, frequencies, applies);
      return;
    }
    positions[i] = static_cast<double>(m);
    frequencies.f0[i] = f.f0;
    frequencies.f1[i] = f.f1;
    frequencies.f2[i] = f.f2;
    frequencies.error[i] = f.error;
    applies[i] = 1;
  };
  // The plain path is written for the narrow angle formats (float32, float16,
  // bfloat16); a wider one (a float64 angle, whose odd integer is mostly past
  // the first step's 2^31) takes the entry path.
  if (angle_format.precision > 26) {
    for (std::size_t i = 0; i < n; ++i) general(i);
    return;
  }
  const StepsFrequency& unit = steps_per_radian();
  // Plain values and restrict pointers: what the vectoriser needs to see.
  const double unit_f0 = unit.f0, unit_f1 = unit.f1, unit_f2 = unit.f2, unit_error = unit.error;
  const double p = rounded_position;
  const int shift = 53 - angle_format.precision;
  const std::uint64_t half_less_one = (std::uint64_t{1} << (shift - 1)) - 1;
  const std::uint64_t cleared = ~((std::uint64_t{1} << shift) - 1);
  // round_nearest's range as exponent fields: [min_exponent, max_exponent) + 1023.
  const std::int64_t low_field = angle_format.min_exponent + 1023;
  const std::int64_t high_field = angle_format.max_exponent + 1023;
  constexpr std::uint64_t fraction_bits = (std::uint64_t{1} << 52) - 1;
  const double* __restrict w_of = inv_freq.data();
  double* __restrict m_out = positions;
  double* __restrict f0_out = frequencies.f0.data();
  double* __restrict f1_out = frequencies.f1.data();
  double* __restrict f2_out = frequencies.f2.data();
  double* __restrict error_out = frequencies.error.data();
  unsigned char* __restrict applies_out = applies;
  unsigned char any_general = 0;
#pragma GCC ivdep
  for (std::size_t i = 0; i < n; ++i) {
    const double w = w_of[i];
    const double hi = p * w;
    const double lo = std::fma(p, w, -hi);
    const auto hi_bits = std::bit_cast<std::uint64_t>(hi);
    const auto hi_field = static_cast<std::int64_t>((hi_bits >> 52) & 0x7ff);
    const double r = std::bit_cast<double>((hi_bits + half_less_one + ((hi_bits >> shift) & 1U)) & cleared);
    const double d = hi - r;
    const double across = r + 2.0 * d;
    const auto across_bits = std::bit_cast<std::uint64_t>(across);
    const auto across_field = static_cast<std::int64_t>((across_bits >> 52) & 0x7ff);
    const double across_rounded =
        std::bit_cast<double>((across_bits + half_less_one + ((across_bits >> shift) & 1U)) & cleared);
    const bool looks_across = (lo != 0.0) & (r != hi);
    const bool take_across = looks_across & (across_rounded == across) & ((lo > 0.0) == (d > 0.0));
    const bool plain = (hi_field >= low_field) & (hi_field < high_field) &
                       ((!looks_across) | ((across_field >= low_field) & (across_field < high_field)));
    const double angle = take_across ? across : r;

    const auto angle_bits = std::bit_cast<std::uint64_t>(angle);
    const auto angle_field = static_cast<std::int64_t>((angle_bits >> 52) & 0x7ff);
    const std::uint64_t significand = (angle_bits & fraction_bits) | (std::uint64_t{1} << 52);
    const std::uint64_t lowest = significand & (~significand + 1);
    const auto zeros =
        static_cast<std::int64_t>((std::bit_cast<std::uint64_t>(static_cast<double>(static_cast<std::int64_t>(lowest))) >> 52) & 0x7ff) - 1023;
    const auto magnitude = static_cast<double>(static_cast<std::int64_t>(significand >> zeros));
    const std::int64_t e = angle_field - 1075 + zeros;
    const bool e_ok = (e >= min_binary_exponent) & (e <= max_binary_exponent);
    // 2^e, or 1 where e is out of range (a mask, not a select: GCC 12 does not
    // vectorise a loop with an integer select in it).
    const std::int64_t kept_e = e & -static_cast<std::int64_t>(e_ok);
    const double scale = std::bit_cast<double>(static_cast<std::uint64_t>(kept_e + 1023) << 52);
    const double f0 = unit_f0 * scale;
    const double error = unit_error * scale;
    // error is finite exactly when error - error is 0 (NaN otherwise).
    const bool ok = plain & (angle != 0.0) & (angle_field != 0) & e_ok & (magnitude <= max_position) &
                    (f0 >= min_frequency) & (magnitude * f0 <= max_steps) & (error - error == 0.0);
    m_out[i] = ok ? (angle < 0.0 ? -magnitude : magnitude) : 1.0;
    f0_out[i] = ok ? f0 : 1.0;
    f1_out[i] = ok ? unit_f1 * scale : 0.0;
    f2_out[i] = ok ? unit_f2 * scale : 0.0;
    error_out[i] = ok ? error : 0.0;
    // 2: left to the general path below.
    const unsigned char general_entry = plain ? 0 : 2;
    applies_out[i] = static_cast<unsigned char>(general_entry | (ok ? 1 : 0));
    any_general |= general_entry;
  }
  if (!any_general) return;
  for (std::size_t i = 0; i < n; ++i) {
    if (applies[i] == 2) general(i);
  }
}

}  // namespace pecheck::reference
