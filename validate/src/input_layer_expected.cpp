#include "input_layer_expected.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pecheck::validate {

// Why the estimate is predicted rather than given a noise tolerance. With
// e_c,i = E_i - mean_G(E) (sum_G e_c = 0) the estimate is
//   s_hat = sum_i e_c,i x_i / S,   S = sum e_c,i^2.
// Under the hypothesis "the layer computes c in form F", each output value is
//   x_i = round_a(u_i + v),   u_i = c E_i (fused) or round_a(c E_i) (F = c E rounded first),
// v = PE[p] in whatever format the layer held it; below float64 activations
// c is held in float32 (PyTorch's opmath), so c E is exact in float64 and u_i
// is known exactly. The rounding x_i - u_i - v is NOT independent noise: E,
// c E and PE lie on the lattices of narrow formats, so small |c E_i| are
// absorbed by PE's spacing (x_i = PE, error -c E_i) and sums land on ties, an
// error correlated with e_c,i. Measured with the old independent-noise model
// (6 sigma): a correct bfloat16 layer at d = 1024, 64 sequences of 16 tokens
// gave s_hat = 32.00022 against a tolerance of 0.000206.
// So, for each candidate and form, the layer's roundings are reproduced:
//   y_i = round_a(u_i + PE_hat),   expected = s_hat - sum e_c,i (x_i - y_i) / S,
// and the candidate fits when |s_hat - expected| = |sum e_c (x_i - y_i)| / S
// is within what is genuinely unknown.
//  * Per group (several sequences; PE unknown): the values of v that
//    reproduce every x_i of a position and column form an interval, the
//    intersection of x_i's rounding intervals (ends included when x_i is even:
//    ties round to even) less u_i. If it is not empty, PE_hat is its middle
//    and every y_i = x_i exactly: no tolerance is needed below float32 (all
//    values and differences are exact in float64; for float32 and float64
//    activations the interval is widened by float64's own rounding, below,
//    and that w_i bounds as it does further down). If it is empty, the
//    layer's intermediate arithmetic may explain it: c E rounded to float32
//    first (PyTorch's opmath: round_a(round_f32(c E)), or round_f32(c E) in
//    the fused form), and the add done in float32 before rounding to a
//    narrower a (half a float32 unit of |x_i| + |u_i| >= |u_i + v| less half a
//    unit of a), and for float32 and float64 activations float64's own
//    rounding (2 ulp_64(2 |c E_i| + |x_i|)). Widened by these w_i, an interval
//    that is not empty holds the true v, so x_i lies between round_a(t_i - w_i)
//    and round_a(t_i + w_i), t_i = u_i + PE_hat, and
//      |s_hat - expected| <= sum |e_c,i| (round_a(t_i + w_i) - round_a(t_i - w_i)) / S,
//    a bound, not a probability. Where even the widened interval is empty,
//    the hypothesis is false at that position and column: its disagreement
//    counts in full against it.
//  * Against a known encoding (one sequence and a given convention): the
//    same, one token at a time, with v also within half a unit of a (the
//    larger spacing) of the convention's table rounded to a (the layer may
//    hold PE unrounded (float32) or rounded to a), plus what computing it in
//    float32 may err by (below). A wrong candidate shifts
//    u_i by (c' - c) E_i, which leaves many tokens' intervals outside that
//    window (measured: d = 3072, 32 bfloat16 tokens, 55.5 against sqrt(d):
//    12289 of 98304 values not reproduced; the true scale: none).
// The summation floor of the estimate (input_layer_scale.cpp) is added.
// A consequence: a candidate that reproduces every position of the data as
// well as the true one cannot be told from it, and both fit (the diagnosis
// then says the scale is undecided).
namespace {

using Wide = long double;

struct Entry {
  double e_c;    // the token's centred embedding value
  double x;      // its output value
  double u;      // the known part: c E, or round_a(c E)
  double u_alt;  // u as the wide format's arithmetic gives it (PyTorch's float32 opmath)
  double slack;  // float64 arithmetic's own rounding, for float32 and float64 activations
  double low, high;  // the reals that round to x
  bool closed;       // both ends included: x is even, so a tie rounds to it
};

struct Sums {
  Wide mismatch = 0.0L, bound = 0.0L;
};

// The entries' disagreement with y_i = round_a(u_i + pe) and, where each may be
// computed by the layer anywhere within w_i of u_i + pe, its span.
void add_column(const std::vector<Entry>& entries, double pe, const std::vector<double>& w, const Format& format,
                Sums& sums) {
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Entry& entry = entries[k];
    const double t = entry.u + pe;
    sums.mismatch += static_cast<Wide>(entry.e_c) * (entry.x - round_to_format(t, format));
    if (w[k] == 0.0) continue;
    const double span = round_to_format(t + w[k], format) - round_to_format(t - w[k], format);
    sums.bound += std::abs(static_cast<Wide>(entry.e_c)) * span;
  }
}

