#include "input_layer_expected.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pecheck::validate {

// Why the estimate is predicted rather than given a noise tolerance. With
// e_c,i = E_i - mean_G(E) (sum_G e_c = 0) the estimate is
//   s_hat = sum_i e_c,i x_i / S,   S = sum e_c,i^2.
// Under the hypothesis "the layer computes c in form F", each output value is
//   x_i = round_a(u_i + v),   u_i = c E_i (fused) or round_a(c E_i) (F = product rounded first),
// v = PE[p] in whatever format the layer held it. u_i is known exactly. The
// rounding x_i - u_i - v is NOT independent noise: E, c E and PE lie on the
// lattices of narrow formats, so small |c E_i| are absorbed by PE's spacing
// (x_i = PE, error -c E_i), an error correlated with e_c,i. Measured with the
// old independent-noise model (6 sigma): a correct bfloat16 layer at d = 1024,
// 64 sequences gave s_hat = 31.99978 against a tolerance of 0.000206.
// So, for each candidate and form, the layer's own roundings are computed:
//   y_i = round_a(u_i + PE_hat),   expected = s_hat - sum e_c,i (x_i - y_i) / S,
// and the hypothesis fits when |s_hat - expected| = |sum e_c (x_i - y_i)| / S
// is within what is genuinely unknown:
//  - the intermediate roundings of the layer's arithmetic: c E and the add
//    done in float32 before rounding to a narrower a (float64 for float32 and
//    float64 activations), each within half a unit of that format of the
//    larger magnitude: together w_i = ulp_wide(2 |c E_i| + |x_i|) (|u_i + v|
//    <= |x_i| + ulp_a(x_i)/2 and |v| <= |x_i| + |u_i| + ulp_a(x_i)/2); in the
//    product-rounded form also the double rounding round_a(round_f32(c E_i))
//    against round_a(c E_i), which PyTorch's float32 opmath does;
//  - PE itself:
//    * per group (several sequences): every value v with round_a(u_i + v +
//      [-w_i, w_i]) containing x_i for all i of the group is possible, an
//      interval I (the intersection of x_i's rounding intervals less u_i,
//      widened by w_i). PE_hat is the group's mean of x_i - u_i moved into I.
//      If the hypothesis holds, the true v is in I, so t_i = u_i + PE_hat is
//      within w_i of x_i's rounding interval, and x_i lies between
//      round_a(t_i - w_i) and round_a(t_i + w_i). Entries where those two
//      differ are the only ones that may disagree, by at most their span:
//        |s_hat - expected| <= sum |e_c,i| (round_a(t_i + w_i) - round_a(t_i - w_i)) / S,
//      a bound, not a probability. Where I is empty the hypothesis is false at
//      that position and column, and its disagreement counts in full.
//    * against a known encoding (one sequence and a given convention):
//      PE_hat is the convention's table rounded to a; the layer's PE may be
//      held unrounded (float32), so it is within ulp_a(PE_hat)/2 of it, which
//      is added to w_i. The bound above holds; where it is wide (every small
//      c E_i is then ambiguous) the disagreements are also bounded in
//      probability: the sign of x_i - y_i is that of the layer's v - PE_hat,
//      a function of the position and column alone, so independent of the
//      token's e_c,i, and each term is at most its span in size:
//        sigma^2 <= sum e_c,i^2 span_i^2 / S^2,   tolerance = min(bound, 6 sigma)
//      (P(|Z| > 6) = 2.0e-9 for the sum of many such terms).
// The summation floor of the estimate (input_layer_scale.cpp) is added.
// A consequence: when every position's interval holds for two candidates, the
// data cannot tell them apart, and both fit (the diagnosis then says the scale
// is undecided).
namespace {

using Wide = long double;
constexpr double sigmas = 6.0;

struct Entry {
  double e_c;  // the token's centred embedding value
  double x;    // its output value
  double u;    // the known part: c E or round_a(c E)
  double w;    // the unknown perturbation allowed before the final rounding
};

struct Sums {
  Wide mismatch = 0.0L, bound = 0.0L, variance = 0.0L;
};

// The entries' disagreement with y_i = round_a(u_i + pe) and their ambiguity.
void add_column(const std::vector<Entry>& entries, double pe, const Format& format, Sums& sums) {
  for (const Entry& entry : entries) {
    const double t = entry.u + pe;
    const double y = round_to_format(t, format);
    sums.mismatch += static_cast<Wide>(entry.e_c) * (entry.x - y);
    const double span = round_to_format(t + entry.w, format) - round_to_format(t - entry.w, format);
    if (span > 0.0) {
      sums.bound += std::abs(static_cast<Wide>(entry.e_c)) * span;
      sums.variance += static_cast<Wide>(entry.e_c) * entry.e_c * span * span;
    }
  }
}

// The group's estimate of PE: the mean of x_i - u_i, moved into the interval
// of values consistent with every token (when there is one).
double group_encoding(const std::vector<Entry>& entries, const Format& format) {
  Wide mean = 0.0L;
  double low = -std::numeric_limits<double>::infinity(), high = std::numeric_limits<double>::infinity();
  for (const Entry& entry : entries) {
    mean += static_cast<Wide>(entry.x) - entry.u;
    const auto [lo, hi] = rounding_interval(entry.x, format);
    low = std::max(low, lo - entry.u - entry.w);
    high = std::min(high, hi - entry.u + entry.w);
  }
  const double estimate = static_cast<double>(mean / static_cast<Wide>(entries.size()));
  return low <= high ? std::clamp(estimate, low, high) : estimate;
}

}  // namespace

