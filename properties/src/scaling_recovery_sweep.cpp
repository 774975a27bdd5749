// Token and position recovery against the scale s, from 1 to d, with a
// realistic vocabulary: V = 4096 tokens, d = 512, positions 0..511, the sums
// x = round(round(s E[t]) + PE[p]) as the subject adds them in float32.
// Three decoders (joint_decoder.hpp): the nearest row of s*E (naive token),
// the nearest row of PE (naive position) and the nearest sum s*E[t] + PE[p]
// over all (t, p) (joint). The naive rates are observations; the joint rate
// is asserted.
//
// Why the joint decoder recovers every (token, position) of a correct
// subject at every scale here. Write x = s E_t + PE_p + r, r the float32
// rounding, |r| <= 2u |s E_t + PE_p| with u = 2^-24 (two roundings). A pair
// (t', p') wins only if ||w + r|| <= ||r||, w = s(E_t - E_t') + (PE_p - PE_p'),
// so only if ||w|| <= 2 ||r||. At s <= 512, ||s E_t|| <= 512 * 1.3 but for
// probability e^-57 (Laurent-Massart) and ||PE_p|| = 16, so 2 ||r|| <= 1e-4.
// - t' = t: ||w|| = ||PE_p - PE_p'||, which the float32 table keeps well
//   above 1e-4 for distinct positions below 512 (the nearest pair of rows is
//   at distance about 1, encoding-bounds/distinct-positions holds them apart).
// - t' != t: s(E_t - E_t') ~ N(0, (2 s^2 / d) I) at s >= 1, and the ball of
//   radius eps = 1e-4 around any centre holds at most the probability of the
//   centred ball (Anderson's inequality), P(chi-square(d) <= eps^2 d / 2)
//   <= (e eps^2 / 2)^(d/2) < 10^-1000.
// So any query the joint decoder misses is a fault in the sum (a scale left
// out, divided, applied twice, the token dropped) or in the encoding (rows
// that collide), not chance.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/generators.hpp"
#include "pecheck/properties/joint_decoder.hpp"
#include "scaling_checks.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties::scaling {

