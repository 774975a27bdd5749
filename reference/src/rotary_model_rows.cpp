#include "rotary_model_rows.hpp"

#include <algorithm>
#include <atomic>
#include <memory>

#include "float_angle_tier.hpp"
#include "pecheck/parallel_for.hpp"
#include "pecheck/reference/nearest_rounding.hpp"
#include "rotary_entry.hpp"
#include "rotary_row_evaluator.hpp"

namespace pecheck::reference {

namespace {

// The float-angle tier's products p inv_freq are exact for two factors of at
// most 26 significant bits (float_angles checks each product too).
constexpr int max_factor_precision = 26;

}  // namespace

bool float_angle_rows_apply(const std::optional<ComputationModel>& model, FormatId format, ExactValues exact) {
  return model && model->angle == FormatId::float32 && format_of(model->position).precision <= max_factor_precision &&
         format_of(model->inv_freq).precision <= max_factor_precision &&
         format_of(format).precision <= max_factor_precision && exact == ExactValues::for_format;
}

RotaryReferenceCounts rotary_model_rows(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                        const ComputationModel& model, int threads, ExactValues exact,
                                        const RotaryRowVisitor& visit) {
  check_rotary_request(convention, request);
  const std::optional<ComputationModel> model_option = model;
  const RotaryDerived derived = rotary_derived(convention);
  const auto n = static_cast<std::size_t>(derived.frequencies);
  const std::int64_t cols = rotary_columns(convention);
  std::vector<std::size_t> frequency_of(static_cast<std::size_t>(cols));
  for (std::int64_t c = 0; c < cols; ++c) {
    frequency_of[static_cast<std::size_t>(c)] = static_cast<std::size_t>(rotary_column_frequency(convention, c));
  }
  // The model's inv_freq (MPFR, once) and its attention factor, as the
  // rotary tiers take them (rotary_tiers.cpp).
  std::vector<double> inv_freq(n);
  {
    RotaryEntryEvaluator source(convention, model_option);
    for (std::size_t i = 0; i < n; ++i) inv_freq[i] = source.model_inv_freq(static_cast<std::int64_t>(i));
  }
  const double factor = pecheck::round_to_format(derived.attention_factor, format_of(model.angle));
  const Format& format = format_of(request.format);
  const Format& position_format = format_of(model.position);
  const double tolerance = exact_tolerance(exact, request.format);
  const int workers = worker_count(threads, request.rows);
  std::atomic<std::int64_t> escalations{0};
  std::atomic<std::int64_t> mpfr_entries{0};
  const std::vector<StepsFrequency> no_frequencies;  // a model's tiers take none
  parallel_for(workers, [&](int worker) {
    // The other tiers, built for the first row the float-angle tier leaves.
    std::unique_ptr<RotaryRowEvaluator> evaluator;
    RotaryRowResults row;
    std::vector<double> angles(n), cos_values(n), sin_values(n);
    std::vector<unsigned char> ok(n);
    std::vector<double> plain(2 * static_cast<std::size_t>(cols));
    std::vector<DoubleDouble> cos_exact(static_cast<std::size_t>(cols)), sin_exact(cos_exact);
    const std::int64_t first = request.rows * worker / workers;
    const std::int64_t last = request.rows * (worker + 1) / workers;
    for (std::int64_t r = first; r < last; ++r) {
      const std::int64_t position = request.first_position + r;
      const double p = round_nearest(static_cast<double>(position), position_format);
      float_angles(p, inv_freq.data(), n, angles.data(), ok.data());
      float_angle_sin_cos(angles.data(), n, factor, tolerance, cos_values.data(), sin_values.data(), ok.data());
      unsigned char all = 1;
      for (std::size_t i = 0; i < n; ++i) all &= ok[i];
      if (all != 0) {
        const std::size_t width = frequency_of.size();
        for (std::size_t c = 0; c < width; ++c) {
          plain[c] = cos_values[frequency_of[c]];
          plain[width + c] = sin_values[frequency_of[c]];
        }
        visit(worker, RotaryReferenceRow{r, {}, {}, plain});
        continue;
      }
      if (!evaluator) evaluator = std::make_unique<RotaryRowEvaluator>(convention, model_option, no_frequencies, format, exact);
      evaluator->evaluate(position, row);
      for (std::size_t c = 0; c < frequency_of.size(); ++c) {
        cos_exact[c] = row.cos[frequency_of[c]].exact;
        sin_exact[c] = row.sin[frequency_of[c]].exact;
      }
      visit(worker, RotaryReferenceRow{r, cos_exact, sin_exact, {}});
    }
    if (evaluator) {
      escalations += evaluator->escalations();
      mpfr_entries += evaluator->mpfr_entries();
    }
  });
  return {escalations.load(), mpfr_entries.load(), workers};
}

}  // namespace pecheck::reference
