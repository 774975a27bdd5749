// The first layer's attention logits at initialisation, split into what the
// token and the position each bring, over independent draws. With x = a + p
// (a = s*E[t] the scaled embedding, p = PE[pos]) and M = W_q^T W_k,
//   q.k = a_i M a_j  +  (a_i M p_j + p_i M a_j)  +  p_i M p_j
//         token-token    token x position (cross)   position-position.
// With W_q, W_k ~ N(0, 1/d) (d_k rows each), a ~ N(0, alpha I), alpha = s^2 sigma^2,
// and |p|^2 = d/2 (the paper's even d), the expected squares over the draws
// of M and a are, divided by d_k (the 1/sqrt(d_k) of attention):
//   token-token alpha^2, cross alpha (two uncorrelated halves of alpha/2),
//   position-position 1/4; their covariances vanish (odd moments of a), so
//   Var(q.k / sqrt(d_k)) = alpha^2 + alpha + 1/4 = (alpha + 1/2)^2.
// These closed forms are printed beside the means. Each draw is one
// (E, W_q, W_k); the statistic is the mean over the draws and their spread.
// With LayerNorm before attention (pre-LN), x is normalised row by row
// first, so |x|^2 = d whatever s: the logit variance is 1 with or without
// the scale, which is measured here too.
#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/generators.hpp"
#include "scaling_checks.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties::scaling {

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr std::int64_t kKeyDim = 64;  // d_k of the paper's base model

RowMatrix as_matrix(const Table& table) {
  const std::vector<double> values = table_doubles(table);
  return Eigen::Map<const RowMatrix>(values.data(), table.rows, table.cols);
}

// Mean over the off-diagonal pairs (i != j) of g_ij^2.
double off_diagonal_mean_square(const Eigen::MatrixXd& g) {
  const auto n = static_cast<double>(g.rows());
  return (g.squaredNorm() - g.diagonal().squaredNorm()) / (n * (n - 1));
}

// One draw's logit variance (divided by d_k) and its three parts.
struct LogitParts {
  double total = 0.0;
  double token = 0.0;
  double cross = 0.0;
  double position = 0.0;
  double pre_ln = 0.0;  // the logit variance after LayerNorm of x
};

LogitParts logit_parts(const RowMatrix& a, const RowMatrix& p, const RowMatrix& wq, const RowMatrix& wk) {
  const RowMatrix qa = a * wq.transpose(), qp = p * wq.transpose();
  const RowMatrix ka = a * wk.transpose(), kp = p * wk.transpose();
  const Eigen::MatrixXd token = qa * ka.transpose();
  const Eigen::MatrixXd cross = qa * kp.transpose() + qp * ka.transpose();
  const Eigen::MatrixXd position = qp * kp.transpose();
  const auto dk = static_cast<double>(kKeyDim);
  LogitParts parts;
  parts.token = off_diagonal_mean_square(token) / dk;
  parts.cross = off_diagonal_mean_square(cross) / dk;
  parts.position = off_diagonal_mean_square(position) / dk;
  parts.total = off_diagonal_mean_square(token + cross + position) / dk;
  // LayerNorm's row i is (x_i - m_i 1) / r_i, so its projection is
  // (W x_i - m_i W 1) / r_i: from the projections already made, no new product.
  const RowMatrix x = a + p;
  RowMatrix q_ln = qa + qp, k_ln = ka + kp;
  const Eigen::RowVectorXd q_ones = wq.rowwise().sum().transpose(), k_ones = wk.rowwise().sum().transpose();
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const double mean = x.row(i).mean();
    const double rms = std::sqrt((x.row(i).array() - mean).square().sum() / static_cast<double>(x.cols()));
    q_ln.row(i) = (q_ln.row(i) - mean * q_ones) / rms;
    k_ln.row(i) = (k_ln.row(i) - mean * k_ones) / rms;
  }
  parts.pre_ln = off_diagonal_mean_square(q_ln * k_ln.transpose()) / dk;
  return parts;
}

struct Draws {
  std::vector<double> total, token_share, cross_share, position_share, pre_ln;
  void add(const LogitParts& parts) {
    const double sum = parts.token + parts.cross + parts.position;
    total.push_back(parts.total);
    token_share.push_back(parts.token / sum);
    cross_share.push_back(parts.cross / sum);
    position_share.push_back(parts.position / sum);
    pre_ln.push_back(parts.pre_ln);
  }
};

