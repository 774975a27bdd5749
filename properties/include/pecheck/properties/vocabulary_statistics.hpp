// The input-layer statistics of one embedding table against one encoding
// table: the report's check scaling-variance/vocabulary-statistics computes
// them on a drawn N(0, 1/d) table, `pecheck validate --vocabulary VOCAB.npy`
// on a user's own trained table, with this one function.
//
// With a = s*E[t] and p = PE[pos]:
// - energy ratio: mean_t ||a||^2 / mean_p ||p||^2;
// - subspace overlap: the share of the scaled table's energy inside the
//   subspace holding 99% of the encoding's energy over its positions (the top
//   k eigenvectors of PE^T PE);
// - logit shares: the first layer's q.k / sqrt(d_k) at initialisation,
//   W_q, W_k ~ N(0, 1/d), split as in scaling_logit_decomposition.cpp, in
//   expectation over W: E (u^T W_q^T W_k v)^2 / d_k = ||u||^2 ||v||^2 / d^2,
//   so over distinct tokens i != j and independent positions the token-token,
//   token x position and position-position parts are in the ratio
//   mean_{i!=j} ||a_i||^2 ||a_j||^2 : 2 mean ||a||^2 mean ||p||^2 : mean_{i!=j} ||p_i||^2 ||p_j||^2.
// The closed forms beside them hold for a table whose components are
// independent with mean square alpha (an isotropic table) and ||p||^2 = d/2:
// energy ratio 2 alpha, overlap k/d, shares alpha^2, alpha and 1/4 over (alpha + 1/2)^2.
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/table.hpp"

namespace pecheck::properties {

struct VocabularyStatistics {
  std::int64_t vocabulary = 0;  // V, rows of the embedding table
  std::int64_t dim = 0;
  std::int64_t positions = 0;  // P, rows of the encoding table
  double scale = 0.0;
  double component_mean_square = 0.0;  // alpha: mean square per component of s*E
  double energy_ratio = 0.0;
  double encoding_energy = 0.0;         // mean ||PE_p||^2
  std::int64_t subspace_dimension = 0;  // k
  double subspace_share = 0.0;
  double token_token_share = 0.0;
  double cross_share = 0.0;
  double position_position_share = 0.0;

  // The closed forms for an isotropic table with this table's alpha.
  double isotropic_energy_ratio() const { return 2.0 * component_mean_square; }
  double isotropic_subspace_share() const { return static_cast<double>(subspace_dimension) / static_cast<double>(dim); }
  double isotropic_token_token_share() const;
  double isotropic_cross_share() const;
  double isotropic_position_position_share() const;
};

// What the statistics need of the encoding, computed once for many tables:
// its rows' squared norms and the basis of its 99%-energy subspace (d x k,
// column-major). Throws std::invalid_argument for fewer than two rows.
struct EncodingSummary {
  std::int64_t positions = 0;
  std::int64_t dim = 0;
  std::vector<double> row_norms;  // ||PE_p||^2
  std::int64_t subspace_dimension = 0;
  std::vector<double> basis;
};
EncodingSummary summarise_encoding(const TableView& encoding);

// Throws std::invalid_argument when the widths differ or the vocabulary has fewer than two rows.
VocabularyStatistics vocabulary_statistics(const TableView& vocabulary, const EncodingSummary& encoding, double scale);

}  // namespace pecheck::properties