std::pair<double, double> rounding_interval(double x, const Format& format) {
  const double magnitude = std::abs(x);
  const double above = ulp_in(magnitude, format);
  const bool binade_start = magnitude > 0.0 && std::ilogb(magnitude) > format.min_exponent &&
                            std::ldexp(1.0, std::ilogb(magnitude)) == magnitude;
  const double below = binade_start ? above / 2.0 : above;  // toward zero
  return x < 0.0 ? std::pair{x - above / 2.0, x + below / 2.0} : std::pair{x - below / 2.0, x + above / 2.0};
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
  // A candidate whose value an earlier one has (sqrt(d) = 32 in every format for d = 1024) is computed once.
  std::vector<std::size_t> first(candidates.size());
  for (std::size_t j = 0; j < candidates.size(); ++j) {
    first[j] = j;
    for (std::size_t k = 0; k < j; ++k) {
      if (candidates[k].value == candidates[j].value) {
        first[j] = k;
        break;
      }
    }
  }
  std::vector<Sums> sums(2 * candidates.size());
  std::vector<Entry> entries;
  for (const ScaleGroup& group : groups) {
    for (std::int64_t c = 0; c < dim; ++c) {
      Wide mean_e = 0.0L;
      for (const std::size_t k : group.members) mean_e += vocabulary.at(tokens.ids[k], c);
      mean_e = known != nullptr ? 0.0L : mean_e / static_cast<Wide>(group.members.size());
      const double known_pe = known != nullptr ? known->at(group.position - tokens.known_first, c) : 0.0;
      for (std::size_t j = 0; j < candidates.size(); ++j) {
        if (first[j] != j) continue;
        for (int form = 0; form < 2; ++form) {
          entries.clear();
          for (const std::size_t k : group.members) {
            const double e = vocabulary.at(tokens.ids[k], c);
            const double x = tokens.output.at(static_cast<std::int64_t>(k), c);
            const double product = candidates[j].value * e;
            const double u = form == 1 ? round_to_format(product, format) : product;
            double w = ulp_in(2.0 * std::abs(product) + std::abs(x), wide);
            if (form == 1 && narrow) w += std::abs(round_to_format(round_to_format(product, wide), format) - u);
            if (known != nullptr) w += ulp_in(known_pe, format) / 2.0;
            entries.push_back({static_cast<double>(e - mean_e), x, u, w});
          }
          const double pe = known != nullptr ? known_pe : group_encoding(entries, format);
          add_column(entries, pe, format, sums[2 * j + static_cast<std::size_t>(form)]);
        }
      }
    }
  }
  const auto fit = [&](const Sums& s) {
    ScaleFit result;
    result.expected = estimate - static_cast<double>(s.mismatch / denominator);
    const Wide spread = known != nullptr ? std::min(s.bound, sigmas * std::sqrt(s.variance)) : s.bound;
    result.tolerance = static_cast<double>(spread / denominator);
    return result;
  };
  std::vector<CandidateFits> fits(candidates.size());
  for (std::size_t j = 0; j < candidates.size(); ++j) {
    fits[j] = {fit(sums[2 * first[j]]), fit(sums[2 * first[j] + 1])};
  }
  return fits;
}

}  // namespace pecheck::validate
