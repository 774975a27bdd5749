#include "pecheck/properties/vocabulary_statistics.hpp"

#include <Eigen/Dense>

#include <stdexcept>
#include <string>
#include <vector>

namespace pecheck::properties {

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The share of the energy the subspace holds (as add-vs-concat/encoding-subspace).
constexpr double kEnergyKept = 0.99;

// mean over ordered pairs i != j of n_i n_j: ((sum n)^2 - sum n^2) / (N (N - 1)).
double distinct_pair_mean(const Eigen::VectorXd& n) {
  const auto count = static_cast<double>(n.size());
  return (n.sum() * n.sum() - n.squaredNorm()) / (count * (count - 1.0));
}

double squared(double x) { return x * x; }

}  // namespace

double VocabularyStatistics::isotropic_token_token_share() const {
  return squared(component_mean_square) / squared(component_mean_square + 0.5);
}
double VocabularyStatistics::isotropic_cross_share() const {
  return component_mean_square / squared(component_mean_square + 0.5);
}
double VocabularyStatistics::isotropic_position_position_share() const {
  return 0.25 / squared(component_mean_square + 0.5);
}

EncodingSummary summarise_encoding(const TableView& encoding) {
  if (encoding.rows() < 2) throw std::invalid_argument("expected at least two rows in the encoding");
  EncodingSummary out;
  out.positions = encoding.rows();
  out.dim = encoding.cols();
  const std::vector<double> values = table_doubles(encoding);
  const Eigen::Map<const RowMatrix> pe(values.data(), out.positions, out.dim);
  const Eigen::VectorXd norms = pe.rowwise().squaredNorm();
  out.row_norms.assign(norms.data(), norms.data() + norms.size());
  // The 99%-energy subspace: the top eigenvectors of PE^T PE. The products
  // here are coefficient by coefficient (lazyProduct): Eigen's blocked
  // product splits the sums by the host's L1 size, read at run time, so the
  // last bits differed between hosts (the validate corpus's subspace share:
  // 0.5590526860474403 with a 32 KiB L1, ...404 with 48 KiB).
  const Eigen::MatrixXd gram = pe.transpose().lazyProduct(pe);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(gram);
  const Eigen::VectorXd eigenvalues = solver.eigenvalues().reverse().cwiseMax(0.0);  // largest first
  double kept = 0.0;
  while (out.subspace_dimension < out.dim && kept < kEnergyKept * eigenvalues.sum()) {
    kept += eigenvalues(static_cast<Eigen::Index>(out.subspace_dimension));
    ++out.subspace_dimension;
  }
  const Eigen::MatrixXd basis = solver.eigenvectors().rightCols(static_cast<Eigen::Index>(out.subspace_dimension));
  out.basis.assign(basis.data(), basis.data() + basis.size());
  return out;
}

VocabularyStatistics vocabulary_statistics(const TableView& vocabulary, const EncodingSummary& encoding, double scale) {
  if (vocabulary.cols() != encoding.dim) {
    throw std::invalid_argument("the vocabulary is " + std::to_string(vocabulary.cols()) + " wide and the encoding " +
                                std::to_string(encoding.dim) + ": expected one width");
  }
  if (vocabulary.rows() < 2) throw std::invalid_argument("expected at least two rows in the vocabulary");
  VocabularyStatistics out;
  out.vocabulary = vocabulary.rows();
  out.positions = encoding.positions;
  out.dim = encoding.dim;
  out.scale = scale;
  out.subspace_dimension = encoding.subspace_dimension;
  const std::vector<double> values = table_doubles(vocabulary);
  const RowMatrix a = scale * Eigen::Map<const RowMatrix>(values.data(), out.vocabulary, out.dim);
  const Eigen::VectorXd a_norms = a.rowwise().squaredNorm();
  const Eigen::Map<const Eigen::VectorXd> p_norms(encoding.row_norms.data(), encoding.positions);
  const Eigen::Map<const Eigen::MatrixXd> basis(encoding.basis.data(), encoding.dim, encoding.subspace_dimension);

  out.encoding_energy = p_norms.mean();
  out.component_mean_square = a_norms.mean() / static_cast<double>(out.dim);
  out.energy_ratio = a_norms.mean() / out.encoding_energy;
  out.subspace_share = a.lazyProduct(basis).squaredNorm() / a.squaredNorm();  // as the gram above
  // The logit parts in expectation over W_q, W_k (the common 1/d^2 cancels in the shares).
  const double token = distinct_pair_mean(a_norms);
  const double cross = 2.0 * a_norms.mean() * p_norms.mean();
  const double position = distinct_pair_mean(p_norms);
  const double total = token + cross + position;
  out.token_token_share = token / total;
  out.cross_share = cross / total;
  out.position_position_share = position / total;
  return out;
}

}  // namespace pecheck::properties
