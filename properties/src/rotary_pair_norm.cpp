// rotary/pair-norm: a rotation keeps lengths, so each pair of a cache has
// cos^2 + sin^2 = A^2 (A the attention factor, 1 without YaRN or LongRoPE):
// the check that catches an attention factor missing, applied twice, or
// values carried in a narrower format than the cache claims.
#include <cmath>

#include "pecheck/accuracy/budgets.hpp"
#include "rotary_bounds.hpp"
#include "rotary_checks.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties::rotary {

namespace {

Outcome pair_norm(const Subject& subject, const RunConfig& config) {
  if (auto refused = without_rotary_caches(subject)) return *refused;
  Outcome outcome;
  // Rows spread over [0, 2^24): first rows, then one block far out; a cache file: the rows it holds.
  const std::optional<RotaryCacheRequest> held = subject.capabilities().fixed_rotary_request;
  const std::int64_t rows = held ? held->rows : config.quick ? 64 : config.full ? 4096 : 512;
  const std::vector<std::int64_t> blocks =
      held ? std::vector<std::int64_t>{held->first_position}
           : std::vector<std::int64_t>{0, (std::int64_t{1} << 23) + 12345};
  double worst_ratio = 0.0;
  std::string worst_text;
  for (const RotaryConvention& convention : conventions_for(subject)) {
    const RotaryDerived derived = rotary_derived(convention);
    const double factor = derived.attention_factor;
    for (FormatId format : formats_for(subject, {FormatId::float32, FormatId::float16, FormatId::bfloat16})) {
      const Format& f = format_of(format);
      // rotary_bounds.cpp derives it: 2 sqrt(2) A delta + 2 delta^2 for entries within delta,
      // and A' against a computation model (its factor rounded) adds |A'^2 - A^2|.
      const RotaryCacheBounds bounds(convention, format, accuracy::ulp_budget(accuracy::budget_kind_of(subject.name()), format).max_ulp,
                                     subject.capabilities().rotary_model);
      const double bound = bounds.pair_norm();
      for (std::int64_t first : blocks) {
        const RotaryCache cache = subject.rotary_cache(convention, {first, rows, format});
        for (std::int64_t r = 0; r < rows; ++r) {
          for (std::int64_t c = 0; c < cache.cos.cols; ++c) {
            const double x = cache.cos.at(r, c), y = cache.sin.at(r, c);
            const double ratio = std::fabs(x * x + y * y - factor * factor) / bound;
            ++outcome.cases;
            if (!(ratio <= worst_ratio)) {
              worst_ratio = std::isnan(ratio) ? INFINITY : ratio;
              worst_text = convention.name + " " + std::string(f.name) + ", position " + std::to_string(first + r) +
                           ", column " + std::to_string(c) +
                           ": cos^2 + sin^2 = " + scaling_support::format_number(x * x + y * y) +
                           ", A^2 = " + scaling_support::format_number(factor * factor) + " (bound " +
                           scaling_support::format_number(bound) + ", " + bounds.name() + ")";
            }
          }
        }
      }
    }
  }
  outcome.statistics.push_back(
      scaling_support::statistic(key_of(Quantity::rotary_pair_norm_miss_ratio), "largest |cos^2 + sin^2 - A^2| / bound", worst_ratio, std::nullopt, 1.0, worst_text));
  outcome.verdict = worst_ratio > 1.0 ? Verdict::failed : Verdict::held;
  outcome.message = (worst_ratio > 1.0 ? "a pair's norm is not the attention factor: " : "every pair's norm is the "
                                                                                          "attention factor within its "
                                                                                          "bound; worst: ") +
                    worst_text;
  return outcome;
}

}  // namespace

const CheckDefinition pair_norm_check{
    .id = check_ids::rotary_pair_norm,
    .family = Family::rotary,
    .short_claim = "everyPairHasTheAttentionFactorAsNorm",
    .claim =
        "every pair of the subject's rotary cache has cos^2 + sin^2 = A^2 (the attention factor squared) within the "
        "bound the cache's ULP budget allows",
    .source = "RoFormer section 3.2 (a rotation keeps lengths); transformers' attention_scaling (YaRN, LongRoPE)",
    .kind = CheckKind::measurement,
    .catches = {faults::rotary_float16_cache, faults::rotary_attention_factor_missing,
                faults::rotary_attention_factor_twice},
    .run = pair_norm,
};

}  // namespace pecheck::properties::rotary