// Both over neither as the ratio of the two means, which estimates the ratio
// of expectations the closed form states (a mean of per-draw ratios estimates
// E[X/Y], which is not E[X]/E[Y]). Its spread is the per-draw deviation of the
// ratio linearised (delta method): z_r = (X_r - R Y_r) / mean(Y), scaled as R.
Statistic ratio_of_means(StatisticKey key, std::string name, const std::vector<double>& numerators,
                         const std::vector<double>& denominators, double factor, double closed_form) {
  const auto n = static_cast<double>(numerators.size());
  double x = 0.0, y = 0.0;
  for (std::size_t r = 0; r < numerators.size(); ++r) x += numerators[r] / n, y += denominators[r] / n;
  const double ratio = x / y;
  std::vector<double> linearised;
  for (std::size_t r = 0; r < numerators.size(); ++r)
    linearised.push_back(factor * (ratio + (numerators[r] - ratio * denominators[r]) / y));
  Statistic statistic = scaling_support::drawn(std::move(key), std::move(name), linearised, closed_form,
                                               "ratio of the means over draws; spread by the delta method");
  statistic.value = factor * ratio;  // the mean of `linearised` up to rounding; the ratio itself
  return statistic;
}

// The logit variance and its shares against the scale s = d^a at one width,
// each draw's (E, W_q, W_k) reused at every s (only a = s*E changes).
constexpr std::int64_t kSweepDim = 512;
constexpr int kSweepSteps = 8;  // a = 0, 1/8, ..., 1

struct ScaleSweep {
  std::vector<Draws> at;  // one per a
};

// s*E in double here: the sweep is of the mathematics; the subject's own
// rounding of s*E is in the statistics at s = sqrt(d) above.
std::vector<LogitParts> with_scale_sweep(const Table& e, const RowMatrix& p, const RowMatrix& wq, const RowMatrix& wk) {
  std::vector<LogitParts> parts;
  const RowMatrix unscaled = as_matrix(e);
  for (int k = 0; k <= kSweepSteps; ++k) {
    const double s = std::pow(static_cast<double>(kSweepDim), static_cast<double>(k) / kSweepSteps);
    parts.push_back(logit_parts(s * unscaled, p, wq, wk));
  }
  return parts;
}

void sweep_scales(ScaleSweep& sweep, const std::vector<LogitParts>& parts) {
  if (sweep.at.empty()) sweep.at.resize(parts.size());
  for (std::size_t k = 0; k < parts.size(); ++k) sweep.at[k].add(parts[k]);
}

void file_scale_sweep(Outcome& outcome, const ScaleSweep& sweep, FormatId id) {
  if (sweep.at.empty()) return;
  const double sigma2 = 1.0 / static_cast<double>(kSweepDim);
  const std::string f(format_of(id).name);
  const std::string x_label = "s^2 sigma^2 (s = d^a, 1 at s = sqrt(d)), d = " + std::to_string(kSweepDim);
  Series total{"measured", x_label, "first-layer logit variance against the scale", {}, {}};
  Series total_closed{"closed form (s^2 sigma^2 + 1/2)^2", x_label, total.y_label, {}, {}};
  const std::string share_label = "share of the logit variance against the scale";
  Series token{"token-token", x_label, share_label, {}, {}}, cross{"token x position", x_label, share_label, {}, {}},
      position{"position-position", x_label, share_label, {}, {}};
  Series token_closed{"token-token, closed form", x_label, share_label, {}, {}},
      position_closed{"position-position, closed form", x_label, share_label, {}, {}};
  for (std::size_t k = 0; k < sweep.at.size(); ++k) {
    const double a = static_cast<double>(k) / kSweepSteps;
    const double s = std::pow(static_cast<double>(kSweepDim), a);
    const double alpha = s * s * sigma2;
    const double closed = (alpha + 0.5) * (alpha + 0.5);
    const auto key = [&](Quantity quantity) {
      StatisticKey k2 = with_head_dim(at_width(quantity, id, kSweepDim), kKeyDim);
      k2.scale_exponent = a;
      return k2;
    };
    const std::string at = ", d = " + std::to_string(kSweepDim) + ", s = d^" + scaling_support::format_number(a);
    const Draws& draws = sweep.at[k];
    const Statistic t = scaling_support::drawn(key(Quantity::logit_variance_at_scale),
                                               f + ": first-layer logit variance" + at, draws.total, closed);
    const Statistic tt =
        scaling_support::drawn(key(Quantity::token_token_share_at_scale), f + ": token-token share" + at,
                               draws.token_share, alpha * alpha / closed);
    const Statistic cr = scaling_support::drawn(key(Quantity::cross_share_at_scale),
                                                f + ": token x position share" + at, draws.cross_share, alpha / closed);
    const Statistic pp =
        scaling_support::drawn(key(Quantity::position_position_share_at_scale), f + ": position-position share" + at,
                               draws.position_share, 0.25 / closed);
    for (const Statistic* stat : {&t, &tt, &cr, &pp}) outcome.statistics.push_back(*stat);
    for (Series* series : {&total, &total_closed, &token, &cross, &position, &token_closed, &position_closed})
      series->x.push_back(alpha);
    total.y.push_back(t.value);
    total_closed.y.push_back(closed);
    token.y.push_back(tt.value);
    cross.y.push_back(cr.value);
    position.y.push_back(pp.value);
    token_closed.y.push_back(*tt.closed_form);
    position_closed.y.push_back(*pp.closed_form);
  }
  for (Series* series : {&total, &total_closed, &token, &cross, &position, &token_closed, &position_closed})
    outcome.series.push_back(*series);
  // s = sqrt(d), where s^2 sigma^2 = 1, marked on both panels across what they plot.
  const auto mark_root = [&](const std::string& y_label, std::initializer_list<const Series*> plotted) {
    double low = plotted.begin()[0]->y.front(), high = low;
    for (const Series* series : plotted) {
      for (double y : series->y) {
        low = std::min(low, y);
        high = std::max(high, y);
      }
    }
    Series root{"s = sqrt(d)", x_label, y_label, {1.0, 1.0}, {low, high}};
    root.marks_x = true;
    outcome.series.push_back(std::move(root));
  };
  mark_root(total.y_label, {&total, &total_closed});
  mark_root(share_label, {&token, &cross, &position, &token_closed, &position_closed});
}

