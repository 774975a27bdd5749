// rotary/relative-position: what makes RoPE work (RoFormer section 3.4.2):
// rotating q by p_m * theta and k by p_n * theta makes q_m . k_n a function
// of m - n alone. Checked on the subject's cache: the logit computed from the
// cache's rows m and n against the exact A^2 sum_i q_i^T R((n - m) theta_i) k_i,
// within the bound the cache's own error budget allows, and for a cache judged
// against a computation model the model's angle rounding (rotary_bounds.cpp).
#include <algorithm>
#include <cmath>
#include <map>

#include "pecheck/accuracy/budgets.hpp"
#include "pecheck/properties/generators.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "rotary_bounds.hpp"
#include "rotary_checks.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties::rotary {

namespace {

// The pair (q_a, q_b) of frequency i in the layout: rotate-half pairs
// components i and i + n, interleaved 2i and 2i + 1; the complex form
// multiplies (q_{2i} + i q_{2i+1}) by cos + i sin, the interleaved pairing.
std::pair<std::int64_t, std::int64_t> pair_components(RotaryLayout layout, std::int64_t n, std::int64_t i) {
  if (layout == RotaryLayout::rotate_half) return {i, i + n};
  return {2 * i, 2 * i + 1};
}

struct PositionLogit {
  std::int64_t m = 0;
  double ratio = 0.0;  // |logit - exact| / bound
};

}  // namespace

const std::vector<RotaryConvention>& swept_conventions() { return rotary_presets(); }

std::vector<RotaryConvention> conventions_for(const Subject& subject) {
  const SubjectCapabilities capabilities = subject.capabilities();
  if (capabilities.fixed_rotary_convention) return {*capabilities.fixed_rotary_convention};
  return swept_conventions();
}

std::vector<FormatId> formats_for(const Subject& subject, std::vector<FormatId> formats) {
  const SubjectCapabilities capabilities = subject.capabilities();
  if (capabilities.fixed_rotary_request) return {capabilities.fixed_rotary_request->format};
  return formats;
}

std::optional<Outcome> without_rotary_caches(const Subject& subject) {
  if (subject.capabilities().rotary_caches) return std::nullopt;
  Outcome outcome;
  outcome.verdict = Verdict::not_applicable;
  outcome.message = "the subject offers no rotary caches";
  return outcome;
}

