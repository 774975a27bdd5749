#include "rotary_row_evaluator.hpp"

namespace pecheck::reference {

RotaryRowEvaluator::RotaryRowEvaluator(const RotaryConvention& convention,
                                       const std::optional<ComputationModel>& model,
                                       const std::vector<StepsFrequency>& tier_frequencies, const Format& format,
                                       ExactValues exact, RoundedValues rounded)
    : evaluator_(convention, model),
      tiers_(convention, model, evaluator_, tier_frequencies, format, exact, rounded),
      format_(format),
      want_exact_(exact != ExactValues::none),
      frequencies_(rotary_derived(convention).frequencies) {}

void RotaryRowEvaluator::evaluate(std::int64_t position, RotaryRowResults& out) {
  settle_plain(position);
  finish(position, out);
}

bool RotaryRowEvaluator::settle_plain(std::int64_t position) {
  bool whole = false;
  row_settled_ = tiers_.settle_row(position, row_, whole);
  return row_settled_ && row_.plain && whole;
}

void RotaryRowEvaluator::finish(std::int64_t position, RotaryRowResults& out) {
  const auto n = static_cast<std::size_t>(frequencies_);
  out.cos.resize(n);
  out.sin.resize(n);
  const bool row_settled = row_settled_;
  for (std::size_t k = 0; k < n; ++k) {
    RotaryEntryResult& cos_result = out.cos[k];
    RotaryEntryResult& sin_result = out.sin[k];
    if (row_settled && row_.cos_done[k]) {
      cos_result = {row_.cos_rounded[k], {row_.cos_hi[k], row_.cos_low(k)}, false};
      sin_result = {row_.sin_rounded[k], {row_.sin_hi[k], row_.sin_low(k)}, false};
      continue;
    }
    const auto i = static_cast<std::int64_t>(k);
    if (tiers_.settle(position, i, cos_result, sin_result)) {
      cos_result.escalated = false;
      sin_result.escalated = false;
      continue;
    }
    evaluator_.evaluate(position, i, &format_, want_exact_, cos_result, sin_result);
    escalations_ += (cos_result.escalated ? 1 : 0) + (sin_result.escalated ? 1 : 0);
    mpfr_entries_ += evaluator_.last_was_zero_angle() ? 0 : 2;
  }
}

}  // namespace pecheck::reference