Outcome run_logit_decomposition(const Subject& subject, const RunConfig& config) {
  if (auto not_applicable = scaling_support::require_embedding_operations(subject)) return *not_applicable;
  Outcome outcome;
  const std::uint64_t seed = scaling_support::seed_of(config);
  outcome.seed = seed;
  const FormatId id = FormatId::float32;
  const std::string f(format_of(id).name);
  const auto draws = static_cast<int>(scaling_support::sized(config, 10, 30, 100));
  const std::int64_t tokens = 64;  // 64 x 63 ordered pairs per draw
  // The findings read d = 64, 512 and 4096; --full fills in the widths between.
  const std::vector<std::int64_t> dims = config.full ? std::vector<std::int64_t>{64, 128, 256, 512, 1024, 2048, 4096}
                                                     : std::vector<std::int64_t>{64, 512, 4096};
  Series scaled_series{f + ", s = sqrt(d)", "d (d_model)", "first-layer logit variance (mean over draws)", {}, {}};
  Series unscaled_series{f + ", s = 1", scaled_series.x_label, scaled_series.y_label, {}, {}};
  ScaleSweep sweep;
  Series pre_ln_series{
      f + ", LayerNorm before attention, s = sqrt(d)", scaled_series.x_label, scaled_series.y_label, {}, {}};
  for (std::size_t w = 0; w < dims.size(); ++w) {
    const std::int64_t d = dims[w];
    const double sigma = 1.0 / std::sqrt(static_cast<double>(d));
    const Table encoding = subject.encoding_table(scaling_support::paper_convention(), {tokens, d, 0}, id);
    const RowMatrix p = as_matrix(encoding);
    const double s = subject.embedding_scale(d, id);
    Draws scaled, unscaled;
    for (int r = 0; r < draws; ++r) {
      const std::uint64_t stream = 10000 + 1000 * w + 4 * static_cast<std::uint64_t>(r);
      const Table e = gen::gaussian_table(scaling_support::stream_seed(seed, stream), tokens, d, sigma, id);
      const RowMatrix wq = as_matrix(
          gen::gaussian_table(scaling_support::stream_seed(seed, stream + 1), kKeyDim, d, sigma, FormatId::float64));
      const RowMatrix wk = as_matrix(
          gen::gaussian_table(scaling_support::stream_seed(seed, stream + 2), kKeyDim, d, sigma, FormatId::float64));
      const LogitParts with = logit_parts(as_matrix(scaling_support::scaled_rows(subject, e, s, id)), p, wq, wk);
      const LogitParts without = logit_parts(as_matrix(e), p, wq, wk);
      scaled.add(with);
      unscaled.add(without);
      if (d == kSweepDim) sweep_scales(sweep, with_scale_sweep(e, p, wq, wk));
    }
    outcome.cases += static_cast<std::int64_t>(draws) * tokens * (tokens - 1);
    const double alpha_scaled = s * s * sigma * sigma;
    const double alpha_plain = sigma * sigma;
    const auto closed = [](double alpha) { return (alpha + 0.5) * (alpha + 0.5); };
    const auto share = [&](double part, double alpha) { return part / closed(alpha); };
    const auto add = [&](Quantity quantity, std::string name, const std::vector<double>& values,
                         std::optional<double> closed_form) {
      outcome.statistics.push_back(scaling_support::drawn(
          with_head_dim(at_width(quantity, id, d), kKeyDim),
          f + ": " + name + ", d = " + std::to_string(d) + ", d_k = " + std::to_string(kKeyDim), values, closed_form));
    };
    add(Quantity::first_layer_logit_variance_scaled, "first-layer logit variance, s = sqrt(d), / sqrt(d_k)",
        scaled.total, closed(alpha_scaled));
    add(Quantity::first_layer_logit_variance_unscaled, "first-layer logit variance, s = 1, / sqrt(d_k)", unscaled.total,
        closed(alpha_plain));
    // Both scales (s = sqrt(d), / sqrt(d_k)) over neither (s = 1, no division): 1 if they cancelled.
    outcome.statistics.push_back(ratio_of_means(
        with_head_dim(at_width(Quantity::first_layer_both_over_neither, id, d), kKeyDim),
        f + ": both scales / neither (1 if sqrt(d) cancelled 1/sqrt(d_k)), ratio of the means over draws, d = " +
            std::to_string(d) + ", d_k = " + std::to_string(kKeyDim),
        scaled.total, unscaled.total, 1.0 / static_cast<double>(kKeyDim),
        closed(alpha_scaled) / (closed(alpha_plain) * static_cast<double>(kKeyDim))));
    add(Quantity::token_token_share_scaled, "token-token share of the logit variance, s = sqrt(d)", scaled.token_share,
        share(alpha_scaled * alpha_scaled, alpha_scaled));
    add(Quantity::cross_share_scaled, "token x position share of the logit variance, s = sqrt(d)", scaled.cross_share,
        share(alpha_scaled, alpha_scaled));
    add(Quantity::position_position_share_scaled, "position-position share of the logit variance, s = sqrt(d)",
        scaled.position_share, share(0.25, alpha_scaled));
    add(Quantity::position_position_share_unscaled, "position-position share of the logit variance, s = 1",
        unscaled.position_share, share(0.25, alpha_plain));
    add(Quantity::cross_share_unscaled, "token x position share of the logit variance, s = 1", unscaled.cross_share,
        share(alpha_plain, alpha_plain));
    // LayerNorm makes |x|^2 = d, so q.k / sqrt(d_k) has variance 1 in expectation over W_q, W_k.
    add(Quantity::pre_ln_logit_variance_scaled, "logit variance with LayerNorm before attention, s = sqrt(d)",
        scaled.pre_ln, 1.0);
    add(Quantity::pre_ln_logit_variance_unscaled, "logit variance with LayerNorm before attention, s = 1",
        unscaled.pre_ln, 1.0);
    const auto mean = [](const std::vector<double>& v) {
      double sum = 0.0;
      for (double x : v) sum += x;
      return sum / static_cast<double>(v.size());
    };
    scaled_series.x.push_back(static_cast<double>(d));
    scaled_series.y.push_back(mean(scaled.total));
    unscaled_series.x.push_back(static_cast<double>(d));
    unscaled_series.y.push_back(mean(unscaled.total));
    pre_ln_series.x.push_back(static_cast<double>(d));
    pre_ln_series.y.push_back(mean(scaled.pre_ln));
  }
  outcome.series = {scaled_series, unscaled_series, pre_ln_series};
  file_scale_sweep(outcome, sweep, id);
  outcome.message = "over " + std::to_string(draws) +
                    " draws of (E, W_q, W_k) per d, the first layer's logit "
                    "variance follows (s^2 sigma^2 + 1/2)^2; with LayerNorm before attention it is 1 with or without "
                    "the scale";
  return outcome;
}

}  // namespace

const CheckDefinition logit_decomposition_check{
    .id = check_ids::logit_decomposition,
    .family = Family::scaling_variance,
    .short_claim = "logitVarianceSplitsIntoTokenAndPositionTerms",
    .claim =
        "At initialisation (W_q, W_k ~ N(0, 1/d), sigma = d^-0.5) the first layer's logit variance q.k / sqrt(d_k) "
        "is (s^2 sigma^2 + 1/2)^2, split into token-token s^4 sigma^4, token x position s^2 sigma^2 and "
        "position-position 1/4; with LayerNorm before attention it is 1 whatever s. Mean and spread over "
        "independent draws, the closed forms beside them.",
    .source = "the report's question (b) (does sqrt(d) cancel 1/sqrt(d_k)?); issue 13 review of the single-draw figure",
    .kind = CheckKind::measurement,
    // The checker draws E, W_q and W_k itself; no bound is asserted, so no fault can fail it.
    .catches = {},
    .run = run_logit_decomposition,
};

}  // namespace pecheck::properties::scaling
