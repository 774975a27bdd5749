// The oracle for rotated queries and keys: a pair (x_a, x_b) of an input row
// rotated by the angle of its position and frequency,
//   out_a = A (x_a cos(t) - x_b sin(t)),   out_b = A (x_a sin(t) + x_b cos(t)),
// each output correctly rounded to the output's format from the stored input
// values (exact doubles) and the angle t, for two kinds of angle:
//   exact:  t = p * inv_freq_i, inv_freq_i the real of the convention's
//           frequency rule (rotary_frequency.hpp) and A its attention factor
//           (rotary_derived(), a double);
//   model:  a computation model's binary angle t = RN_angle(RN_position(p) *
//           inv_freq_r) and A rounded to the angle's format, as the rotary
//           cache oracle defines its model target (rotary_reference.hpp).
// Which columns form a pair (rotate-half: i and i + d/2; interleaved and
// complex: 2i and 2i + 1) is the caller's business: the oracle takes the pair.
//
// Ziv's strategy: for a format narrower than float64, a row's pairs in plain
// double arithmetic with a rigorous bound (rotate_row, rotated_double_tier.hpp);
// then the first step's double-word sin and cos with their
// rigorous bounds (first_step.hpp) carried through the rotation decide most
// roundings; the rest (cancellation, x_a cos(t) ~ x_b sin(t), and ties) are
// evaluated with MPFR at doubling precisions until the rounding is decided.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "pecheck/double_double.hpp"
#include "pecheck/format.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::reference {

struct RotatedPair {
  double first = 0.0;   // out_a
  double second = 0.0;  // out_b
};

// The exact outputs as double-doubles, for ULP errors: within the oracle's
// error bound, far below an ULP of float64 except where the outputs cancel to
// almost nothing, where the value decided by MPFR is given.
struct RotatedExact {
  DoubleDouble first;
  DoubleDouble second;
};

class RotatedOracle {
 public:
  // Throws ConventionError for a convention no rule can build.
  RotatedOracle(const RotaryConvention& convention, FormatId output,
                const std::optional<ComputationModel>& angle_model = std::nullopt);
  ~RotatedOracle();
  RotatedOracle(const RotatedOracle&) = delete;
  RotatedOracle& operator=(const RotatedOracle&) = delete;

  // Both outputs of the pair of frequency i (0 <= i < d/2) at position p
  // (0 <= p < 2^31). An exactly zero output (both inputs zero) is +0, except
  // at a zero angle, where the outputs are A x_a and A x_b rounded (signs kept).
  RotatedPair rotate(std::int64_t position, std::int64_t frequency, double x_first, double x_second,
                     RotatedExact* exact = nullptr);

  // Every pair of one row at `position`: pair i is (x_first[i], x_second[i])
  // at frequency i, i < x_first.size() <= d/2 (x_second, out and exact as
  // long). The outputs are rotate's; the exact values too, except that for a
  // format narrower than float64 an output the double tier decides has its
  // exact value within 2^-(precision + 20) of itself relatively (each ULP
  // error right to 2^-20 ULP, as ExactValues::for_format), a double.
  void rotate_row(std::int64_t position, std::span<const double> x_first, std::span<const double> x_second,
                  std::span<RotatedPair> out, std::span<RotatedExact> exact);

  // A cos(t) and A sin(t) correctly rounded to `format`: the cache entries of
  // the same angle (for the computation models that round the cache first).
  RotatedPair cos_sin(std::int64_t position, std::int64_t frequency, FormatId format);

  // The angle t as a double: the model's binary angle exactly, or the exact
  // angle rounded to nearest double (for allowances and reports).
  double angle(std::int64_t position, std::int64_t frequency);
  // The attention factor A the outputs are multiplied by.
  double attention_factor() const;

  std::int64_t pairs_escalated() const;  // pairs the first step left undecided (MPFR decided them)
  std::int64_t pairs_rotated() const;
  std::int64_t pairs_double_tier() const;  // pairs rotate_row's double tier decided

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pecheck::reference
