// The input-layer statistics of an embedding table (vocabulary_statistics.hpp)
// on drawn N(0, 1/d) tables, scaled by the subject's sqrt(d) and set against
// the subject's encoding: the same function `pecheck validate --vocabulary`
// applies to a user's trained table, so the report shows what an
// initialised table gives and validate what a trained one does. Mean and
// spread over independent tables, the isotropic closed forms beside them
// (with alpha = s^2 sigma^2, the drawn tables' expected mean square). An
// observation: no bound is asserted.
#include <cmath>
#include <string>
#include <vector>

#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/generators.hpp"
#include "pecheck/properties/vocabulary_statistics.hpp"
#include "scaling_checks.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties::scaling {

namespace {

constexpr std::int64_t kDim = 512;
constexpr std::int64_t kVocabulary = 1024;
constexpr std::int64_t kPositions = 512;

Outcome run_vocabulary_statistics(const Subject& subject, const RunConfig& config) {
  if (auto not_applicable = scaling_support::require_embedding_operations(subject)) return *not_applicable;
  Outcome outcome;
  const FormatId id = FormatId::float32;
  const std::string f(format_of(id).name);
  const std::uint64_t seed = scaling_support::seed_of(config);
  outcome.seed = seed;
  const auto draws = static_cast<int>(scaling_support::sized(config, 5, 30, 100));
  const double sigma = 1.0 / std::sqrt(static_cast<double>(kDim));
  const double s = subject.embedding_scale(kDim, id);
  const EncodingSummary encoding =
      summarise_encoding(subject.encoding_table(scaling_support::paper_convention(), {kPositions, kDim, 0}, id));
  std::vector<double> energy, overlap, token, cross, position;
  for (int r = 0; r < draws; ++r) {
    const Table e = gen::gaussian_table(scaling_support::stream_seed(seed, 50000 + static_cast<std::uint64_t>(r)),
                                        kVocabulary, kDim, sigma, id);
    const VocabularyStatistics v = vocabulary_statistics(e, encoding, s);
    energy.push_back(v.energy_ratio);
    overlap.push_back(v.subspace_share);
    token.push_back(v.token_token_share);
    cross.push_back(v.cross_share);
    position.push_back(v.position_position_share);
    outcome.cases += kVocabulary;
  }
  // The closed forms at the drawn tables' expected alpha = s^2 sigma^2.
  VocabularyStatistics expected;
  expected.component_mean_square = s * s * sigma * sigma;
  expected.subspace_dimension = encoding.subspace_dimension;
  expected.dim = kDim;
  const auto key = [&](Quantity quantity) {
    StatisticKey k = at_width(quantity, id, kDim);
    k.positions = kPositions;
    k.vocabulary = kVocabulary;
    return k;
  };
  const std::string at = ", N(0, 1/d) tables scaled by sqrt(d), d = " + std::to_string(kDim) +
                         ", V = " + std::to_string(kVocabulary) + ", positions 0.." + std::to_string(kPositions - 1);
  const auto add = [&](Quantity quantity, const std::string& name, const std::vector<double>& values, double closed) {
    outcome.statistics.push_back(scaling_support::drawn(key(quantity), f + ": " + name + at, values, closed));
  };
  add(Quantity::vocabulary_energy_ratio, "energy ratio mean ||s e||^2 / mean ||PE||^2", energy,
      expected.isotropic_energy_ratio());
  add(Quantity::vocabulary_subspace_share, "share of the table's energy in the encoding's 99% subspace", overlap,
      expected.isotropic_subspace_share());
  add(Quantity::vocabulary_token_token_share, "token-token share of the first-layer logit variance", token,
      expected.isotropic_token_token_share());
  add(Quantity::vocabulary_cross_share, "token x position share of the first-layer logit variance", cross,
      expected.isotropic_cross_share());
  add(Quantity::vocabulary_position_position_share, "position-position share of the first-layer logit variance",
      position, expected.isotropic_position_position_share());
  outcome.message = "over " + std::to_string(draws) +
                    " drawn tables, the statistics `pecheck validate --vocabulary` prints for a trained table";
  return outcome;
}

}  // namespace

const CheckDefinition vocabulary_statistics_check{
    .id = check_ids::vocabulary_statistics,
    .family = Family::scaling_variance,
    .short_claim = "vocabularyStatisticsAreShown",
    .claim =
        "For an embedding table scaled by sqrt(d), against the encoding of positions 0 to P-1: the energy ratio to "
        "the encoding, the share of its energy in the encoding's 99% subspace, and the token-token, token x "
        "position and position-position shares of the first-layer logit variance at initialisation; the same "
        "statistics `pecheck validate --vocabulary` prints for a user's table. Mean and spread over drawn "
        "N(0, 1/d) tables, the isotropic closed forms beside them.",
    .source = "issue 13 item 8 (the input-layer statistics for a user's own trained table)",
    .kind = CheckKind::measurement,
    // Drawn tables measured against closed forms nothing asserts: no fault can fail it.
    .catches = {},
    .run = run_vocabulary_statistics,
};

}  // namespace pecheck::properties::scaling