// The values v of PE with round_a(u_i + v + [-widen_i, widen_i]) holding x_i for every token.
struct Consistent {
  double low = -std::numeric_limits<double>::infinity(), high = std::numeric_limits<double>::infinity();
  bool low_closed = true, high_closed = true;
  bool empty() const { return low > high || (low == high && !(low_closed && high_closed)); }
};

Consistent consistent(const std::vector<Entry>& entries, const std::vector<double>& widen, Consistent set) {
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Entry& entry = entries[k];
    const double low = entry.low - entry.u - widen[k], high = entry.high - entry.u + widen[k];
    const bool closed = entry.closed || widen[k] > 0.0;
    // An end shared by several tokens is included only if every one includes it.
    if (low > set.low) {
      set.low = low;
      set.low_closed = closed;
    } else if (low == set.low) {
      set.low_closed = set.low_closed && closed;
    }
    if (high < set.high) {
      set.high = high;
      set.high_closed = closed;
    } else if (high == set.high) {
      set.high_closed = set.high_closed && closed;
    }
  }
  return set;
}

}  // namespace

RoundingInterval rounding_interval(double x, const Format& format) {
  const double magnitude = std::abs(x);
  const double above = ulp_in(magnitude, format);
  // Round to nearest even: a tie goes to x when x's last significand bit is 0.
  const bool even = std::fmod(magnitude / above, 2.0) == 0.0;
  const bool binade_start = magnitude > 0.0 && std::ilogb(magnitude) > format.min_exponent &&
                            std::ldexp(1.0, std::ilogb(magnitude)) == magnitude;
  const double below = binade_start ? above / 2.0 : above;  // toward zero
  if (x < 0.0) return {x - above / 2.0, x + below / 2.0, even};
  return {x - below / 2.0, x + above / 2.0, even};
}

