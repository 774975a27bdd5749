// Recoverability: how often the token can be read back from the input layer's
// x = round(round(s E[t]) + PE[p]), as a function of the scale s = d^a and the
// storage format. This is the "the encoding overwhelms the embedding"
// hypothesis of the scaling question, measured.
//
// Two decoders, both the nearest row of the subject's scaled table S = round(s E):
// - position unknown: nearest row to x itself (the encoding is noise to it);
// - position known: nearest row to x - PE[p], which only rounding can spoil
//   (what the storage format loses when a small embedding meets a large encoding).
//
// Why every token is recovered at s = sqrt(d) (the asserted point), d = 512,
// sigma = d^-0.5, so s^2 sigma^2 = 1. Write S_t = s e_t + delta_t (the rounding
// of the stored, scaled row) and x = S_t + PE_p + r (the rounding of the sum).
// A competitor t' wins only if |w'|^2 + 2 <w', PE_p + r> <= 0, w' = S_t - S_t'
// = w + delta_t - delta_t', w = s(e_t - e_t') ~ N(0, 2 I). Three events:
// - X = |w|^2 / 2 ~ chi-square(d): P(X <= 0.47 d) <= (0.47 e^0.53)^(d/2) = e^-57.6
//   (Chernoff), so |w| >= 21.94;
// - |S_t|^2 <= 2d = 1024 but for probability e^-57 (Laurent-Massart, t = 57), so
//   in bfloat16 (u = 2^-8, the worst format) |delta_t - delta_t'| <= 0.5 and
//   |r| <= 2u (32 + |PE_p| = 16) <= 0.4;
// - then |w'| >= 21.44 and a win needs <w, PE_p> <= -(|w'|^2/2 - 0.4 |w'|) + 0.5 |PE_p|
//   <= -213.3, while <w, PE_p> ~ N(0, 2 |PE_p|^2) = N(0, 512): probability below
//   e^-(213.3^2 / 1024) = e^-44.4.
// One (query, competitor) pair fails with probability < 10^-19; over at most
// 30 draws x 1024 queries x 127 competitors x 3 formats, < 10^-12, far below
// the 10^-9 every statistical check here is held to.
#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/generators.hpp"
#include "nearest_row.hpp"
#include "scaling_checks.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties::scaling {

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The bound above is worked out for d = 512 and 128 tokens.
constexpr std::int64_t kDim = 512;
constexpr std::int64_t kVocabulary = 128;
constexpr std::int64_t kPositions = 512;

// Keys carry d, P and V, which the report's sentences read.
StatisticKey sized_key(Quantity quantity, FormatId format) {
  StatisticKey key = at_width(quantity, format, kDim);
  key.positions = kPositions;
  key.vocabulary = kVocabulary;
  return key;
}

RowMatrix as_matrix(const Table& table) {
  const std::vector<double> values = table_doubles(table);
  return Eigen::Map<const RowMatrix>(values.data(), table.rows, table.cols);
}

struct ScalePoint {
  double exponent = 0.0;   // s = d^exponent
  double unknown = 0.0;    // recovery rate, position unknown
  double known = 0.0;      // recovery rate, position known
  double residual = 0.0;   // RMS over queries of |(x - PE[p]) - S[t]| / |S[t]|
};

// One draw of E and of the queries, recovery measured at every scale.
std::vector<ScalePoint> one_draw(const Subject& subject, FormatId id, const Table& encoding, const RowMatrix& pe,
                                 std::uint64_t draw_seed, std::int64_t queries) {
  const Format& format = format_of(id);
  // The queries: token and position uniform (a 64-bit hash modulo a power of two: no bias).
  std::vector<std::int64_t> ids(static_cast<std::size_t>(queries));
  std::vector<std::int64_t> rows(static_cast<std::size_t>(queries));
  for (std::size_t j = 0; j < ids.size(); ++j) {
    ids[j] = static_cast<std::int64_t>(scaling_support::stream_seed(draw_seed, 2 * j + 1000) % kVocabulary);
    rows[j] = static_cast<std::int64_t>(scaling_support::stream_seed(draw_seed, 2 * j + 1001) % kPositions);
  }
  const Table embeddings = gen::gaussian_table(scaling_support::stream_seed(draw_seed, 301), kVocabulary, kDim,
                                               1.0 / std::sqrt(static_cast<double>(kDim)), id);
  std::vector<ScalePoint> points;
  for (int k = 0; k <= 10; ++k) {
    ScalePoint point;
    point.exponent = k / 16.0;
    const double s = k == 8 ? subject.embedding_scale(kDim, id)
                            : round_to_format(std::pow(static_cast<double>(kDim), point.exponent), format);
    const Table scaled = scaling_support::scaled_rows(subject, embeddings, s, id);
    const Table x = subject.add_embeddings({&embeddings, &encoding, ids, rows, s}, id);
    const RowMatrix table = as_matrix(scaled);
    const RowMatrix inputs = as_matrix(x);
    RowMatrix minus_encoding = inputs;
    double residual_sum = 0.0;
    for (Eigen::Index j = 0; j < inputs.rows(); ++j) {
      minus_encoding.row(j) -= pe.row(static_cast<Eigen::Index>(rows[static_cast<std::size_t>(j)]));
      const auto own = table.row(static_cast<Eigen::Index>(ids[static_cast<std::size_t>(j)]));
      residual_sum += (minus_encoding.row(j) - own).squaredNorm() / own.squaredNorm();
    }
    point.unknown = nearest_row_rate(inputs, table, ids);
    point.known = nearest_row_rate(minus_encoding, table, ids);
    point.residual = std::sqrt(residual_sum / static_cast<double>(inputs.rows()));
    points.push_back(point);
  }
  return points;
}

