#include "rotated_diagnosis.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <string>

#include "pecheck/properties/rotary_values.hpp"
#include "rotary_layout.hpp"

namespace pecheck::validate {

namespace {

using F = FormatId;
constexpr std::int64_t hypothesis_rows = 512;

double f32(double x) { return round_to_format(x, format_of(F::float32)); }

std::string number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

// cos and sin (before the attention factor) a computation gives at a position, per pair.
struct Candidate {
  std::string name;
  std::optional<RotatedHazardKind> fault;  // nullopt: a correct computation
  std::string source;                      // where the fault was seen
  std::function<void(std::int64_t position, std::vector<double>& cos, std::vector<double>& sin)> angles;
};

void from_values(const RotaryConvention& c, const properties::RotaryComputation& computation, std::int64_t p,
                 std::vector<double>& cos, std::vector<double>& sin) {
  const properties::RotaryValues v = properties::rotary_values(c, {p}, computation, 1.0);
  cos = v.cos;
  sin = v.sin;
}

std::vector<Candidate> candidates(const RotaryConvention& c, FormatId output) {
  std::vector<Candidate> out;
  const auto values = [&c](properties::RotaryComputation computation) {
    return [c, computation](std::int64_t p, std::vector<double>& cos, std::vector<double>& sin) {
      from_values(c, computation, p, cos, sin);
    };
  };
  const properties::RotaryComputation exact{"exact", std::nullopt, std::nullopt, std::nullopt};
  const properties::RotaryComputation single{"float32", F::float32, F::float32, F::float32};
  out.push_back({"exact", std::nullopt, "", values(exact)});
  out.push_back({"float32 angles", std::nullopt, "", values(single)});
  // transformers: the float32 cache cast to the activation dtype.
  out.push_back({"float32 cache cast to the output's format", std::nullopt, "",
                 [c, single, output](std::int64_t p, std::vector<double>& cos, std::vector<double>& sin) {
                   from_values(c, single, p, cos, sin);
                   for (double& v : cos) v = round_to_format(v, format_of(output));
                   for (double& v : sin) v = round_to_format(v, format_of(output));
                 }});
  for (const F f : {F::bfloat16, F::float16}) {
    const std::string name(format_of(f).name);
    out.push_back({"positions in " + name, RotatedHazardKind::position_precision, "candle PR 3520",
                   values({"", F::float32, f, F::float32})});
    out.push_back({"angles in " + name, RotatedHazardKind::angle_precision,
                   "cactus PR 688, ml-explore/mlx-lm PR 1076", values({"", F::float32, F::float32, f})});
    out.push_back({"inv_freq in " + name, RotatedHazardKind::inv_freq_precision,
                   "Megatron-LM issue 744, InternLM issue 237", values({"", f, F::float32, F::float32})});
    // Held in the output's own format it is transformers' cast: a fault only when coarser.
    if (format_of(f).precision < format_of(output).precision) {
      out.push_back({"cos and sin held in " + name, RotatedHazardKind::cache_precision, "flashinfer PR 585",
                     [c, single, f](std::int64_t p, std::vector<double>& cos, std::vector<double>& sin) {
                       from_values(c, single, p, cos, sin);
                       for (double& v : cos) v = round_to_format(v, format_of(f));
                       for (double& v : sin) v = round_to_format(v, format_of(f));
                     }});
    }
  }
  // ggml's rope: theta_scale = powf(base, -2/d); theta = p, then theta *= theta_scale per pair in float32.
  const RotaryDerived derived = rotary_derived(c);
  const double theta_scale = f32(std::pow(f32(derived.effective_base), f32(-2.0 / static_cast<double>(derived.dims))));
  out.push_back({"each pair's angle by repeated float32 multiplication (theta *= theta_scale)",
                 RotatedHazardKind::frequency_accumulation, "llama.cpp's ggml rope",
                 [theta_scale](std::int64_t p, std::vector<double>& cos, std::vector<double>& sin) {
                   double theta = f32(static_cast<double>(p));
                   for (std::size_t i = 0; i < cos.size(); ++i) {
                     cos[i] = std::cos(theta);
                     sin[i] = std::sin(theta);
                     theta = f32(theta * theta_scale);
                   }
                 }});
  // A fast sin/cos: the float32 angle reduced by float32's 2 pi, k turns off by k (2 pi - RN32(2 pi)).
  const std::vector<double> inv32 = properties::rotary_inv_freqs(c, F::float32);
  out.push_back({"sin and cos after a float32 range reduction (error growing with |angle|)",
                 RotatedHazardKind::fast_trig, "kekzl/imp PR 1325",
                 [inv32](std::int64_t p, std::vector<double>& cos, std::vector<double>& sin) {
                   const double two_pi = f32(2.0 * std::numbers::pi);
                   for (std::size_t i = 0; i < inv32.size(); ++i) {
                     const double angle = f32(f32(static_cast<double>(p)) * inv32[i]);
                     const double k = std::nearbyint(f32(angle / two_pi));
                     const double reduced = f32(angle - f32(k * two_pi));
                     cos[i] = std::cos(reduced);
                     sin[i] = std::sin(reduced);
                   }
                 }});
  return out;
}

}  // namespace

ComputationFit diagnose_computation(const RotatedValues& values, const std::vector<std::int64_t>& positions,
                                    RotaryLayout layout, std::int64_t width, const RotaryConvention& convention,
                                    FormatId format, bool reversed, double factor) {
  const std::int64_t n = width / 2;
  const std::vector<std::int64_t> rows = spread_rows(values.rows, hypothesis_rows);
  const std::vector<Candidate> all = candidates(convention, format);
  const Format& f = format_of(format);
  std::vector<double> rms;
  double largest_position = 0.0;
  for (const Candidate& candidate : all) {
    std::vector<double> cos(static_cast<std::size_t>(n)), sin(static_cast<std::size_t>(n));
    double squares = 0.0, count = 0.0;
    for (const std::int64_t r : rows) {
      const std::int64_t p = positions[static_cast<std::size_t>(r)];
      candidate.angles(p, cos, sin);
      for (std::int64_t i = 0; i < n; ++i) {
        const auto [a, b] = pair_columns(layout, width, i);
        const double c = factor * cos[static_cast<std::size_t>(i)];
        const double s = (reversed ? -factor : factor) * sin[static_cast<std::size_t>(i)];
        const double xa = values.in(r, a), xb = values.in(r, b);
        const double da = values.out(r, a) - round_to_format(xa * c - xb * s, f);
        const double db = values.out(r, b) - round_to_format(xa * s + xb * c, f);
        if (!std::isfinite(da) || !std::isfinite(db)) continue;
        squares += da * da + db * db;
        count += 2.0;
      }
      largest_position = std::max(largest_position, static_cast<double>(p));
    }
    rms.push_back(count > 0.0 ? std::sqrt(squares / count) : std::numeric_limits<double>::infinity());
  }
  std::size_t best = 0;
  for (std::size_t k = 1; k < rms.size(); ++k) {
    if (rms[k] < rms[best]) best = k;
  }
  const double correct = std::min({rms[0], rms[1], rms[2]});
  ComputationFit fit;
  // Half the RMS of the correct computations: the fault's own values explain
  // the output, not rounding noise that both fit alike.
  if (!all[best].fault || !(rms[best] < 0.5 * correct)) return fit;
  fit.fault_explains = true;
  fit.hazard = RotatedHazard{*all[best].fault, "the output is the rotation by " + all[best].name + ": RMS distance " +
                                                   number(rms[best]) + " to it over " + std::to_string(rows.size()) +
                                                   " rows (positions up to " + number(largest_position) + "), against " +
                                                   number(correct) + " to the correct computations (" +
                                                   all[best].source + ")."};
  return fit;
}

}  // namespace pecheck::validate
