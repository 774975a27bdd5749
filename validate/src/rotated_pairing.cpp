#include "rotated_pairing.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "pecheck/parallel_for.hpp"
#include "rotary_layout.hpp"

namespace pecheck::validate {

namespace {

// |(a, b)|: the squares of format values (below 2^128 in magnitude, at least
// 2^-149 when nonzero) neither overflow nor underflow in double.
double norm2(double a, double b) { return std::sqrt(a * a + b * b); }

constexpr std::int64_t pairing_rows = 2048;

}  // namespace

std::int64_t changed_width(const RotatedValues& values) {
  std::int64_t width = 0;
  for (std::int64_t r = 0; r < values.rows; ++r) {
    for (std::int64_t c = values.head_dim - 1; c >= width; --c) {
      if (std::bit_cast<std::uint64_t>(values.in(r, c)) != std::bit_cast<std::uint64_t>(values.out(r, c))) {
        width = c + 1;
        break;
      }
    }
    if (width == values.head_dim) break;
  }
  return width;
}

double rotation_norm_tolerance(FormatId format) { return 8.0 * std::ldexp(1.0, -format_of(format).precision); }

double pairing_tolerance(FormatId format) { return std::max(rotation_norm_tolerance(format), 0x1p-5); }

PairingFit fit_pairing(const RotatedValues& values, FormatId format, const std::vector<std::int64_t>& widths) {
  const std::vector<std::int64_t> rows = spread_rows(values.rows, pairing_rows);
  const double tolerance = pairing_tolerance(format);
  // The sampled rows decoded once for every candidate (read entry by entry
  // through the format's switch, each candidate again, this was a twentieth
  // of the command's time on a (1, 8192, 32, 128) output).
  const auto cols = static_cast<std::size_t>(values.head_dim);
  std::vector<double> in_rows(rows.size() * cols), out_rows(rows.size() * cols);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    decode_row(values.input, rows[k], std::span<double>(in_rows).subspan(k * cols, cols));
    decode_row(values.output, rows[k], std::span<double>(out_rows).subspan(k * cols, cols));
  }
  // Each (width, layout) once: a width listed twice (the convention's, what
  // changed and the head are often one) fits as it did, and its fraction
  // cannot beat itself by 1%.
  std::vector<std::pair<std::int64_t, RotaryLayout>> candidates;
  for (const std::int64_t width : widths) {
    if (width < 2 || width % 2 != 0 || width > values.head_dim) continue;
    if (std::any_of(candidates.begin(), candidates.end(), [&](const auto& c) { return c.first == width; })) continue;
    for (const RotaryLayout layout : {RotaryLayout::rotate_half, RotaryLayout::interleaved}) {
      candidates.push_back({width, layout});
    }
  }
  // The candidates are measured by the workers as they come free, then
  // chosen among in their order, as one thread did.
  std::vector<std::optional<PairingFit>> fits(candidates.size());
  std::atomic<std::size_t> next{0};
  parallel_for(worker_count(0, static_cast<std::int64_t>(candidates.size())), [&](int) {
    for (std::size_t j = next++; j < candidates.size(); j = next++) {
      const auto [width, layout] = candidates[j];
      std::vector<double> ratios;
      for (std::size_t k = 0; k < rows.size(); ++k) {
        const double* in_row = in_rows.data() + k * cols;
        const double* out_row = out_rows.data() + k * cols;
        for (std::int64_t i = 0; i < width / 2; ++i) {
          const auto [a, b] = pair_columns(layout, width, i);
          const double in = norm2(in_row[a], in_row[b]);
          const double out = norm2(out_row[a], out_row[b]);
          if (in > 0.0 && std::isfinite(out)) ratios.push_back(out / in);
        }
      }
      if (ratios.empty()) continue;
      std::vector<double> sorted = ratios;
      std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2), sorted.end());
      const double median = sorted[sorted.size() / 2];
      std::int64_t close = 0;
      for (double ratio : ratios) close += std::fabs(ratio - median) <= tolerance * median;
      fits[j] = PairingFit{layout, width, static_cast<double>(close) / static_cast<double>(ratios.size()), median};
    }
  });
  PairingFit best;
  bool have = false;
  for (const std::optional<PairingFit>& fit : fits) {
    if (fit && (!have || fit->fraction > best.fraction + 0.01)) {
      best = *fit;
      have = true;
    }
  }
  return best;
}

RotationTables rotation_tables(const RotatedValues& values, const std::vector<std::int64_t>& row_position,
                               RotaryLayout layout, std::int64_t width, std::int64_t first, std::int64_t count,
                               int threads) {
  const std::int64_t n = width / 2;
  std::vector<double> dot(static_cast<std::size_t>(count * n)), cross(dot.size()), norm(dot.size());
  // The positions are split over the workers, each summing its own
  // positions' tokens in row order as one thread did: the same sums, bit for
  // bit, whatever the split (on one thread this took a twentieth of the
  // command's time on a (1, 8192, 32, 128) output).
  const int workers = worker_count(threads, count / 64 + 1);
  parallel_for(workers, [&](int worker) {
    const std::int64_t low = count * worker / workers, high = count * (worker + 1) / workers;
    // Each row decoded once, not entry by entry through the format's switch.
    std::vector<double> in_row(static_cast<std::size_t>(values.input.cols()));
    std::vector<double> out_row(static_cast<std::size_t>(values.output.cols()));
    for (std::int64_t r = 0; r < values.rows; ++r) {
      const std::int64_t row = row_position[static_cast<std::size_t>(r)] - first;
      if (row < low || row >= high) continue;
      decode_row(values.input, r, in_row);
      decode_row(values.output, r, out_row);
      for (std::int64_t i = 0; i < n; ++i) {
        const auto [a, b] = pair_columns(layout, width, i);
        const auto ka = static_cast<std::size_t>(a), kb = static_cast<std::size_t>(b);
        const double xa = in_row[ka], xb = in_row[kb];
        const double ya = out_row[ka], yb = out_row[kb];
        const auto k = static_cast<std::size_t>(row * n + i);
        // y = A R(t) x: x . y = A cos(t) |x|^2, x x y = A sin(t) |x|^2.
        dot[k] += xa * ya + xb * yb;
        cross[k] += xa * yb - xb * ya;
        norm[k] += xa * xa + xb * xb;
      }
    }
  });
  RotationTables t{make_table(count, n, FormatId::float64), make_table(count, n, FormatId::float64)};
  for (std::int64_t row = 0; row < count; ++row) {
    for (std::int64_t i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(row * n + i);
      const double nan = std::numeric_limits<double>::quiet_NaN();
      t.cos.set(row, i, norm[k] > 0.0 ? dot[k] / norm[k] : nan);
      t.sin.set(row, i, norm[k] > 0.0 ? cross[k] / norm[k] : nan);
    }
  }
  return t;
}

}  // namespace pecheck::validate
