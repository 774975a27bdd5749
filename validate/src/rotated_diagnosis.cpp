#include "rotated_diagnosis.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <string>

#include "pecheck/number_text.hpp"
#include "pecheck/parallel_for.hpp"
#include "pecheck/reference/nearest_rounding.hpp"
#include "rotary_layout.hpp"
#include "rotated_candidates.hpp"

namespace pecheck::validate {

namespace {

constexpr std::int64_t hypothesis_rows = 512;

// The settings an evaluation runs under: the kernel's positions and direction
// (as detected, or POS as given and forwards) and whether cos and sin are
// cast to the output's format with the products and the sum rounded there.
struct Setting {
  const std::vector<std::int64_t>* positions;
  bool reversed;
};

// The squared distances of the output to a candidate's values over the
// rows, for pair i and inv_freq variant v, under both roundings: [0] the
// rotation rounded once to the output's format, [1] cos and sin cast to it
// with the products and the sum rounded there. Each sum from zero in row
// order; `count` the entries each took (those with finite distances). The
// angle, its sin and cos are the roundings' common part, computed once for
// both (computed for each, they were most of the diagnosis's time).
struct PairSquares {
  double squares[2] = {0.0, 0.0};
  double count[2] = {0.0, 0.0};
};

PairSquares squared_errors(const RotatedValues& values, const std::vector<std::int64_t>& rows, const Setting& s,
                           const Candidate& c, const Frequencies& f, RotaryLayout layout, std::int64_t width,
                           const Format& out, double factor, std::size_t i, int v) {
  const auto [a, b] = pair_columns(layout, width, static_cast<std::int64_t>(i));
  PairSquares sums;
  for (const std::int64_t r : rows) {
    const double t = angle_of(c, f, (*s.positions)[static_cast<std::size_t>(r)], i, v);
    double rotation_cs = factor * std::cos(t);
    double rotation_sn = (s.reversed ? -factor : factor) * std::sin(t);
    if (c.cache) {
      rotation_cs = reference::round_nearest(rotation_cs, format_of(*c.cache));
      rotation_sn = reference::round_nearest(rotation_sn, format_of(*c.cache));
    }
    const double xa = values.in(r, a), xb = values.in(r, b);
    const double out_a = values.out(r, a), out_b = values.out(r, b);
    for (const bool cast : {false, true}) {
      double cs = rotation_cs, sn = rotation_sn;
      double ya = 0.0, yb = 0.0;
      if (cast) {
        cs = reference::round_nearest(cs, out), sn = reference::round_nearest(sn, out);
        ya = reference::round_nearest(reference::round_nearest(xa * cs, out) - reference::round_nearest(xb * sn, out),
                                      out);
        yb = reference::round_nearest(reference::round_nearest(xb * cs, out) + reference::round_nearest(xa * sn, out),
                                      out);
      } else {
        ya = reference::round_nearest(xa * cs - xb * sn, out);
        yb = reference::round_nearest(xa * sn + xb * cs, out);
      }
      const double da = out_a - ya, db = out_b - yb;
      if (!std::isfinite(da) || !std::isfinite(db)) continue;
      sums.squares[cast] += da * da + db * db;
      sums.count[cast] += 2.0;
    }
  }
  return sums;
}

// The candidate's RMS distance under a setting: per pair the best inv_freq
// variant, then the better of the two roundings over all pairs. Each
// rounding's sums are taken in the order they were when the roundings were
// tried one after the other: the same figures, bit for bit.
double rms_distance(const RotatedValues& values, const std::vector<std::int64_t>& rows, const Setting& s,
                    const Candidate& c, const Frequencies& f, RotaryLayout layout, std::int64_t width,
                    const Format& out, double factor) {
  const int tried = c.rule == AngleRule::exact ? 1 : variants;
  const double infinity = std::numeric_limits<double>::infinity();
  double total[2] = {0.0, 0.0}, count[2] = {0.0, 0.0};
  const std::size_t pairs = std::min(f.exact.size(), static_cast<std::size_t>(std::max<std::int64_t>(width / 2, 0)));
  if (c.rule == AngleRule::accumulated) {
    // One theta_scale for every pair: the variants are tried over them all.
    double least[2] = {infinity, infinity};
    for (int v = 0; v < tried; ++v) {
      double squares[2] = {0.0, 0.0}, n[2] = {0.0, 0.0};
      for (std::size_t i = 0; i < pairs; ++i) {
        const PairSquares pair = squared_errors(values, rows, s, c, f, layout, width, out, factor, i, v);
        for (int k = 0; k < 2; ++k) squares[k] += pair.squares[k], n[k] += pair.count[k];
      }
      for (int k = 0; k < 2; ++k) {
        if (squares[k] < least[k]) least[k] = squares[k], count[k] = n[k];
      }
    }
    total[0] = least[0], total[1] = least[1];
  } else {
    for (std::size_t i = 0; i < pairs; ++i) {
      double least[2] = {infinity, infinity}, n_least[2] = {0.0, 0.0};
      for (int v = 0; v < tried; ++v) {
        const PairSquares pair = squared_errors(values, rows, s, c, f, layout, width, out, factor, i, v);
        for (int k = 0; k < 2; ++k) {
          if (pair.squares[k] < least[k]) least[k] = pair.squares[k], n_least[k] = pair.count[k];
        }
      }
      for (int k = 0; k < 2; ++k) total[k] += least[k], count[k] += n_least[k];
    }
  }
  double best = infinity;
  for (int k = 0; k < 2; ++k) {
    if (count[k] > 0.0) best = std::min(best, std::sqrt(total[k] / count[k]));
  }
  return best;
}

}  // namespace

ComputationFit diagnose_computation(const RotatedValues& values, const std::vector<std::int64_t>& positions,
                                    const std::vector<std::int64_t>& given_positions, RotaryLayout layout,
                                    std::int64_t width, const RotaryConvention& convention, FormatId format,
                                    bool reversed, double factor) {
  const std::vector<std::int64_t> rows = spread_rows(values.rows, hypothesis_rows);
  const std::vector<Candidate> all = candidates(format);
  const Frequencies f = frequencies(convention);
  const Format& out = format_of(format);
  std::vector<Setting> settings = {{&positions, reversed}};
  // Detection may have read a fault's garbled angles as a direction or an
  // offset: POS as given, forwards, is tried too.
  if (reversed || positions != given_positions) settings.push_back({&given_positions, false});
  // Each setting's best fault, when it explains the output (half the RMS of
  // the correct computations: the fault's own values, not rounding noise that
  // both fit alike). POS as given, forwards, wins a tie or better: an offset
  // or a direction the fault explains as well was the fault's doing (positions
  // in bfloat16 far out round p and p + 5 alike).
  struct Explained {
    std::size_t setting = 0, candidate = 0;
    double rms = 0.0, correct = 0.0;
  };
  std::optional<Explained> chosen;
  for (std::size_t k = 0; k < settings.size(); ++k) {
    // Each candidate's distance is a task of its own, taken by the workers
    // as they come free (this ran on one thread while the other core idled):
    // each sums in its own fixed order, so the split changes no bit. A task
    // has its own copy of the frequencies, whose ggml ladders are a cache
    // built on first use.
    std::vector<double> rms(all.size());
    std::atomic<std::size_t> next{0};
    parallel_for(worker_count(0, static_cast<std::int64_t>(all.size())), [&](int) {
      for (std::size_t j = next++; j < all.size(); j = next++) {
        const Frequencies own = f;
        rms[j] = rms_distance(values, rows, settings[k], all[j], own, layout, width, out, factor);
      }
    });
    std::size_t best = 0;
    for (std::size_t j = 1; j < rms.size(); ++j) {
      if (rms[j] < rms[best]) best = j;
    }
    const double correct = std::min(rms[0], rms[1]);
    if (!all[best].fault || !(rms[best] < 0.5 * correct)) continue;
    if (!chosen || rms[best] <= chosen->rms) chosen = Explained{k, best, rms[best], correct};
  }
  ComputationFit fit;
  if (!chosen) return fit;
  const Candidate& c = all[chosen->candidate];
  std::int64_t largest = 0;
  for (const std::int64_t r : rows)
    largest = std::max(largest, (*settings[chosen->setting].positions)[static_cast<std::size_t>(r)]);
  fit.fault_explains = true;
  fit.plain_setting = chosen->setting == 1;
  const std::string evidence = "the output is the rotation by " + c.name + ": RMS distance " +
                               significant(chosen->rms, 3) + " to it over " + std::to_string(rows.size()) +
                               " rows (positions up to " + std::to_string(largest) + "), against " +
                               significant(chosen->correct, 3) + " to the correct computations (";
  fit.hazard = Hazard{*c.fault, evidence + c.source + ")."};
  // Positions and angles both narrow: the angles are a fault of their own.
  if (narrow(c.position) && narrow(c.angle)) {
    fit.second = Hazard{HazardKind::angle_precision, evidence + "cactus PR 688, ml-explore/mlx-lm PR 1076)."};
  }
  return fit;
}

}  // namespace pecheck::validate
