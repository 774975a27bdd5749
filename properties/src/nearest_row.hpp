// The nearest-row decoder the recoverability measurements share: the
// fraction of queries whose unique nearest row of a table is the true one.
// Private to properties/src.
#pragma once

#include <Eigen/Dense>

#include <cstdint>
#include <vector>

namespace pecheck::properties {

// The fraction of rows of `queries` whose unique nearest row of `rows` is `truth[j]`.
template <typename Queries, typename Rows>
double nearest_row_rate(const Queries& queries, const Rows& rows, const std::vector<std::int64_t>& truth) {
  // |q - r|^2 = |q|^2 - 2 q.r + |r|^2; |q|^2 is the same for every candidate.
  const Eigen::VectorXd norms = rows.rowwise().squaredNorm();
  const Eigen::MatrixXd dots = queries * rows.transpose();
  std::int64_t recovered = 0;
  for (Eigen::Index j = 0; j < queries.rows(); ++j) {
    const auto t = static_cast<Eigen::Index>(truth[static_cast<std::size_t>(j)]);
    const double own = norms(t) - 2.0 * dots(j, t);
    bool unique_nearest = true;
    for (Eigen::Index k = 0; k < rows.rows() && unique_nearest; ++k) {
      if (k != t && norms(k) - 2.0 * dots(j, k) <= own) unique_nearest = false;
    }
    recovered += unique_nearest ? 1 : 0;
  }
  return static_cast<double>(recovered) / static_cast<double>(queries.rows());
}

}  // namespace pecheck::properties
