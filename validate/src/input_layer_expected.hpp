// What the scale estimate would be if the layer computed candidate c: the
// output's roundings are a deterministic function of E, c and PE, so they are
// predicted, not modelled as noise (derivation in input_layer_expected.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "input_layer_scale.hpp"

namespace pecheck::validate {

// The tokens at one position that enter the estimate.
struct ScaleGroup {
  std::int64_t position = 0;
  std::vector<std::size_t> members;
};

// The reals that round to x in `format` (to nearest even): x less half the
// spacing below it, x plus half the spacing above (the spacing halves below
// a power of two); the ends, ties, are x's only when x is even.
struct RoundingInterval {
  double low, high;
  bool closed;
};
RoundingInterval rounding_interval(double x, const Format& format);

// For each candidate, its fused and product-rounded fits: the estimate the
// layer computing c would give, and the bound on what is left unknown.
// `denominator` is the estimate's sum of e_c^2 over the same groups.
std::vector<CandidateFits> expected_estimates(const InputTokens& tokens, const std::vector<ScaleGroup>& groups,
                                              const std::vector<ScaleCandidate>& candidates, long double denominator,
                                              double estimate);

}  // namespace pecheck::validate