Outcome run_recoverability(const Subject& subject, const RunConfig& config) {
  if (auto not_applicable = scaling_support::require_embedding_operations(subject)) return *not_applicable;
  if (auto no_format = scaling_support::require_formats(subject, false)) return *no_format;
  Outcome outcome;
  const std::int64_t queries = scaling_support::sized(config, 128, 256, 1024);
  const auto draws = static_cast<std::size_t>(scaling_support::sized(config, 3, 5, 30));
  const std::uint64_t seed = scaling_support::seed_of(config);
  outcome.seed = seed;
  const std::string at_d = " (d = " + std::to_string(kDim) + ", " + std::to_string(kVocabulary) +
                           " tokens, positions 0.." + std::to_string(kPositions - 1) + ")";

  for (FormatId id : scaling_support::formats_of(subject, false)) {
    const std::string f(format_of(id).name);
    const Table encoding = subject.encoding_table(scaling_support::paper_convention(), {kPositions, kDim, 0}, id);
    const RowMatrix pe = as_matrix(encoding);
    // draws[r][k]: draw r at scale k; each draw its own E and queries, the same for every format.
    std::vector<std::vector<ScalePoint>> by_draw;
    for (std::size_t r = 0; r < draws; ++r) {
      by_draw.push_back(one_draw(subject, id, encoding, pe, scaling_support::stream_seed(seed, 300 + 7 * r), queries));
      outcome.cases += queries * static_cast<std::int64_t>(by_draw.back().size());
    }
    const auto across = [&](std::size_t k, double ScalePoint::*field) {
      std::vector<double> values;
      for (const auto& points : by_draw) values.push_back(points[k].*field);
      return values;
    };
    const auto mean = [](const std::vector<double>& v) {
      double sum = 0.0;
      for (double x : v) sum += x;
      return sum / static_cast<double>(v.size());
    };
    Series unknown{f + ", position unknown",
                   "a, with scale s = d^a (a = 0.5: sqrt(d))",
                   "tokens recovered (mean over draws)",
                   {},
                   {}};
    Series known{f + ", position known", unknown.x_label, unknown.y_label, {}, {}};
    Series residual{f, unknown.x_label, "RMS |(x - PE) - s*E[t]| / |s*E[t]| (mean over draws)", {}, {}};
    for (std::size_t k = 0; k < by_draw.front().size(); ++k) {
      const double a = by_draw.front()[k].exponent;
      unknown.x.push_back(a);
      unknown.y.push_back(mean(across(k, &ScalePoint::unknown)));
      known.x.push_back(a);
      known.y.push_back(mean(across(k, &ScalePoint::known)));
      residual.x.push_back(a);
      residual.y.push_back(mean(across(k, &ScalePoint::residual)));
    }
    outcome.series.push_back(unknown);
    outcome.series.push_back(known);
    outcome.series.push_back(residual);
    constexpr std::size_t unscaled = 0, paper = 8;
    outcome.statistics.push_back(scaling_support::drawn(sized_key(Quantity::recovered_position_unknown_unscaled, id),
                                                        f + ": tokens recovered, position unknown, no scale" + at_d,
                                                        across(unscaled, &ScalePoint::unknown), std::nullopt));
    // Held on the least over draws: one missed query in any draw fails (the bound above).
    const std::vector<double> at_paper = across(paper, &ScalePoint::unknown);
    scaling_support::hold_within(
        outcome, sized_key(Quantity::recovered_position_unknown_scaled, id),
        f + ": tokens recovered, position unknown, s = sqrt(d), least over " + std::to_string(draws) + " draws" + at_d,
        *std::min_element(at_paper.begin(), at_paper.end()), {1.0, 1.0},
        "every query: a failure has probability < 1e-12 (the bound in scaling_recoverability.cpp)");
    outcome.statistics.push_back(scaling_support::drawn(sized_key(Quantity::recovered_position_known_unscaled, id),
                                                        f + ": tokens recovered, position known, no scale" + at_d,
                                                        across(unscaled, &ScalePoint::known), std::nullopt));
    outcome.statistics.push_back(scaling_support::drawn(sized_key(Quantity::rounding_loss_unscaled, id),
                                                        f + ": embedding lost to rounding, no scale (RMS relative)",
                                                        across(unscaled, &ScalePoint::residual), std::nullopt));
    outcome.statistics.push_back(scaling_support::drawn(sized_key(Quantity::rounding_loss_scaled, id),
                                                        f + ": embedding lost to rounding, s = sqrt(d) (RMS relative)",
                                                        across(paper, &ScalePoint::residual), std::nullopt));
  }
  if (outcome.verdict == Verdict::held) {
    outcome.message = "over " + std::to_string(draws) +
                      " independent draws of E and the queries, at s = sqrt(d) every token is recovered from its "
                      "sum with the encoding in every format";
  }
  return outcome;
}

}  // namespace

const CheckDefinition recoverability_check{
    .id = check_ids::token_recoverability,
    .family = Family::scaling_variance,
    .short_claim = "tokenIsRecoveredAtTheScaleSqrtD",
    .claim =
        "At the paper's scale s = sqrt(d) the token is recovered from round(s*E[t] + PE[p]) as the nearest row of "
        "s*E for every query in every format; the series show how recovery falls as the scale falls toward 1.",
    .source = "the report's question (a) (the encoding would overwhelm the token's signal without the scale)",
    .kind = CheckKind::measurement,
    .catches = {faults::scale_divided, faults::scale_missing, faults::embedding_dropped},
    .run = run_recoverability,
};

}  // namespace pecheck::properties::scaling