namespace {

constexpr std::int64_t kDim = 512;
constexpr std::int64_t kVocabulary = 4096;
constexpr std::int64_t kPositions = 512;
// s = d^a for a = 0, 1/8, ..., 1: s = 1 to s = d, s = sqrt(d) at a = 1/2.
constexpr int kSteps = 8;

struct Rates {
  std::vector<double> token_naive, position_naive, token_joint, position_joint, pairs_scored;
};

void add_draw(Rates& rates, const std::vector<Decoded>& decoded, const std::vector<std::int64_t>& ids,
              const std::vector<std::int64_t>& rows) {
  double tn = 0, pn = 0, tj = 0, pj = 0, pairs = 0;
  for (std::size_t j = 0; j < decoded.size(); ++j) {
    tn += decoded[j].naive_token == ids[j];
    pn += decoded[j].naive_position == rows[j];
    tj += decoded[j].joint_token == ids[j];
    pj += decoded[j].joint_position == rows[j];
    pairs += static_cast<double>(decoded[j].pairs_evaluated);
  }
  const auto n = static_cast<double>(decoded.size());
  rates.token_naive.push_back(tn / n);
  rates.position_naive.push_back(pn / n);
  rates.token_joint.push_back(tj / n);
  rates.position_joint.push_back(pj / n);
  rates.pairs_scored.push_back(pairs / n / static_cast<double>(kVocabulary * kPositions));
}

double mean(const std::vector<double>& values) {
  double sum = 0.0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

Outcome run_recovery_sweep(const Subject& subject, const RunConfig& config) {
  if (auto not_applicable = scaling_support::require_embedding_operations(subject)) return *not_applicable;
  const FormatId id = FormatId::float32;
  Outcome outcome;
  const std::uint64_t seed = scaling_support::seed_of(config);
  outcome.seed = seed;
  const auto draws = static_cast<int>(scaling_support::sized(config, 2, 4, 10));
  const std::int64_t queries = scaling_support::sized(config, 32, 128, 512);
  const Format& format = format_of(id);
  const double sigma = 1.0 / std::sqrt(static_cast<double>(kDim));
  const Table encoding = subject.encoding_table(scaling_support::paper_convention(), {kPositions, kDim, 0}, id);
  const std::vector<double> pe = table_doubles(encoding);

  std::vector<double> scales;
  for (int k = 0; k <= kSteps; ++k) {
    const double a = static_cast<double>(k) / kSteps;
    scales.push_back(2 * k == kSteps ? subject.embedding_scale(kDim, id)
                                     : round_to_format(std::pow(static_cast<double>(kDim), a), format));
  }
  std::vector<Rates> by_scale(scales.size());
  for (int r = 0; r < draws; ++r) {
    const std::uint64_t stream = 20000 + 10000 * static_cast<std::uint64_t>(r);
    const Table embeddings =
        gen::gaussian_table(scaling_support::stream_seed(seed, stream), kVocabulary, kDim, sigma, id);
    const DecoderTables tables = make_decoder_tables(table_doubles(embeddings), kVocabulary, pe, kPositions, kDim);
    // Token and position uniform: a 64-bit hash modulo 4096 or 512 (powers of two, no bias).
    std::vector<std::int64_t> ids(static_cast<std::size_t>(queries)), rows(ids.size());
    for (std::size_t j = 0; j < ids.size(); ++j) {
      ids[j] = static_cast<std::int64_t>(scaling_support::stream_seed(seed, stream + 2 * j + 1) % kVocabulary);
      rows[j] = static_cast<std::int64_t>(scaling_support::stream_seed(seed, stream + 2 * j + 2) % kPositions);
    }
    for (std::size_t k = 0; k < scales.size(); ++k) {
      const Table x = subject.add_embeddings({&embeddings, &encoding, ids, rows, scales[k]}, id);
      add_draw(by_scale[k], decode(tables, table_doubles(x), scales[k]), ids, rows);
      outcome.cases += queries;
    }
  }

  const std::string x_label =
      "s (the embedding scale; sqrt(d) = " + scaling_support::format_number(std::sqrt(static_cast<double>(kDim))) + ")";
  Series token_naive{"token, naive (nearest row of s*E)", x_label, "recovered (mean over draws)", {}, {}};
  Series position_naive{"position, naive (nearest row of PE)", x_label, token_naive.y_label, {}, {}};
  Series token_joint{"token, joint (nearest s*E[t] + PE[p])", x_label, token_naive.y_label, {}, {}};
  Series position_joint{"position, joint", x_label, token_naive.y_label, {}, {}};
  const std::string where = ", d = " + std::to_string(kDim) + ", V = " + std::to_string(kVocabulary) +
                            ", P = " + std::to_string(kPositions) + ", s = d^";
  for (std::size_t k = 0; k < scales.size(); ++k) {
    const double a = static_cast<double>(k) / kSteps;
    const std::string at =
        where + scaling_support::format_number(a) + " = " + scaling_support::format_number(scales[k]);
    const auto key = [&](Quantity quantity) {
      StatisticKey filed = at_width(quantity, id, kDim);
      filed.positions = kPositions;
      filed.scale_exponent = a;
      filed.vocabulary = kVocabulary;
      return filed;
    };
    const Rates& rates = by_scale[k];
    outcome.statistics.push_back(scaling_support::drawn(
        key(Quantity::recovered_token_naive), "tokens recovered, naive decoder" + at, rates.token_naive, std::nullopt));
    outcome.statistics.push_back(scaling_support::drawn(key(Quantity::recovered_position_naive),
                                                        "positions recovered, naive decoder" + at, rates.position_naive,
                                                        std::nullopt));
    outcome.statistics.push_back(scaling_support::drawn(key(Quantity::joint_pairs_scored),
                                                        "share of the V x P pairs the joint search scored" + at,
                                                        rates.pairs_scored, std::nullopt));
    // The least over draws is held: one missed query in any draw is a fault (the bound above).
    const auto least = [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); };
    const std::string why =
        "exact decoder on float32 sums: a miss has probability < 10^-1000 (scaling_recovery_sweep.cpp)";
    scaling_support::hold_within(outcome, key(Quantity::recovered_token_joint),
                                 "tokens recovered, joint decoder, least over draws" + at, least(rates.token_joint),
                                 {1.0, 1.0}, why);
    scaling_support::hold_within(outcome, key(Quantity::recovered_position_joint),
                                 "positions recovered, joint decoder, least over draws" + at,
                                 least(rates.position_joint), {1.0, 1.0}, why);
    token_naive.x.push_back(scales[k]);
    token_naive.y.push_back(mean(rates.token_naive));
    position_naive.x.push_back(scales[k]);
    position_naive.y.push_back(mean(rates.position_naive));
    token_joint.x.push_back(scales[k]);
    token_joint.y.push_back(mean(rates.token_joint));
    position_joint.x.push_back(scales[k]);
    position_joint.y.push_back(mean(rates.position_joint));
  }
  outcome.series = {token_naive, position_naive, token_joint, position_joint};
  if (outcome.verdict == Verdict::held) {
    outcome.message = "over " + std::to_string(draws) + " draws of E with " + std::to_string(queries) +
                      " queries each, the joint decoder recovered every token and position at every scale; the "
                      "naive decoders trade one for the other as s grows";
  }
  return outcome;
}

}  // namespace

const CheckDefinition recovery_sweep_check{
    .id = check_ids::recovery_sweep,
    .family = Family::scaling_variance,
    .short_claim = "tokenAndPositionAreRecoveredAcrossScales",
    .claim =
        "From s = 1 to s = d, the (token, position) pair nearest to round(s*E[t] + PE[p]) is the true one for "
        "every query (V = 4096, d = 512, positions 0..511, float32); the series show how the naive decoders, "
        "nearest token row and nearest position row, fare against s.",
    .source = "issue 13 item 3 (recovery against the scale with a naive and a joint decoder, realistic vocabulary)",
    .kind = CheckKind::measurement,
    .catches = {faults::scale_divided, faults::scale_missing, faults::scale_applied_twice, faults::embedding_dropped},
    .run = run_recovery_sweep,
};

}  // namespace pecheck::properties::scaling
