// The joint decoder's search. With a_t = s^2 ||E_t||^2 - 2s <x, E_t> and
// b_p = ||PE_p||^2 - 2 <x, PE_p>,
//   ||x - s E_t - PE_p||^2 = ||x||^2 + a_t + b_p + 2s C_tp,
// and ||x||^2 is the same for every pair, so the joint decoder minimises
// f(t, p) = (a_t + b_p) + 2s C_tp. Since C_tp >= m_t = min_p C_tp and s > 0,
//   f(t, p) >= (a_t + b_p) + 2s m_t >= (a_t + b_min) + 2s m_t,
// and these bounds hold in floating point too: they are computed with the
// same operations in the same order on operands no larger, and rounding to
// nearest is monotone. So a token whose second bound reaches the best score
// found cannot win, nor can a position (taken in increasing b_p) whose first
// bound does: the search skips them and still returns the exact minimiser.
// a and b cost O(V + P) per query from the products x E^T and x PE^T; C is
// computed once per pair of tables, independent of s.
#include "pecheck/properties/joint_decoder.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>

namespace pecheck::properties {

namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMatrix>;

// a_t and b_p for one query, from its rows of x E^T and x PE^T.
struct QueryTerms {
  std::vector<double> a, b;
};

QueryTerms query_terms(const DecoderTables& tables, const double* token_dots, const double* position_dots,
                       double scale) {
  QueryTerms terms;
  terms.a.resize(static_cast<std::size_t>(tables.vocabulary));
  terms.b.resize(static_cast<std::size_t>(tables.positions));
  for (std::size_t t = 0; t < terms.a.size(); ++t)
    terms.a[t] = scale * scale * tables.token_norms[t] - 2.0 * scale * token_dots[t];
  for (std::size_t p = 0; p < terms.b.size(); ++p) terms.b[p] = tables.position_norms[p] - 2.0 * position_dots[p];
  return terms;
}

std::int64_t argmin(const std::vector<double>& values) {
  return std::min_element(values.begin(), values.end()) - values.begin();
}

double score(const DecoderTables& tables, const QueryTerms& terms, double two_s, std::size_t t, std::size_t p) {
  return (terms.a[t] + terms.b[p]) + two_s * tables.cross[t * static_cast<std::size_t>(tables.positions) + p];
}

void joint_search(const DecoderTables& tables, const QueryTerms& terms, double scale, Decoded& out) {
  const double two_s = 2.0 * scale;
  const auto naive_t = static_cast<std::size_t>(out.naive_token),
             naive_p = static_cast<std::size_t>(out.naive_position);
  // The naive pair's score is a first best; only tokens whose bound is below it can win.
  double best = score(tables, terms, two_s, naive_t, naive_p);
  out.joint_token = out.naive_token;
  out.joint_position = out.naive_position;
  out.pairs_evaluated = 1;
  const double b_min = terms.b[naive_p];
  std::vector<std::pair<double, std::size_t>> tokens;
  for (std::size_t t = 0; t < terms.a.size(); ++t) {
    const double bound = (terms.a[t] + b_min) + two_s * tables.cross_min[t];
    if (bound < best) tokens.emplace_back(bound, t);
  }
  std::sort(tokens.begin(), tokens.end());
  std::vector<std::size_t> positions(terms.b.size());
  std::iota(positions.begin(), positions.end(), std::size_t{0});
  std::stable_sort(positions.begin(), positions.end(),
                   [&](std::size_t i, std::size_t j) { return terms.b[i] < terms.b[j]; });
  for (const auto& [token_bound, t] : tokens) {
    if (token_bound >= best) break;
    const double token_floor = two_s * tables.cross_min[t];
    for (std::size_t p : positions) {
      if ((terms.a[t] + terms.b[p]) + token_floor >= best) break;
      const double f = score(tables, terms, two_s, t, p);
      ++out.pairs_evaluated;
      if (f < best) {
        best = f;
        out.joint_token = static_cast<std::int64_t>(t);
        out.joint_position = static_cast<std::int64_t>(p);
      }
    }
  }
}

}  // namespace

DecoderTables make_decoder_tables(std::vector<double> tokens, std::int64_t vocabulary, std::vector<double> encoding,
                                  std::int64_t positions, std::int64_t dim) {
  DecoderTables tables;
  tables.vocabulary = vocabulary;
  tables.positions = positions;
  tables.dim = dim;
  tables.tokens = std::move(tokens);
  tables.encoding = std::move(encoding);
  const ConstMap e(tables.tokens.data(), vocabulary, dim);
  const ConstMap pe(tables.encoding.data(), positions, dim);
  RowMatrix cross = e * pe.transpose();
  tables.cross.assign(cross.data(), cross.data() + cross.size());
  const Eigen::VectorXd token_norms = e.rowwise().squaredNorm();
  const Eigen::VectorXd position_norms = pe.rowwise().squaredNorm();
  const Eigen::VectorXd cross_min = cross.rowwise().minCoeff();
  tables.token_norms.assign(token_norms.data(), token_norms.data() + token_norms.size());
  tables.position_norms.assign(position_norms.data(), position_norms.data() + position_norms.size());
  tables.cross_min.assign(cross_min.data(), cross_min.data() + cross_min.size());
  return tables;
}

std::vector<Decoded> decode(const DecoderTables& tables, const std::vector<double>& queries, double scale) {
  const auto rows = static_cast<Eigen::Index>(queries.size()) / tables.dim;
  const ConstMap x(queries.data(), rows, tables.dim);
  const RowMatrix token_dots = x * ConstMap(tables.tokens.data(), tables.vocabulary, tables.dim).transpose();
  const RowMatrix position_dots = x * ConstMap(tables.encoding.data(), tables.positions, tables.dim).transpose();
  std::vector<Decoded> out(static_cast<std::size_t>(rows));
  for (Eigen::Index j = 0; j < rows; ++j) {
    const QueryTerms terms = query_terms(tables, token_dots.row(j).data(), position_dots.row(j).data(), scale);
    Decoded& d = out[static_cast<std::size_t>(j)];
    d.naive_token = argmin(terms.a);
    d.naive_position = argmin(terms.b);
    joint_search(tables, terms, scale, d);
  }
  return out;
}

Decoded joint_brute_force(const DecoderTables& tables, const std::vector<double>& query, double scale) {
  const ConstMap x(query.data(), 1, tables.dim);
  const RowMatrix token_dots = x * ConstMap(tables.tokens.data(), tables.vocabulary, tables.dim).transpose();
  const RowMatrix position_dots = x * ConstMap(tables.encoding.data(), tables.positions, tables.dim).transpose();
  const QueryTerms terms = query_terms(tables, token_dots.data(), position_dots.data(), scale);
  Decoded d;
  d.naive_token = argmin(terms.a);
  d.naive_position = argmin(terms.b);
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t t = 0; t < terms.a.size(); ++t) {
    for (std::size_t p = 0; p < terms.b.size(); ++p) {
      const double f = score(tables, terms, 2.0 * scale, t, p);
      ++d.pairs_evaluated;
      if (f < best) {
        best = f;
        d.joint_token = static_cast<std::int64_t>(t);
        d.joint_position = static_cast<std::int64_t>(p);
      }
    }
  }
  return d;
}

}  // namespace pecheck::properties
