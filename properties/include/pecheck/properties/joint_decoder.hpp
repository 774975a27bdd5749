// Decoding an input-layer sum x = s*E[t] + PE[p] back to its token and its
// position, the three ways the recovery sweep compares:
// - naive token: the nearest row of s*E, the encoding ignored;
// - naive position: the nearest row of PE, the embedding ignored;
// - joint: the (t, p) minimising ||x - s*E[t] - PE[p]||^2 over all V x P pairs.
// The joint search is exact, and cheaper than V x P per query by a bound (see
// joint_decoder.cpp); joint_brute_force is the definition it is tested against.
#pragma once

#include <cstdint>
#include <vector>

namespace pecheck::properties {

// What depends only on the tables, computed once per draw: E (V x d), PE (P x d),
// the cross terms C = E PE^T (V x P) and their smallest entry per token.
struct DecoderTables {
  std::int64_t vocabulary = 0;
  std::int64_t positions = 0;
  std::int64_t dim = 0;
  std::vector<double> tokens;          // E, row-major
  std::vector<double> encoding;        // PE, row-major
  std::vector<double> cross;           // C[t * P + p] = <E[t], PE[p]>
  std::vector<double> token_norms;     // ||E[t]||^2
  std::vector<double> position_norms;  // ||PE[p]||^2
  std::vector<double> cross_min;       // min over p of C[t, p]
};

DecoderTables make_decoder_tables(std::vector<double> tokens, std::int64_t vocabulary, std::vector<double> encoding,
                                  std::int64_t positions, std::int64_t dim);

struct Decoded {
  std::int64_t naive_token = 0;
  std::int64_t naive_position = 0;
  std::int64_t joint_token = 0;
  std::int64_t joint_position = 0;
  std::int64_t pairs_evaluated = 0;  // (t, p) pairs the joint search scored exactly (V x P without the bound)
};

// Decodes each row of `queries` (rows x dim, row-major) at scale s > 0. Ties
// go to the lowest index (naive) or the first pair found (joint): with
// continuous draws they have probability zero.
std::vector<Decoded> decode(const DecoderTables& tables, const std::vector<double>& queries, double scale);

// The joint minimiser by scoring every pair, with the same arithmetic as decode().
Decoded joint_brute_force(const DecoderTables& tables, const std::vector<double>& query, double scale);

}  // namespace pecheck::properties
