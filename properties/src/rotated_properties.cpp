#include "pecheck/properties/rotated_properties.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "pecheck/parallel_for.hpp"
#include "pecheck/rotary_kernel.hpp"

namespace pecheck::properties {

namespace {

// |(a, b)|: the squares of format values (below 2^128 in magnitude, at least
// 2^-149 when nonzero) neither overflow nor underflow in double.
double norm2(double a, double b) { return std::sqrt(a * a + b * b); }

// The per-pair bound E. A kernel computes out = RN(x_a C - x_b S) and
// RN(x_a S + x_b C) from C, S within (u + 2^-23) A of A cos t', A sin t' (its
// own angle t'; a float32 cos within one float32 ULP and the cast to the
// output's format within u relative), with the products and the sum each
// rounded (u relative). Per component the distance to A R(t') x is at most
//   A (|x_a| + |x_b|) (2u + 2^-23) (1 + u) + u |out_j|,
// and the error vector's norm at most the sum of the two: with
// |x_a| + |x_b| <= sqrt(2) |x| and |out_a| + |out_b| <= sqrt(2) |out|,
// |out| <= A |x| (1 + 2^-7), it is below
//   A |x| (sqrt(2) (4u + 2^-22) + sqrt(2) u) (1 + 2^-6) < (8u + 2^-21) A |x|.
// A rotation keeps the norm whatever t', so | |out| - A |x| | is within it; a
// subnormal output adds up to half its spacing per component (2 s covers both).
// Evaluating |out| and |x| in double adds a few 2^-53 relative, inside the margin.
struct PairBound {
  double relative;
  double absolute;
  double operator()(double norm_in, double factor) const { return relative * factor * norm_in + absolute; }
};

PairBound pair_bound(FormatId format) {
  const Format& f = format_of(format);
  const double u = std::ldexp(1.0, -f.precision);
  const double smallest = std::ldexp(1.0, f.min_exponent - f.precision + 1);
  return {8.0 * u + 0x1p-21, 2.0 * smallest};
}

// Pair i's deviation | |out| - A |in| | and its bound E, and their
// quotient: two square roots and a division per pair, in a loop with no
// branch and nothing carried from pair to pair, which the compiler makes
// vector code (the file is compiled without errno for sqrt, which a sum of
// squares never sets).
void pair_deviations(const PairBound& bound, double factor, std::span<const double> xa, std::span<const double> xb,
                     std::span<const double> ya, std::span<const double> yb, std::span<double> deviation,
                     std::span<double> limit, std::span<double> quotient) {
  for (std::size_t i = 0; i < quotient.size(); ++i) {
    const double in = norm2(xa[i], xb[i]);
    const double out = norm2(ya[i], yb[i]);
    limit[i] = bound(in, factor);
    deviation[i] = std::fabs(out - factor * in);
    quotient[i] = deviation[i] / limit[i];
  }
}

}  // namespace

RotatedProperty norm_property(const TableView& input, const TableView& output, RotaryLayout layout, std::int64_t width,
                              FormatId format, double attention_factor) {
  RotatedProperty p;
  p.claim = "every rotated pair keeps its norm: |out| = A |in|";
  p.bound = "(8u + 2^-21) A |in| + 2 s, u the unit roundoff and s the smallest subnormal of the output's format";
  const PairBound bound = pair_bound(format);
  // Every pair of every row, a block of rows per worker, merged in worker order.
  const std::int64_t rows = input.rows();
  const int workers = worker_count(0, rows);
  const auto pairs = static_cast<std::size_t>(width / 2);
  std::vector<RotatedProperty> parts(static_cast<std::size_t>(workers));
  parallel_for(workers, [&](int worker) {
    RotatedProperty& part = parts[static_cast<std::size_t>(worker)];
    const std::int64_t begin = rows * worker / workers, end = rows * (worker + 1) / workers;
    // Each row decoded once (not entry by entry through the format's switch)
    // and its pairs gathered into columns, whose deviations and bounds
    // pair_deviations computes as vector code (one pair at a time they took a
    // sixth of the command's time on a (1, 8192, 32, 128) output): the same
    // operations in the same order, so the same bits.
    std::vector<double> in_row(static_cast<std::size_t>(input.cols())), out_row(static_cast<std::size_t>(output.cols()));
    std::vector<double> xa(pairs), xb(pairs), ya(pairs), yb(pairs), deviation(pairs), limit(pairs), quotient(pairs);
    for (std::int64_t r = begin; r < end; ++r) {
      decode_row(input, r, in_row);
      decode_row(output, r, out_row);
      for (std::size_t i = 0; i < pairs; ++i) {
        const auto [a, b] = rotary_pair_columns(layout, width, static_cast<std::int64_t>(i));
        xa[i] = in_row[static_cast<std::size_t>(a)], xb[i] = in_row[static_cast<std::size_t>(b)];
        ya[i] = out_row[static_cast<std::size_t>(a)], yb[i] = out_row[static_cast<std::size_t>(b)];
      }
      pair_deviations(bound, attention_factor, xa, xb, ya, yb, deviation, limit, quotient);
      // The row's tally in locals (through `part` the counts went to memory
      // and back every pair: the compiler cannot keep them in registers
      // across the stores), added to the worker's after the row.
      std::int64_t violations = 0;
      double worst = part.worst_ratio;
      std::int64_t worst_pair = -1;
      for (std::size_t i = 0; i < pairs; ++i) {
        const bool fails = !(deviation[i] <= limit[i]);
        violations += fails;
        const double ratio =
            fails && !std::isfinite(deviation[i]) ? std::numeric_limits<double>::infinity() : quotient[i];
        if (ratio > worst) {
          worst = ratio;
          worst_pair = static_cast<std::int64_t>(i);
        }
      }
      part.checked += static_cast<std::int64_t>(pairs);
      part.violations += violations;
      if (worst_pair >= 0) {
        part.worst_ratio = worst;
        part.worst_row = r;
        part.worst_pair = worst_pair;
      }
    }
  });
  for (const RotatedProperty& part : parts) {
    p.checked += part.checked;
    p.violations += part.violations;
    if (part.worst_ratio > p.worst_ratio) {
      p.worst_ratio = part.worst_ratio;
      p.worst_row = part.worst_row;
      p.worst_pair = part.worst_pair;
    }
  }
  return p;
}

RotatedProperty relative_position_property(const TableView& input, const TableView& output,
                                           const std::vector<std::int64_t>& positions, RotaryLayout layout,
                                           std::int64_t width, FormatId format, double attention_factor,
                                           const std::vector<double>& inv_freq, bool reversed,
                                           const std::vector<std::vector<std::int64_t>>& section_positions,
                                           const std::vector<std::int64_t>& pair_section) {
  const std::int64_t rows = input.rows();
  const bool sectioned = !section_positions.empty() && !pair_section.empty();
  // The ids pair i turns by: its M-RoPE section's, else the row's one position.
  const auto ids = [&](std::int64_t i) -> const std::vector<std::int64_t>& {
    return sectioned ? section_positions[static_cast<std::size_t>(pair_section[static_cast<std::size_t>(i)])]
                     : positions;
  };
  RotatedProperty p;
  p.claim =
      "q_m . k_n depends on m - n alone: pair by pair, out_m,i . out_n,i = A^2 in_m,i^T R((n - m) theta_i) in_n,i";
  p.bound =
      "E(in_m,i) |out_n,i| + A |in_m,i| E(in_n,i) + A^2 |in_m,i| |in_n,i| 5 * 2^-24 (m + n) theta_i (float32 angles)";
  // |y_m . y_n - Y_m . Y_n| <= |y_m - Y_m| |y_n| + |Y_m| |y_n - Y_n| for Y = A R(t') x
  // (Cauchy-Schwarz), |y - Y| <= E(x) and |Y| = A |x|; Y_m . Y_n = A^2 x_m^T
  // R(t'_n - t'_m) x_n, which is the claim when the kernel's angles t' are
  // p theta_i. A correct kernel's angles are float32 (every model's): t' =
  // RN32(p inv_r) with inv_r within relative 2^-22 of theta_i (its libm pow,
  // libm_inv_freq_allowance), so |t' - t| <= (2^-22 + 2^-24) t (1 + 2^-22)
  // < 5 * 2^-24 t (1 + 2^-20); the rotation is 1-Lipschitz in the angle, so
  // the pair's dot product moves by at most A^2 |x_m,i| |x_n,i| (d_m + d_n).
  // The double evaluation adds about 2^-50 of the terms' sizes.
  const PairBound bound = pair_bound(format);
  const std::int64_t n = width / 2;
  const std::int64_t samples = std::min<std::int64_t>(1024, rows);
  const double sign = reversed ? -1.0 : 1.0;
  for (std::int64_t k = 0; k < samples; ++k) {
    // Row pairs spread over the subject; a row with itself is skipped.
    const std::int64_t r = (k * rows) / samples;
    const std::int64_t s = (r * 7919 + 104729) % rows;
    if (r == s) continue;
    for (std::int64_t i = 0; i < n; ++i) {
      const std::vector<std::int64_t>& at = ids(i);
      const double delta = static_cast<double>(at[static_cast<std::size_t>(s)] - at[static_cast<std::size_t>(r)]);
      const auto [a, b] = rotary_pair_columns(layout, width, i);
      const double xa = input.at(r, a), xb = input.at(r, b), za = input.at(s, a), zb = input.at(s, b);
      // (n - m) theta_i in double: within 2^-53 of it relative, below 2^-28 rad for |n - m| < 2^24.
      const double t = sign * delta * inv_freq[static_cast<std::size_t>(i)];
      const double c = std::cos(t), sn = std::sin(t);
      // x^T R(t) z = x_a (c z_a - s z_b) + x_b (s z_a + c z_b).
      const double expected = xa * (c * za - sn * zb) + xb * (sn * za + c * zb);
      const double ya = output.at(r, a), yb = output.at(r, b), wa = output.at(s, a), wb = output.at(s, b);
      const double measured = ya * wa + yb * wb;
      const double in_r = norm2(xa, xb), in_s = norm2(za, zb), out_s = norm2(wa, wb);
      const double drift =
          5.0 * 0x1p-24 * (1.0 + 0x1p-20) * inv_freq[static_cast<std::size_t>(i)] *
          static_cast<double>(at[static_cast<std::size_t>(r)] + at[static_cast<std::size_t>(s)]);
      const double limit =
          bound(in_r, attention_factor) * out_s + attention_factor * in_r * bound(in_s, attention_factor) +
          attention_factor * attention_factor * in_r * in_s * drift +
          0x1p-50 *
              (std::fabs(ya * wa) + std::fabs(yb * wb) + attention_factor * attention_factor * in_r * norm2(za, zb));
      const double deviation = std::fabs(measured - attention_factor * attention_factor * expected);
      ++p.checked;
      const bool fails = !(deviation <= limit);
      p.violations += fails;
      const double ratio =
          !std::isfinite(deviation) ? std::numeric_limits<double>::infinity() : (limit > 0.0 ? deviation / limit : 0.0);
      if (ratio > p.worst_ratio) {
        p.worst_ratio = ratio;
        p.worst_row = r;
        p.worst_pair = i;
      }
    }
  }
  return p;
}

}  // namespace pecheck::properties