std::vector<CandidateFits> expected_estimates(const InputTokens& tokens, const std::vector<ScaleGroup>& groups,
                                              const std::vector<ScaleCandidate>& candidates, long double denominator,
                                              double estimate) {
  const TableView& vocabulary = tokens.vocabulary;
  const std::int64_t dim = vocabulary.cols();
  const Format& format = format_of(tokens.activation_format);
  const bool narrow = format.precision < format_of(FormatId::float32).precision;
  const Format& wide = format_of(narrow ? FormatId::float32 : FormatId::float64);
  const Table* known = tokens.known_encoding;
  // The layer holds c in float32 below float64 activations (PyTorch's opmath for float32, float16 and
  // bfloat16 tensors): sqrt(d) and its float32 rounding are then one hypothesis, and a candidate whose
  // held value an earlier one has (sqrt(d) = 32 in every format for d = 1024) is computed once.
  const auto held = [&](double value) { return held_scale(value, tokens.activation_format); };
  std::vector<std::size_t> first(candidates.size());
  for (std::size_t j = 0; j < candidates.size(); ++j) {
    first[j] = j;
    for (std::size_t k = 0; k < j && first[j] == j; ++k) {
      if (held(candidates[k].value) == held(candidates[j].value)) first[j] = k;
    }
  }
  std::vector<Sums> sums(2 * candidates.size());
  std::vector<Entry> base, entries;
  std::vector<double> embeddings, widen, w;
  for (const ScaleGroup& group : groups) {
    for (std::int64_t c = 0; c < dim; ++c) {
      Wide mean_e = 0.0L;
      for (const std::size_t k : group.members) mean_e += vocabulary.at(tokens.ids[k], c);
      mean_e = known != nullptr ? 0.0L : mean_e / static_cast<Wide>(group.members.size());
      const double known_pe = known != nullptr ? known->at(group.position - tokens.known_first, c) : 0.0;
      // What does not depend on the candidate: each token's embedding, output and rounding interval.
      base.clear();
      embeddings.clear();
      for (const std::size_t k : group.members) {
        const double e = vocabulary.at(tokens.ids[k], c);
        const double x = tokens.output.at(static_cast<std::int64_t>(k), c);
        const RoundingInterval interval = rounding_interval(x, format);
        base.push_back({static_cast<double>(e - mean_e), x, 0.0, 0.0, 0.0, interval.low, interval.high, interval.closed});
        embeddings.push_back(e);
      }
      for (std::size_t j = 0; j < candidates.size(); ++j) {
        if (first[j] != j) continue;
        const double value = held(candidates[j].value);
        for (int form = 0; form < 2; ++form) {
          entries = base;
          widen.clear();
          w.clear();
          Wide mean = 0.0L;
          for (std::size_t k = 0; k < entries.size(); ++k) {
            Entry& entry = entries[k];
            const double product = value * embeddings[k];  // exact below float64 activations (24 + 24 bits)
            entry.u = form == 1 ? round_to_format(product, format) : product;
            const double wide_product = round_to_format(product, wide);
            entry.u_alt = form == 1 ? round_to_format(wide_product, format) : wide_product;
            entry.slack = narrow ? 0.0 : 2.0 * ulp_in(2.0 * std::abs(product) + std::abs(entry.x), wide);
            widen.push_back(entry.slack);
            mean += static_cast<Wide>(entry.x) - entry.u;
          }
          // A known encoding: the layer's PE may be held unrounded, so it is within half a unit of a
          // (the larger spacing, above) of the convention's table rounded to a, and may have been
          // computed in float32: angle p w rounded (ulp_f32(p) / 2), w itself (p 2^-24 <= ulp_f32(p)),
          // sin or cos (1 ulp_f32(1) for a faithful libm): within 2 ulp_f32(p) + ulp_f32(1) more.
          Consistent window;
          if (known != nullptr) {
            const Format& float32 = format_of(FormatId::float32);
            const double position = std::max(1.0, std::abs(static_cast<double>(group.position)));
            const double half = ulp_in(known_pe, format) / 2.0 + 2.0 * ulp_in(position, float32) + ulp_in(1.0, float32);
            window.low = known_pe - half;
            window.high = known_pe + half;
          }
          double pe = known_pe;
          const Consistent exact = consistent(entries, widen, window);
          if (!exact.empty()) {
            // Every y_i = x_i, up to float64's own rounding for float32 and float64 activations.
            pe = exact.low == exact.high ? exact.low : exact.low / 2.0 + exact.high / 2.0;
            w = widen;
          } else {
            // The layer's intermediate roundings may explain what exact arithmetic cannot.
            for (std::size_t k = 0; k < entries.size(); ++k) {
              const Entry& entry = entries[k];
              const double add = narrow ? ulp_in(std::abs(entry.x) + std::abs(entry.u), wide) / 2.0 : 0.0;
              widen[k] = std::abs(entry.u_alt - entry.u) + add + entry.slack;
            }
            const Consistent rounded = consistent(entries, widen, window);
            if (!rounded.empty()) {
              pe = rounded.low / 2.0 + rounded.high / 2.0;
              w = widen;
            } else {
              // The hypothesis is false here: its disagreement counts in full.
              if (known == nullptr) pe = static_cast<double>(mean / static_cast<Wide>(entries.size()));
              w.assign(entries.size(), 0.0);
            }
          }
          add_column(entries, pe, w, format, sums[2 * j + static_cast<std::size_t>(form)]);
        }
      }
    }
  }
  const auto fit = [&](const Sums& s) {
    ScaleFit result;
    result.expected = estimate - static_cast<double>(s.mismatch / denominator);
    result.tolerance = static_cast<double>(s.bound / denominator);
    return result;
  };
  std::vector<CandidateFits> fits(candidates.size());
  for (std::size_t j = 0; j < candidates.size(); ++j) {
    fits[j] = {fit(sums[2 * first[j]]), fit(sums[2 * first[j] + 1])};
  }
  return fits;
}

}  // namespace pecheck::validate
