#include "rotated_diagnosis.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <unordered_map>

#include "pecheck/number_text.hpp"
#include "pecheck/parallel_for.hpp"
#include "pecheck/properties/rotary_values.hpp"
#include "pecheck/reference/nearest_rounding.hpp"
#include "rotary_layout.hpp"

namespace pecheck::validate {

namespace {

using F = FormatId;
constexpr std::int64_t hypothesis_rows = 512;

double f32(double x) { return reference::round_nearest(x, format_of(F::float32)); }
double in_format(double x, std::optional<F> f) { return f ? reference::round_nearest(x, format_of(*f)) : x; }

// How a computation turns (position, its inv_freq_i) into the angle, and
// cos and sin into the values it rotates by.
enum class AngleRule { exact, product, accumulated, reduced };

struct Candidate {
  std::string name;
  std::optional<HazardKind> fault;  // nullopt: a correct computation
  std::string source;                      // where the fault was seen
  AngleRule rule = AngleRule::product;
  std::optional<F> position, inv_freq, angle, cache;  // formats the steps round to
};

bool narrow(std::optional<F> f) { return f && *f != F::float32; }

std::vector<Candidate> candidates(FormatId output) {
  using R = AngleRule;
  std::vector<Candidate> out = {
      {"the exact angles", std::nullopt, "", R::exact, {}, {}, {}, {}},
      {"float32 angles", std::nullopt, "", R::product, F::float32, F::float32, F::float32, {}},
  };
  for (const F f : {F::bfloat16, F::float16}) {
    const std::string name(format_of(f).name);
    out.push_back({"positions in " + name,
                   HazardKind::position_precision,
                   "candle PR 3520",
                   R::product,
                   f,
                   F::float32,
                   F::float32,
                   {}});
    out.push_back({"angles in " + name,
                   HazardKind::angle_precision,
                   "cactus PR 688, ml-explore/mlx-lm PR 1076",
                   R::product,
                   F::float32,
                   F::float32,
                   f,
                   {}});
    out.push_back({"inv_freq in " + name,
                   HazardKind::inv_freq_precision,
                   "Megatron-LM issue 744, InternLM issue 237",
                   R::product,
                   F::float32,
                   f,
                   F::float32,
                   {}});
    // Both at once (positions and their angles in the narrow format, as a
    // module cast to it computes them): each alone fits neither, and the
    // garbled angles read as an offset or another base.
    out.push_back({"positions and angles in " + name, HazardKind::position_precision, "candle PR 3520", R::product, f,
                   F::float32, f, {}});
    // Held in the output's own format it is transformers' cast (tried with every candidate): a fault only when coarser.
    if (format_of(f).precision < format_of(output).precision) {
      out.push_back({"cos and sin held in " + name, HazardKind::cache_precision, "flashinfer PR 585", R::product,
                     F::float32, F::float32, F::float32, f});
    }
  }
  out.push_back({"each pair's angle by repeated float32 multiplication (theta *= theta_scale)",
                 HazardKind::frequency_accumulation,
                 "llama.cpp's ggml rope",
                 R::accumulated,
                 F::float32,
                 F::float32,
                 F::float32,
                 {}});
  out.push_back({"sin and cos after a float32 range reduction by float32's 2 pi (an error growing with |angle|)",
                 HazardKind::fast_trig,
                 "kekzl/imp PR 1325",
                 R::reduced,
                 F::float32,
                 F::float32,
                 F::float32,
                 {}});
  return out;
}

// What the candidates share: the convention's frequencies, exact and as a
// framework's float32 tensors hold them, and ggml's ladder.
struct Frequencies {
  std::vector<double> exact;
  std::vector<double> single;
  std::vector<double> narrow_bf16, narrow_f16;
  double theta_scale = 1.0;   // ggml: powf(base, -2/d)
  std::vector<double> ratio;  // the scaling rule's inv_freq over the plain ladder's (ggml's freq_factors)
  // ggml's angles of a (position, variant), built on first use (one evaluation, one thread).
  mutable std::unordered_map<std::int64_t, std::vector<double>> ladders;
};

Frequencies frequencies(const RotaryConvention& c) {
  Frequencies f;
  f.exact = properties::rotary_inv_freqs(c, std::nullopt);
  f.single = properties::rotary_inv_freqs(c, F::float32);
  f.narrow_bf16 = properties::rotary_inv_freqs(c, F::bfloat16);
  f.narrow_f16 = properties::rotary_inv_freqs(c, F::float16);
  const RotaryDerived d = rotary_derived(c);
  f.theta_scale = f32(std::pow(f32(d.effective_base), f32(-2.0 / static_cast<double>(d.dims))));
  for (std::size_t i = 0; i < f.exact.size(); ++i) {
    const double plain = std::pow(d.effective_base, -2.0 * static_cast<double>(i) / static_cast<double>(d.dims));
    f.ratio.push_back(f.exact[i] / plain);
  }
  return f;
}

// A framework's float32 pow may be an ULP off the correctly rounded
// inv_freq (rope_caches.py: about one frequency in five with NumPy), which
// at position 2^20 moves an angle by 2^-24 * 2^20 rad: each candidate takes,
// pair by pair, whichever of inv_freq and its two float32 neighbours fits.
constexpr int variants = 3;
double variant(double inv, int v) {
  if (v == 1) return std::nextafter(static_cast<float>(inv), 0.0F);
  if (v == 2) return std::nextafter(static_cast<float>(inv), 1e30F);
  return inv;
}

double angle_of(const Candidate& c, const Frequencies& f, std::int64_t p, std::size_t i, int v) {
  const double position = static_cast<double>(p);
  switch (c.rule) {
    case AngleRule::exact:
      return position * f.exact[i];
    case AngleRule::accumulated: {
      // Pair i's angle after i float32 multiplications (ggml). Callers ask for
      // every pair of every sampled row: each (position, variant) ladder is built once.
      std::vector<double>& ladder = f.ladders[p * variants + v];
      if (ladder.size() != f.exact.size()) {
        ladder.resize(f.exact.size());
        double theta = f32(position);
        const double scale = variant(f.theta_scale, v);
        for (std::size_t k = 0; k < ladder.size(); ++k) {
          ladder[k] = f.ratio[k] == 1.0 ? theta : f32(theta * f.ratio[k]);
          theta = f32(theta * scale);
        }
      }
      return ladder[i];
    }
    case AngleRule::product:
    case AngleRule::reduced: {
      double inv = variant(f.single[i], v);
      if (c.inv_freq == F::bfloat16) inv = f.narrow_bf16[i];
      if (c.inv_freq == F::float16) inv = f.narrow_f16[i];
      // Computed in float32 and then rounded, as a tensor .to(dtype) after the product does.
      const double angle = in_format(f32(in_format(position, c.position) * inv), c.angle);
      if (c.rule == AngleRule::product) return angle;
      const double two_pi = f32(2.0 * std::numbers::pi);
      const double k = std::nearbyint(f32(angle / two_pi));
      return f32(angle - f32(k * two_pi));
    }
  }
  return 0.0;
}

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
