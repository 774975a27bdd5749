// Why adding loses nothing a concatenation keeps, and keeps what it cannot:
// strictness (a rank argument, computed exactly) and the near-orthogonality of
// random embeddings to the encoding in high dimension.
#include <Eigen/Dense>

#include <cmath>
#include <string>
#include <vector>

#include "add_vs_concat_checks.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/exact_arithmetic.hpp"
#include "pecheck/properties/generators.hpp"
#include "pecheck/properties/tail_bounds.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties::add_vs_concat {

namespace {

using scaling_support::format_number;
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// ---- strictness -------------------------------------------------------------

// The argument. Let x(t, p) be the input for token t at position p. A
// concatenation with the split d = d_t + d_p, followed by any linear map M
// (d x d; the first layer is linear, so this is all a concatenation offers
// it), gives x(t, p) = M [a_t; b_p]. Then for a fixed p the token differences
// x(t, p) - x(0, p) = M [a_t - a_0; 0] span at most d_t dimensions, and for a
// fixed t the position differences span at most d_p: r_T + r_P <= d.
// The subject's sums s E[t] + PE[p] with random embeddings and more than d
// tokens have r_T = d, and r_P >= 1 since the encoding moves, so r_T + r_P > d:
// no split of d, and no linear map after it, reproduces them. Both ranks are
// exact: the rank of {x_i - x_0} is the rank of the rows (1, x_i) minus one,
// and rank_lower_bound gives the exact rank over the rationals whenever it
// reaches d (and a lower bound, which only strengthens r_T + r_P > d, otherwise).
std::int64_t affine_rank(const Table& points) {
  std::vector<double> rows;
  rows.reserve(static_cast<std::size_t>(points.rows * (points.cols + 1)));
  for (std::int64_t r = 0; r < points.rows; ++r) {
    rows.push_back(1.0);
    for (std::int64_t c = 0; c < points.cols; ++c) rows.push_back(points.at(r, c));
  }
  return rank_lower_bound(rows, points.rows, points.cols + 1) - 1;
}

Outcome run_strictness(const Subject& subject, const RunConfig& config) {
  if (auto not_applicable = scaling_support::require_embedding_operations(subject)) return *not_applicable;
  if (auto no_format = scaling_support::require_formats(subject, true)) return *no_format;
  Outcome outcome;
  const std::int64_t d = scaling_support::sized(config, 64, 128, 256);
  const std::int64_t count = d + 16;  // tokens and positions: more than d differences each
  const std::uint64_t seed = scaling_support::seed_of(config);
  outcome.seed = seed;
  for (FormatId id : scaling_support::formats_of(subject, true)) {
    const std::string f(format_of(id).name);
    const Table embeddings =
        gen::gaussian_table(scaling_support::stream_seed(seed, 600), count, d, 1.0 / std::sqrt(static_cast<double>(d)), id);
    const Table encoding = subject.encoding_table(scaling_support::paper_convention(), {count, d, 0}, id);
    const double s = subject.embedding_scale(d, id);
    // Every token at position 0, then token 0 at every position.
    std::vector<std::int64_t> all(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::int64_t>(i);
    const std::vector<std::int64_t> zeros(all.size(), 0);
    const Table tokens = subject.add_embeddings({&embeddings, &encoding, all, zeros, s}, id);
    const Table positions = subject.add_embeddings({&embeddings, &encoding, zeros, all, s}, id);
    const std::int64_t r_t = affine_rank(tokens);
    const std::int64_t r_p = affine_rank(positions);
    std::int64_t excluded = 0;
    for (std::int64_t d_t = 1; d_t < d; ++d_t) excluded += (r_t > d_t || r_p > d - d_t) ? 1 : 0;
    const std::string at = " (d = " + std::to_string(d) + ", " + std::to_string(count) + " tokens / positions)";
    outcome.statistics.push_back(scaling_support::statistic(
        at_width(Quantity::token_difference_rank, id, d), f + ": rank of token differences at a fixed position" + at,
        static_cast<double>(r_t), std::nullopt, std::nullopt, "a concatenation allows at most d_t"));
    outcome.statistics.push_back(scaling_support::statistic(at_width(Quantity::position_difference_rank, id, d),
                                                            f + ": rank of position differences for a fixed token" + at,
                                                            static_cast<double>(r_p), std::nullopt, std::nullopt,
                                                            "a concatenation allows at most d_p; below d where the "
                                                            "format rounds the slow columns to constants"));
    scaling_support::hold_within(
        outcome, at_width(Quantity::splits_excluded, id, d),
        f + ": splits d = d_t + d_p (d_t, d_p >= 1) no concatenation reproduces" + at, static_cast<double>(excluded),
        {static_cast<double>(d - 1), static_cast<double>(d - 1)}, "all d - 1 of them: r_T + r_P > d");
    outcome.cases += 2 * count;
  }
  if (outcome.verdict == Verdict::held) {
    outcome.message = "for every split d = d_t + d_p the sums have token and position differences of ranks "
                      "r_T + r_P > d, which no concatenation of that split (even after any linear map) has";
  }
  return outcome;
}

// ---- near-orthogonality -----------------------------------------------------

// For e ~ N(0, sigma^2 I) the direction of e is uniform on the sphere, so its
// cosine with any fixed encoding row obeys P(|cos| >= c) <= 2 exp(-d c^2 / 2);
// over V x P pairs (each pair's cosine has that law, whatever the dependence
// between pairs) the union bound puts every |cos| below cosine_union_bound
// with probability 1 - delta. The subject's round(s round(e)) differs from s e
// by at most eps |s e| + zeta sqrt(d) (eps = (1 + u)^2 - 1, zeta = eta (s (1 + u) + 1));
// the scale's own rounding changes no direction. A relative perturbation r
// of one vector moves a cosine by at most 2 r.
Outcome run_near_orthogonality(const Subject& subject, const RunConfig& config) {
  if (auto not_applicable = scaling_support::require_embedding_operations(subject)) return *not_applicable;
  if (auto no_format = scaling_support::require_formats(subject, false)) return *no_format;
  Outcome outcome;
  const std::vector<std::int64_t> widths =
      config.quick ? std::vector<std::int64_t>{64, 256} : std::vector<std::int64_t>{64, 256, 1024};
  const std::int64_t vocab = 128;
  const std::int64_t positions = 128;
  const std::vector<FormatId> formats = scaling_support::formats_of(subject, false);
  const double delta = false_alarm_probability / static_cast<double>(widths.size() * formats.size());
  const std::uint64_t seed = scaling_support::seed_of(config);
  outcome.seed = seed;
  for (std::size_t k = 0; k < formats.size(); ++k) {
    const Format& format = format_of(formats[k]);
    const std::string f(format.name);
    Series largest{f, "d", "largest |cos(s*E[t], PE[p])| over 128 x 128 pairs", {}, {}};
    Series bound_series{f + " bound", "d", largest.y_label, {}, {}};
    Series rms{f, "d", "RMS cos * sqrt(d) (1 for uniform directions)", {}, {}};
    for (std::int64_t d : widths) {
      const Table embeddings = gen::gaussian_table(scaling_support::stream_seed(seed, 700 + 10 * k) + static_cast<std::uint64_t>(d),
                                                   vocab, d, 1.0 / std::sqrt(static_cast<double>(d)), formats[k]);
      const double s = subject.embedding_scale(d, formats[k]);
      const Table scaled = scaling_support::scaled_rows(subject, embeddings, s, formats[k]);
      const Table encoding = subject.encoding_table(scaling_support::paper_convention(), {positions, d, 0}, formats[k]);
      const std::vector<double> scaled_values = table_doubles(scaled);
      const std::vector<double> encoding_values = table_doubles(encoding);
      RowMatrix a = Eigen::Map<const RowMatrix>(scaled_values.data(), vocab, d);
      RowMatrix b = Eigen::Map<const RowMatrix>(encoding_values.data(), positions, d);
      const double smallest_norm = a.rowwise().norm().minCoeff();
      a.rowwise().normalize();
      b.rowwise().normalize();
      const Eigen::MatrixXd cosines = a * b.transpose();
      const double max_cos = cosines.cwiseAbs().maxCoeff();
      const double rms_scaled = std::sqrt(cosines.squaredNorm() / static_cast<double>(vocab * positions) *
                                          static_cast<double>(d));
      const double u = scaling_support::unit_roundoff(format);
      const double eps = (1 + u) * (1 + u) - 1;
      const double zeta = scaling_support::underflow_error(format) * (s * (1 + u) + 1) * std::sqrt(static_cast<double>(d));
      const double relative = (eps * smallest_norm + zeta) / std::max(smallest_norm - zeta, 1e-300) + 1e-12;
      const double bound =
          cosine_union_bound(static_cast<double>(d), static_cast<double>(vocab * positions), delta) + 2 * relative;
      scaling_support::hold_within(outcome, at_width(Quantity::largest_cosine, formats[k], d),
                                   f + ": largest |cos(s*E[t], PE[p])|, d = " + std::to_string(d), max_cos,
                                   {0.0, bound},
                                   "128 x 128 pairs; bound sqrt(2 ln(2 pairs / delta) / d), false alarm < 1e-9");
      outcome.statistics.push_back(scaling_support::statistic(
          at_width(Quantity::rms_cosine_scaled, formats[k], d), f + ": RMS cos * sqrt(d), d = " + std::to_string(d),
          rms_scaled, std::nullopt, std::nullopt, "E cos^2 = 1/d exactly"));
      largest.x.push_back(static_cast<double>(d));
      largest.y.push_back(max_cos);
      bound_series.x.push_back(static_cast<double>(d));
      bound_series.y.push_back(bound);
      rms.x.push_back(static_cast<double>(d));
      rms.y.push_back(rms_scaled);
      outcome.cases += vocab * positions;
    }
    outcome.series.push_back(largest);
    outcome.series.push_back(bound_series);
    outcome.series.push_back(rms);
  }
  if (outcome.verdict == Verdict::held) {
    outcome.message = "random token embeddings are nearly orthogonal to every encoding row, |cos| shrinking as "
                      "1/sqrt(d): the sum keeps the two apart without a hard split";
  }
  return outcome;
}

}  // namespace

const CheckDefinition strictness_check{
    .id = check_ids::strictness,
    .family = Family::add_vs_concat,
    .short_claim = "sumsAreNoConcatenation",
    .claim =
        "For every split d = d_t + d_p the subject's sums s*E[t] + PE[p] are reproduced by no concatenation of "
        "that split, even after any linear map: their token and position differences have exact ranks with "
        "r_T + r_P > d, where a concatenation has r_T <= d_t and r_P <= d_p.",
    .source = "the report's question (c) (adding is a strict superset of concatenating)",
    .kind = CheckKind::measurement,
    .catches = {faults::embedding_dropped},
    .run = run_strictness,
};

const CheckDefinition near_orthogonality_check{
    .id = check_ids::near_orthogonality,
    .family = Family::add_vs_concat,
    .short_claim = "randomEmbeddingsAreNearlyOrthogonalToTheEncoding",
    .claim =
        "Random embeddings (sigma = d^-0.5, scaled by sqrt(d)) are nearly orthogonal to every encoding row: over "
        "128 x 128 pairs every |cos| stays below sqrt(2 ln(2 pairs / 1e-9) / d) (the spherical cap bound), "
        "with RMS cos = 1/sqrt(d).",
    .source = "the report's question (c); K. Ball 1997, Lemma 2.2",
    .kind = CheckKind::measurement,
    // Cosine is scale-invariant and any fixed nonzero vector obeys the same law (at d = 64 the bound
    // exceeds 1): no fault of the subject moves it.
    .catches = {},
    .run = run_near_orthogonality,
};

}  // namespace pecheck::properties::add_vs_concat
