// How much room the fixed encoding leaves the token, against context length.
// Over positions [0, P) the encoding's rows span a subspace; its numerical
// rank and the dimension k that holds 99% of the rows' energy (the top
// eigenvectors of G = PE^T PE) grow with P. A random token embedding is
// isotropic, so E[|U_k^T e|^2 / |e|^2] = k / d: the share of its energy that
// falls where the encoding lives, printed beside the measured mean over draws.
// Columns that hardly move over [0, P) (variance < 1% of the scaled
// embedding's 1 per component) are where the token passes untouched; there
// are fewer as P grows. Beside them, what the report's answers need so as not
// to overstate: two decoders that do not know the position (x and E projected
// off the 99% subspace; x minus the mean encoding row), the mean row's share
// of the encoding's energy (a bias common to every position), and the least
// and largest mean square of one column (1/2 on average only). All
// observations: no bound is asserted.
#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "add_vs_concat_checks.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/generators.hpp"
#include "nearest_row.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties::add_vs_concat {

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Tolerances for the numerical rank, relative to the largest singular value:
// 1e-2 (directions a float32 model at unit scale barely resolves), and
// 1e-6 (float32's resolution, 2^-24 = 6e-8, with a margin of 16).
constexpr double kLooseTolerance = 1e-2;
constexpr double kFloat32Tolerance = 1e-6;
constexpr double kEnergyKept = 0.99;
constexpr std::int64_t kBlockRows = 4096;
constexpr std::int64_t kQueries = 128;  // (token, position) queries of the position-blind decoders

