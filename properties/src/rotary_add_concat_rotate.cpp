// rotary/add-concat-rotate: the report's question (c) extended to rotation.
// The first layer's logits q . k / sqrt(d) with the identity for W_q and W_k
// (the inputs' own geometry, before anything is learned), for unit-variance
// token vectors x_t = s e_t and positions m, n, three ways:
//   add:     (x_a + PE(m)) . (x_b + PE(n))                 (d wide)
//   concat:  [x_a; PE(m)] . [x_b; PE(n)]                   (d/2 + d/2)
//   rotate:  (R_m x_a) . (R_n x_b), R from the rotary cache (d wide)
// and, over every pair of tokens and of positions, two shares of variance:
//   relative: for a fixed pair of tokens, the share of the logit's variance
//     over (m, n) that a function of m - n explains;
//   interaction: the share of the logit's variance that neither a function
//     of the tokens alone nor of the positions alone explains (two-way
//     analysis of variance): token and position mixing in the logit.
// An observation: these are measurements for the finding, which no fault of
// an implementation is shown to move past a bound.
#include <Eigen/Dense>

#include <cmath>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/properties/generators.hpp"
#include "rotary_checks.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties::rotary {

namespace {

constexpr std::int64_t d = 64;
constexpr std::int64_t tokens = 12;
constexpr std::int64_t positions = 48;

// Keys carry the width and the position count, which the report's sentence reads.
StatisticKey at_d(Quantity quantity) { return {quantity, std::nullopt, d, positions, {}, std::nullopt, 0.0}; }

struct Shares {
  double relative = 0.0;
  double interaction = 0.0;
  double position = 0.0;  // the share of the logit's variance the positions explain at all
};

// logits[((a * T + b) * P + m) * P + n]
Shares shares(const std::vector<double>& logits) {
  const std::int64_t pairs = tokens * tokens, cells = positions * positions;
  const auto at = [&](std::int64_t t, std::int64_t c) { return logits[static_cast<std::size_t>(t * cells + c)]; };
  double grand = 0.0;
  for (double x : logits) grand += x;
  grand /= static_cast<double>(logits.size());
  std::vector<double> token_mean(static_cast<std::size_t>(pairs), 0.0), cell_mean(static_cast<std::size_t>(cells), 0.0);
  for (std::int64_t t = 0; t < pairs; ++t) {
    for (std::int64_t c = 0; c < cells; ++c) {
      token_mean[static_cast<std::size_t>(t)] += at(t, c) / static_cast<double>(cells);
      cell_mean[static_cast<std::size_t>(c)] += at(t, c) / static_cast<double>(pairs);
    }
  }
  double total = 0.0, interaction = 0.0, within = 0.0, off_lag = 0.0, positional = 0.0;
  for (std::int64_t t = 0; t < pairs; ++t) {
    // The mean over each lag m - n for this pair of tokens.
    std::vector<double> lag_sum(2 * positions - 1, 0.0), lag_count(2 * positions - 1, 0.0);
    for (std::int64_t c = 0; c < cells; ++c) {
      const std::size_t lag = static_cast<std::size_t>(c / positions - c % positions + positions - 1);
      lag_sum[lag] += at(t, c);
      lag_count[lag] += 1.0;
    }
    for (std::int64_t c = 0; c < cells; ++c) {
      const double x = at(t, c);
      const std::size_t lag = static_cast<std::size_t>(c / positions - c % positions + positions - 1);
      const double tm = token_mean[static_cast<std::size_t>(t)], cm = cell_mean[static_cast<std::size_t>(c)];
      total += (x - grand) * (x - grand);
      interaction += (x - tm - cm + grand) * (x - tm - cm + grand);
      within += (x - tm) * (x - tm);
      off_lag += (x - lag_sum[lag] / lag_count[lag]) * (x - lag_sum[lag] / lag_count[lag]);
      positional += (cm - grand) * (cm - grand);
    }
  }
  Shares s;
  s.relative = within > 0.0 ? 1.0 - off_lag / within : 1.0;
  s.interaction = total > 0.0 ? interaction / total : 0.0;
  s.position = total > 0.0 ? positional / total : 0.0;
  return s;
}

Outcome add_concat_rotate(const Subject& subject, const RunConfig& config) {
  if (auto refused = without_rotary_caches(subject)) return *refused;
  Outcome outcome;
  const std::uint64_t seed = scaling_support::seed_of(config);
  outcome.seed = seed;
  // Unit-variance components: s e with e ~ N(0, 1/d) and s = sqrt(d).
  const Table x = gen::gaussian_table(scaling_support::stream_seed(seed, 600), tokens, d, 1.0, FormatId::float64);
  const Convention vaswani = *find_preset("vaswani");
  const Table pe = subject.encoding_table(vaswani, {positions, d, 0}, FormatId::float64);
  const Table pe_half = subject.encoding_table(vaswani, {positions, d / 2, 0}, FormatId::float64);
  RotaryConvention llama = *find_rotary_preset("llama2");
  llama.head_dim = d;
  llama.rotary_fraction = 1.0;
  const RotaryCache cache = subject.rotary_cache(llama, {0, positions, FormatId::float64});
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  std::vector<double> add, concat, rotate;
  std::vector<double> rotated(static_cast<std::size_t>(tokens * positions * d));
  for (std::int64_t t = 0; t < tokens; ++t) {
    for (std::int64_t m = 0; m < positions; ++m) {
      for (std::int64_t i = 0; i < d / 2; ++i) {
        const double c = cache.cos.at(m, i), s = cache.sin.at(m, i);
        const double a = x.at(t, i), b = x.at(t, i + d / 2);
        rotated[static_cast<std::size_t>((t * positions + m) * d + i)] = a * c - b * s;
        rotated[static_cast<std::size_t>((t * positions + m) * d + i + d / 2)] = b * c + a * s;
      }
    }
  }
  for (std::int64_t a = 0; a < tokens; ++a) {
    for (std::int64_t b = 0; b < tokens; ++b) {
      for (std::int64_t m = 0; m < positions; ++m) {
        for (std::int64_t n = 0; n < positions; ++n) {
          double sum_add = 0.0, sum_concat = 0.0, sum_rotate = 0.0;
          for (std::int64_t j = 0; j < d; ++j) {
            sum_add += (x.at(a, j) + pe.at(m, j)) * (x.at(b, j) + pe.at(n, j));
            sum_rotate += rotated[static_cast<std::size_t>((a * positions + m) * d + j)] *
                          rotated[static_cast<std::size_t>((b * positions + n) * d + j)];
          }
          for (std::int64_t j = 0; j < d / 2; ++j) {
            sum_concat += x.at(a, j) * x.at(b, j) + pe_half.at(m, j) * pe_half.at(n, j);
          }
          add.push_back(sum_add * scale);
          concat.push_back(sum_concat * scale);
          rotate.push_back(sum_rotate * scale);
          ++outcome.cases;
        }
      }
    }
  }
  struct Keys {
    Quantity relative, interaction, position;
  };
  const auto record = [&](const char* how, const Shares& s, const Keys& keys) {
    const std::string name(how);
    outcome.statistics.push_back(scaling_support::statistic(
        at_d(keys.relative), name + ": share of the position-driven logit variance that m - n explains", s.relative,
        std::nullopt, std::nullopt, "1: the logit depends on the positions through m - n alone"));
    outcome.statistics.push_back(scaling_support::statistic(
        at_d(keys.interaction), name + ": share of the logit variance from token x position interaction", s.interaction,
        std::nullopt, std::nullopt, "0: token and position act separately; large: each modulates the other"));
    outcome.statistics.push_back(scaling_support::statistic(
        at_d(keys.position), name + ": share of the logit variance the positions explain alone", s.position));
  };
  const Shares sa = shares(add), sc = shares(concat), sr = shares(rotate);
  // Concatenation with random projections W_q, W_k ~ N(0, 1/d), as a model
  // starts: W [x; p] = W_x x + W_p p is addition with untied matrices
  // (add-vs-concat/linearity), so the identity's clean split need not survive.
  using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  RowMatrix stacked(tokens * positions, d);  // row (t, m) = [x_t; PE_half(m)]
  for (std::int64_t t = 0; t < tokens; ++t) {
    for (std::int64_t m = 0; m < positions; ++m) {
      for (std::int64_t j = 0; j < d / 2; ++j) {
        stacked(t * positions + m, j) = x.at(t, j);
        stacked(t * positions + m, j + d / 2) = pe_half.at(m, j);
      }
    }
  }
  std::vector<double> projected_relative, projected_interaction;
  const int draws = static_cast<int>(scaling_support::sized(config, 3, 10, 30));
  for (int r = 0; r < draws; ++r) {
    const auto projection = [&](std::uint64_t stream) {
      const Table w = gen::gaussian_table(scaling_support::stream_seed(seed, stream), d, d,
                                          1.0 / std::sqrt(static_cast<double>(d)), FormatId::float64);
      RowMatrix matrix(d, d);
      for (std::int64_t i = 0; i < d; ++i)
        for (std::int64_t j = 0; j < d; ++j) matrix(i, j) = w.at(i, j);
      return matrix;
    };
    const RowMatrix q = stacked * projection(700 + 2 * static_cast<std::uint64_t>(r)).transpose();
    const RowMatrix k = stacked * projection(701 + 2 * static_cast<std::uint64_t>(r)).transpose();
    const Eigen::MatrixXd logits = (q * k.transpose()) * scale;  // rows (a, m), columns (b, n)
    std::vector<double> ordered;
    ordered.reserve(add.size());
    for (std::int64_t a = 0; a < tokens; ++a)
      for (std::int64_t b = 0; b < tokens; ++b)
        for (std::int64_t m = 0; m < positions; ++m)
          for (std::int64_t n = 0; n < positions; ++n) ordered.push_back(logits(a * positions + m, b * positions + n));
    const Shares sp = shares(ordered);
    projected_relative.push_back(sp.relative);
    projected_interaction.push_back(sp.interaction);
    outcome.cases += static_cast<std::int64_t>(ordered.size());
  }
  outcome.statistics.push_back(scaling_support::drawn(
      at_d(Quantity::concatenated_relative_share_projected),
      "concat, random N(0, 1/d) projections: share of the position-driven logit variance that m - n explains",
      projected_relative, std::nullopt));
  outcome.statistics.push_back(scaling_support::drawn(
      at_d(Quantity::concatenated_interaction_share_projected),
      "concat, random N(0, 1/d) projections: share of the logit variance from token x position interaction",
      projected_interaction, std::nullopt));
  record("add", sa, {Quantity::added_relative_share, Quantity::added_interaction_share, Quantity::added_position_share});
  record("concat", sc,
         {Quantity::concatenated_relative_share, Quantity::concatenated_interaction_share,
          Quantity::concatenated_position_share});
  record("rotate", sr,
         {Quantity::rotated_relative_share, Quantity::rotated_interaction_share, Quantity::rotated_position_share});
  outcome.message = "first-layer logits with identity projections, d = " + std::to_string(d) + ", " +
                    std::to_string(tokens) + " tokens x " + std::to_string(positions) +
                    " positions: share explained by m - n: add " + scaling_support::format_number(sa.relative) +
                    ", concat " + scaling_support::format_number(sc.relative) + ", rotate " +
                    scaling_support::format_number(sr.relative) + "; token x position interaction: add " +
                    scaling_support::format_number(sa.interaction) + ", concat " +
                    scaling_support::format_number(sc.interaction) + ", rotate " +
                    scaling_support::format_number(sr.interaction);
  return outcome;
}

}  // namespace

const CheckDefinition add_concat_rotate_check{
    .id = check_ids::add_concat_rotate,
    .family = Family::rotary,
    .short_claim = "addConcatAndRotateLogitsSideBySide",
    .claim =
        "first-layer logits measured side by side for an added, a concatenated and a rotary encoding: how "
        "much of their position dependence is relative (m - n), and how much token and position interact",
    .source = "the report's question (c), extended to RoPE (RoFormer section 3.4)",
    .kind = CheckKind::measurement,
    // It measures and shows; no bound is asserted, so no fault can fail it.
    .catches = {},
    .run = add_concat_rotate,
};

}  // namespace pecheck::properties::rotary
