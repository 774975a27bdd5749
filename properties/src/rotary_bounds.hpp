// The bounds rotary/relative-position and rotary/pair-norm hold a cache to,
// from what the cache is judged against (derived in rotary_bounds.cpp):
//   the exact encoding: every entry within delta (the ULP budget) of
//     A cos(p theta_i), A sin(p theta_i);
//   a computation model (a cache pecheck validate judged against it): every
//     entry within delta of A' cos(psi), A' sin(psi), psi the model's float
//     angle (the libm allowance on inv_freq included) and A' the model's
//     rounded attention factor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::properties::rotary {

class RotaryCacheBounds {
 public:
  // budget_ulp: the ULP budget of an entry in `format`; model: the
  // computation model the cache conforms to, or nullopt for the exact encoding.
  RotaryCacheBounds(const RotaryConvention& convention, FormatId format, double budget_ulp,
                    std::optional<ComputationModel> model);

  // For pair i of unit |q_i| |k_i|: the largest |q'_m . k'_n - A^2 q_i^T
  // R((n - m) theta_i) k_i| a cache of this kind can show, in exact arithmetic.
  double logit_pair(std::int64_t i, std::int64_t m, std::int64_t n) const;
  // The largest |q'.k'| and exact pair term per unit |q_i| |k_i|, for the
  // rounding of the sums in double.
  double amplitude() const { return amplitude_; }
  // The largest |c^2 + s^2 - A^2| of one pair, the double arithmetic included.
  double pair_norm() const;
  // Which bound this is, as the checks print it beside the measured value.
  const std::string& name() const { return name_; }

 private:
  double angle_error(std::int64_t p, std::int64_t i) const;

  std::optional<ComputationModel> model_;
  double factor_ = 1.0;        // A, the convention's attention factor
  double model_factor_ = 1.0;  // A': A rounded as the model rounds it (A for the exact encoding)
  double delta_ = 0.0;         // the largest error of an entry against its target
  double amplitude_ = 0.0;
  std::vector<double> largest_inv_freq_;  // the model's inv_freq_i times (1 + the libm allowance)
  std::vector<double> frequency_error_;   // |inv_freq a conforming cache may use - theta_i|
  std::string name_;
};

}  // namespace pecheck::properties::rotary