Outcome run_subspace(const Subject& subject, const RunConfig& config) {
  if (auto no_format = scaling_support::require_formats(subject, false)) return *no_format;
  Outcome outcome;
  const FormatId id = FormatId::float32;
  const std::string f(format_of(id).name);
  const std::int64_t d = 512;
  const std::vector<std::int64_t> lengths =
      config.quick ? std::vector<std::int64_t>{512, 2048, 8192} : std::vector<std::int64_t>{512, 2048, 8192, 32768};
  const auto draws = static_cast<int>(scaling_support::sized(config, 10, 30, 100));
  const std::int64_t tokens = 64;
  const std::uint64_t seed = scaling_support::seed_of(config);
  outcome.seed = seed;

  Series overlap{f,
                 "context length P (positions 0 to P-1)",
                 "share of a random token's energy in the encoding's 99% subspace",
                 {},
                 {}};
  Series overlap_closed{f + " closed form k/d bound", overlap.x_label, overlap.y_label, {}, {}};
  Series quiet_series{f, overlap.x_label, "columns the encoding hardly moves (of 512)", {}, {}};
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(d, d);
  Eigen::VectorXd sums = Eigen::VectorXd::Zero(d), squares = Eigen::VectorXd::Zero(d);
  std::int64_t done = 0;
  for (std::int64_t length : lengths) {
    // Rows [done, length) added to G, the column sums and sums of squares,
    // a block at a time (a 32768-row table in double would take 128 MiB).
    for (; done < length; done += std::min<std::int64_t>(kBlockRows, length - done)) {
      const std::int64_t rows = std::min<std::int64_t>(kBlockRows, length - done);
      const std::vector<double> values =
          table_doubles(subject.encoding_table(scaling_support::paper_convention(), {rows, d, done}, id));
      const Eigen::Map<const RowMatrix> block(values.data(), rows, d);
      gram.selfadjointView<Eigen::Lower>().rankUpdate(block.transpose());
      sums += block.colwise().sum().transpose();
      squares += block.cwiseAbs2().colwise().sum().transpose();
    }
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(gram.selfadjointView<Eigen::Lower>());
    const Eigen::VectorXd eigenvalues = solver.eigenvalues().reverse().cwiseMax(0.0);  // largest first
    const double largest = eigenvalues(0);
    std::int64_t rank_loose = 0, rank_float32 = 0, k = 0;
    double kept = 0.0;
    for (Eigen::Index i = 0; i < eigenvalues.size(); ++i) {
      // Singular values are the square roots of G's eigenvalues.
      rank_loose += std::sqrt(eigenvalues(i) / largest) > kLooseTolerance ? 1 : 0;
      rank_float32 += std::sqrt(eigenvalues(i) / largest) > kFloat32Tolerance ? 1 : 0;
      if (kept < kEnergyKept * eigenvalues.sum()) {
        kept += eigenvalues(i);
        ++k;
      }
    }
    const Eigen::MatrixXd basis = solver.eigenvectors().rightCols(k);  // the top k eigenvectors
    const Eigen::VectorXd mean_row = sums / static_cast<double>(length);
    // Queries x = e_t + PE(p), unscaled (s = 1), with p uniform in [0, P), the
    // same for every draw: the encoding's rows they need, read one by one.
    std::vector<std::int64_t> query_tokens, query_positions;
    RowMatrix query_encoding(kQueries, d);
    for (std::int64_t j = 0; j < kQueries; ++j) {
      query_tokens.push_back(static_cast<std::int64_t>(scaling_support::stream_seed(seed, 40000 + 2 * j) % tokens));
      query_positions.push_back(
          static_cast<std::int64_t>(scaling_support::stream_seed(seed, 40001 + 2 * j) % static_cast<std::uint64_t>(length)));
      const std::vector<double> row = table_doubles(
          subject.encoding_table(scaling_support::paper_convention(), {1, d, query_positions.back()}, id));
      query_encoding.row(j) = Eigen::Map<const Eigen::RowVectorXd>(row.data(), d);
    }
    std::vector<double> shares, projected_rates, centred_rates;
    for (int r = 0; r < draws; ++r) {
      const std::uint64_t stream = 20000 + 100 * static_cast<std::uint64_t>(length) + static_cast<std::uint64_t>(r);
      const Table e = gen::gaussian_table(scaling_support::stream_seed(seed, stream), tokens, d,
                                          1.0 / std::sqrt(static_cast<double>(d)), id);
      const std::vector<double> e_values = table_doubles(e);
      const Eigen::Map<const RowMatrix> embeddings(e_values.data(), tokens, d);
      const Eigen::MatrixXd projected = embeddings * basis;
      shares.push_back(projected.squaredNorm() / embeddings.squaredNorm());
      // Two decoders blind to the position: project x and E off the encoding's
      // subspace (a linear map that knows only the encoding), or subtract its mean row.
      RowMatrix x(kQueries, d);
      for (std::int64_t j = 0; j < kQueries; ++j) {
        x.row(j) = embeddings.row(query_tokens[static_cast<std::size_t>(j)]) + query_encoding.row(j);
      }
      const RowMatrix x_off = x - (x * basis) * basis.transpose();
      const RowMatrix e_off = embeddings - projected * basis.transpose();
      projected_rates.push_back(nearest_row_rate(x_off, e_off, query_tokens));
      const RowMatrix x_centred = x.rowwise() - mean_row.transpose();
      centred_rates.push_back(nearest_row_rate(x_centred, embeddings, query_tokens));
    }
    // The mean row is the same at every position: to a token it is a bias,
    // not position information. Its share of the encoding's energy, and what
    // is left of the token x position share of the first-layer logit variance
    // (4/9 at s^2 sigma^2 = 1, scaling_logit_decomposition.cpp) once the mean
    // row is counted with the token: (1 - m) 4/9.
    const double energy = squares.sum() / static_cast<double>(length);
    const double mean_row_share = mean_row.squaredNorm() / energy;
    const Eigen::VectorXd column_mean_square = squares / static_cast<double>(length);
    std::int64_t quiet = 0;
    for (Eigen::Index c = 0; c < d; ++c) {
      const double mean = sums(c) / static_cast<double>(length);
      quiet += squares(c) / static_cast<double>(length) - mean * mean < 0.01 ? 1 : 0;
    }
    const StatisticKey at{Quantity::subspace_token_share, id, d, length, {}};
    const std::string where = " over positions 0.." + std::to_string(length - 1) + ", d = 512";
    outcome.statistics.push_back(scaling_support::drawn(
        at, f + ": share of a random token's energy in the encoding's 99%-energy subspace" + where, shares,
        static_cast<double>(k) / static_cast<double>(d)));
    const auto count = [&](Quantity quantity, std::string name, std::int64_t value, std::string note) {
      outcome.statistics.push_back(scaling_support::statistic({quantity, id, d, length, {}}, f + ": " + name + where,
                                                              static_cast<double>(value), std::nullopt, std::nullopt,
                                                              std::move(note)));
    };
    count(Quantity::subspace_dimension, "dimensions holding 99% of the encoding's energy", k, "of 512");
    StatisticKey decoder_key{Quantity::recovered_projected_unscaled, id, d, length, {}};
    decoder_key.vocabulary = tokens;
    outcome.statistics.push_back(scaling_support::drawn(
        decoder_key,
        f + ": tokens recovered without the scale, position unknown, x and E projected off the 99% subspace" + where,
        projected_rates, std::nullopt));
    decoder_key.quantity = Quantity::recovered_mean_subtracted_unscaled;
    outcome.statistics.push_back(scaling_support::drawn(
        decoder_key, f + ": tokens recovered without the scale, position unknown, mean encoding row subtracted" + where,
        centred_rates, std::nullopt));
    outcome.statistics.push_back(scaling_support::statistic({Quantity::mean_row_energy_share, id, d, length, {}},
                                                            f + ": the mean row's share of the encoding's energy" + where,
                                                            mean_row_share));
    outcome.statistics.push_back(scaling_support::statistic(
        {Quantity::cross_varying_share_closed, id, d, length, {}},
        f + ": token x position share of the first-layer logit variance without the mean row, (1 - m) 4/9" + where,
        (1.0 - mean_row_share) * 4.0 / 9.0, std::nullopt, std::nullopt,
        "the closed form at s^2 sigma^2 = 1 with the measured mean-row share m"));
    outcome.statistics.push_back(scaling_support::statistic({Quantity::column_mean_square_min, id, d, length, {}},
                                                            f + ": least mean square of a column" + where,
                                                            column_mean_square.minCoeff()));
    outcome.statistics.push_back(scaling_support::statistic({Quantity::column_mean_square_max, id, d, length, {}},
                                                            f + ": largest mean square of a column" + where,
                                                            column_mean_square.maxCoeff()));
    count(Quantity::numerical_rank_loose, "numerical rank of the encoding, tolerance 1e-2", rank_loose,
          "singular values above 1e-2 of the largest");
    count(Quantity::numerical_rank_float32, "numerical rank of the encoding, tolerance 1e-6", rank_float32,
          "singular values above 1e-6 of the largest (float32 resolves 6e-8)");
    count(Quantity::quiet_columns_over_context, "columns the encoding hardly moves (variance < 1% of 1)", quiet,
          "of 512: where the token passes almost untouched");
    overlap.x.push_back(static_cast<double>(length));
    double mean_share = 0.0;
    for (double v : shares) mean_share += v / static_cast<double>(shares.size());
    overlap.y.push_back(mean_share);
    overlap_closed.x.push_back(static_cast<double>(length));
    overlap_closed.y.push_back(static_cast<double>(k) / static_cast<double>(d));
    quiet_series.x.push_back(static_cast<double>(length));
    quiet_series.y.push_back(static_cast<double>(quiet));
    outcome.cases += length * d;
  }
  outcome.series = {overlap, overlap_closed, quiet_series};
  outcome.message =
      "the fixed encoding's 99%-energy subspace grows with the context length, and a random token's "
      "share of energy inside it with it; the columns it leaves quiet shrink";
  return outcome;
}

}  // namespace

const CheckDefinition subspace_check{
    .id = check_ids::encoding_subspace,
    .family = Family::add_vs_concat,
    .short_claim = "encodingSubspaceGrowsWithPositions",
    .claim =
        "Over positions 0 to P-1 (d = 512) the fixed encoding's rows fill a subspace whose dimension grows with P: "
        "its 99%-energy dimension k, its numerical ranks at tolerances 1e-2 and 1e-6, the share of a random "
        "token's energy inside it (k/d in expectation) and the columns it leaves quiet, for P from 512 up.",
    .source = "the report's question (c) (does adding force token and position to interfere?); issue 13 review",
    .kind = CheckKind::measurement,
    // Measured and shown; no bound is asserted, so no fault can fail it.
    .catches = {},
    .run = run_subspace,
};

}  // namespace pecheck::properties::add_vs_concat