Outcome relative_position(const Subject& subject, const RunConfig& config) {
  if (auto refused = without_rotary_caches(subject)) return *refused;
  Outcome outcome;
  const std::uint64_t seed = scaling_support::seed_of(config);
  outcome.seed = seed;
  // Positions m up to 2^14 (quick), 2^17, or 2^22 (full): past 256 a
  // bfloat16 position collides, past 2048 a float16 one; lags from 0 to 4096.
  const int top = config.quick ? 14 : config.full ? 22 : 17;
  const std::vector<std::int64_t> lags = {0, 1, 3, 17, 255, 4096};
  double worst_ratio = 0.0;
  std::string worst_text;
  // (octave e, position m): m near 2^e from position 0, or from the first row
  // a cache file holds and within its rows (then also its last row).
  const std::optional<RotaryCacheRequest> held = subject.capabilities().fixed_rotary_request;
  const std::int64_t first = held ? held->first_position : 0;
  std::vector<std::pair<int, std::int64_t>> positions;
  for (int e = 0; e <= top; ++e) {
    const std::int64_t step = e == 0 ? 0 : (std::int64_t{1} << e) - 1 + (e % 3);
    if (!held || step < held->rows) positions.push_back({e, first + step});
  }
  if (held && held->rows > 0 && positions.back().second != first + held->rows - 1) {
    positions.push_back({std::min(top + 1, static_cast<int>(std::ceil(std::log2(static_cast<double>(held->rows))))),
                         first + held->rows - 1});
  }
  for (const RotaryConvention& convention : conventions_for(subject)) {
    const RotaryDerived derived = rotary_derived(convention);
    const std::int64_t n = derived.frequencies;
    const double factor = derived.attention_factor;
    for (FormatId format : formats_for(subject, {FormatId::float32, FormatId::bfloat16})) {
      const Format& f = format_of(format);
      const RotaryCacheBounds bounds(convention, format, accuracy::ulp_budget(accuracy::budget_kind_of(subject.name()), format).max_ulp,
                                     subject.capabilities().rotary_model);
      const Table q = gen::gaussian_table(scaling_support::stream_seed(seed, 500), 1, 2 * n, 1.0, FormatId::float64);
      const Table k = gen::gaussian_table(scaling_support::stream_seed(seed, 501), 1, 2 * n, 1.0, FormatId::float64);
      std::vector<double> pair_norms;  // |q_i| |k_i|
      double norms = 0.0;              // their sum
      for (std::int64_t i = 0; i < n; ++i) {
        const auto [a, b] = pair_components(convention.layout, n, i);
        pair_norms.push_back(std::hypot(q.at(0, a), q.at(0, b)) * std::hypot(k.at(0, a), k.at(0, b)));
        norms += pair_norms.back();
      }
      // Each pair within bounds.logit_pair (rotary_bounds.cpp) times |q_i||k_i|.
      // The logits are summed in double from exact products of float values:
      // (8n + 16) 2^-53 amplitude^2 sum |q_i||k_i| covers the rounding of both
      // sums and of the exact value's double terms.
      const auto bound_at = [&](std::int64_t m, std::int64_t second) {
        double sum = static_cast<double>(8 * n + 16) * 0x1p-53 * bounds.amplitude() * bounds.amplitude() * norms;
        for (std::int64_t i = 0; i < n; ++i) {
          sum += bounds.logit_pair(i, m, second) * pair_norms[static_cast<std::size_t>(i)];
        }
        return sum * (1.0 + 0x1p-50);  // the n additions in double, each within 2^-53 of a positive sum
      };
      std::map<int, double> by_octave;
      for (const auto& [e, m] : positions) {
        for (std::int64_t lag : lags) {
          const std::int64_t second = m - lag;
          if (second < first) continue;
          const RotaryCache at_m = subject.rotary_cache(convention, {m, 1, format});
          const RotaryCache at_n = subject.rotary_cache(convention, {second, 1, format});
          double logit = 0.0;
          double exact = 0.0;
          for (std::int64_t i = 0; i < n; ++i) {
            const auto [a, b] = pair_components(convention.layout, n, i);
            const std::int64_t column = convention.layout == RotaryLayout::interleaved ? 2 * i : i;
            const double cm = at_m.cos.at(0, column), sm = at_m.sin.at(0, column);
            const double cn = at_n.cos.at(0, column), sn = at_n.sin.at(0, column);
            // HF's q * cos + rotate_half(q) * sin: (q_a c - q_b s, q_b c + q_a s).
            const double qa = q.at(0, a) * cm - q.at(0, b) * sm, qb = q.at(0, b) * cm + q.at(0, a) * sm;
            const double ka = k.at(0, a) * cn - k.at(0, b) * sn, kb = k.at(0, b) * cn + k.at(0, a) * sn;
            logit += qa * ka + qb * kb;
            // q^T R(phi) k with phi = (n - m) theta = -lag theta: cos even, sin odd.
            const DoubleDouble c = reference::rotary_exact_value(convention, lag, i, true, std::nullopt);
            const DoubleDouble s = reference::rotary_exact_value(convention, lag, i, false, std::nullopt);
            const double same = q.at(0, a) * k.at(0, a) + q.at(0, b) * k.at(0, b);
            const double cross = q.at(0, b) * k.at(0, a) - q.at(0, a) * k.at(0, b);
            exact += factor * ((c.hi + c.lo) * same - (s.hi + s.lo) * cross);
          }
          const double bound = bound_at(m, second);
          // A NaN logit (a cache entry NaN or infinite) is the worst miss, not none.
          const double measured = std::fabs(logit - exact) / bound;
          const double ratio = std::isnan(measured) ? INFINITY : measured;
          by_octave[e] = std::max(by_octave[e], ratio);
          ++outcome.cases;
          if (ratio > worst_ratio) {
            worst_ratio = ratio;
            worst_text = convention.name + " " + std::string(f.name) + ": q_m . k_n at m = " + std::to_string(m) +
                         ", n = " + std::to_string(second) + " is " + scaling_support::format_number(logit) +
                         ", exact " + scaling_support::format_number(exact) + " (|error| " +
                         scaling_support::format_number(std::fabs(logit - exact)) + ", bound " +
                         scaling_support::format_number(bound) + ", " + bounds.name() + ")";
          }
        }
      }
      Series series;
      series.name = convention.name + " " + std::string(f.name);
      series.x_label = "position m";
      series.y_label = "max |q_m.k_n - exact| / bound";
      for (const auto& [e, ratio] : by_octave) {
        series.x.push_back(std::ldexp(1.0, e));
        series.y.push_back(ratio);
      }
      outcome.series.push_back(series);
    }
  }
  outcome.statistics.push_back(scaling_support::statistic(key_of(Quantity::rotary_relative_position_miss_ratio),
                                                          "largest |q_m.k_n - exact| / bound", worst_ratio, std::nullopt, 1.0,
                                                          worst_text));
  if (worst_ratio > 1.0) {
    outcome.verdict = Verdict::failed;
    outcome.message = "q_m . k_n is not the function of m - n it must be: " + worst_text;
  } else {
    outcome.message =
        "q_m . k_n equals its exact value, a function of m - n alone, within its bound at every "
        "position and lag tried; worst: " +
        worst_text;
  }
  return outcome;
}

const CheckDefinition relative_position_check{
    .id = check_ids::rotary_relative_position,
    .family = Family::rotary,
    .short_claim = "scoreDependsOnRelativePositionAlone",
    .claim =
        "q_m . k_n computed from the subject's rotary cache equals the exact A^2 sum_i q_i^T R((n - m) theta_i) k_i, "
        "a function of m - n alone, within the bound the cache's ULP budget allows (for a cache judged against a "
        "computation model, with that model's angle rounding)",
    .source = "RoFormer (Su et al. 2021), section 3.4.2; the report's question (c), rotating",
    .kind = CheckKind::measurement,
    .catches = {faults::rotary_bfloat16_positions, faults::rotary_float16_computation, faults::rotary_bfloat16_inv_freq,
                faults::rotary_float16_cache, faults::rotary_wrong_base, faults::rotary_scaling_ignored,
                faults::rotary_cos_sin_swapped, faults::rotary_attention_factor_missing,
                faults::rotary_attention_factor_twice},
    .run = relative_position,
};

}  // namespace pecheck::properties::rotary
