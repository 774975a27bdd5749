// One rotary entry pair (cos and sin of one position and frequency) decided
// by Ziv's strategy, for the exact encoding or a computation model.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "pecheck/double_double.hpp"
#include "pecheck/format.hpp"
#include "pecheck/rotary_convention.hpp"
#include "real.hpp"

namespace pecheck::reference {

struct RotaryEntryResult {
  double rounded = 0.0;    // when a format was asked for
  DoubleDouble exact;      // when the exact value was asked for
  bool escalated = false;  // the first precision did not decide it
};

// One per thread: it caches the frequencies of each working precision.
class RotaryEntryEvaluator {
 public:
  RotaryEntryEvaluator(const RotaryConvention& convention, const std::optional<ComputationModel>& model);
  ~RotaryEntryEvaluator();
  RotaryEntryEvaluator(const RotaryEntryEvaluator&) = delete;
  RotaryEntryEvaluator& operator=(const RotaryEntryEvaluator&) = delete;

  // format: round to it (unless null); want_exact: the nearest double-double.
  void evaluate(std::int64_t position, std::int64_t frequency, const Format* format, bool want_exact,
                RotaryEntryResult& cos_result, RotaryEntryResult& sin_result);

  // Whether the last evaluate() met a zero angle (decided without MPFR).
  bool last_was_zero_angle() const { return last_zero_angle_; }

  // The model's inv_freq_i in its format (the model must be set).
  double model_inv_freq(std::int64_t frequency);

 private:
  const Real& exact_frequency(std::size_t level, std::int64_t frequency);

  RotaryConvention convention_;
  RotaryDerived derived_;
  std::optional<ComputationModel> model_;
  std::vector<std::vector<std::unique_ptr<Real>>> exact_frequencies_;  // [level][i], filled on first use
  std::vector<std::optional<double>> model_frequencies_;               // [i]
  bool last_zero_angle_ = false;
};

}  // namespace pecheck::reference
