// A comparison's rows of one target, a row at a time: the exact encoding's
// (the rotary tiers, a row the double tier settles whole handed as its plain
// doubles) or a computation model's (the float-angle tier first,
// rotary_model_rows.hpp). A plan is built once per target and shared by the
// workers; each worker draws its rows from a stream of its own. Several
// targets' streams side by side let one pass over a cache compare it with
// all of them (rotary_reference_rows).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "pecheck/reference/rotary_reference.hpp"
#include "rotary_model_rows.hpp"
#include "rotary_tiers.hpp"

namespace pecheck::reference {

class RotaryRowStream {
 public:
  virtual ~RotaryRowStream() = default;
  // Row r of the request (position first_position + r) into `out`, valid
  // until the next call. Written in place: a row returned by value was
  // stored field by field and read back as wider vectors by the caller, a
  // failed store-to-load forward on every row (the visiting loop's own
  // samples, most on that load: 150 -> 39 of about 7400 in user code over
  // 15 validations of the bench's cache).
  virtual void row(std::int64_t r, RotaryReferenceRow& out) = 0;
  virtual std::int64_t escalations() const = 0;   // MPFR's first precision undecided
  virtual std::int64_t mpfr_entries() const = 0;  // values left to MPFR
};

class RotaryRowPlan {
 public:
  // `exact` must not be ExactValues::none. The plan must outlive its streams.
  RotaryRowPlan(const RotaryConvention& convention, const RotaryCacheRequest& request,
                const std::optional<ComputationModel>& model, ExactValues exact);
  std::unique_ptr<RotaryRowStream> stream() const;

  const RotaryConvention& convention() const { return convention_; }
  const RotaryCacheRequest& request() const { return request_; }
  const std::optional<ComputationModel>& model() const { return model_; }
  ExactValues exact() const { return exact_; }
  const std::vector<std::size_t>& frequency_of() const { return frequency_of_; }
  const std::vector<StepsFrequency>& tier_frequencies() const { return tier_frequencies_; }
  const std::optional<FloatAngleRows>& float_angle_rows() const { return float_angle_rows_; }

 private:
  RotaryConvention convention_;
  RotaryCacheRequest request_;
  std::optional<ComputationModel> model_;
  ExactValues exact_;
  std::vector<std::size_t> frequency_of_;           // column c's frequency
  std::vector<StepsFrequency> tier_frequencies_;    // the exact encoding's tiers'
  std::optional<FloatAngleRows> float_angle_rows_;  // a model's, where the tier applies
};

}  // namespace pecheck::reference
