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

FloatAngleRows::FloatAngleRows(const RotaryConvention& convention, const ComputationModel& model, FormatId format,
                               ExactValues exact)
    : factor_(pecheck::round_to_format(rotary_derived(convention).attention_factor, format_of(model.angle))),
      tolerance_(exact_tolerance(exact, format)),
      position_format_(model.position) {
  const auto n = static_cast<std::size_t>(rotary_derived(convention).frequencies);
  RotaryEntryEvaluator source(convention, model);
  for (std::size_t i = 0; i < n; ++i) inv_freq_.push_back(source.model_inv_freq(static_cast<std::int64_t>(i)));
  angles_.resize(n);
  ok_.resize(n);
}

bool FloatAngleRows::row(std::int64_t position, double* cos_values, double* sin_values) {
  const std::size_t n = inv_freq_.size();
  const double p = round_nearest(static_cast<double>(position), format_of(position_format_));
  float_angles(p, inv_freq_.data(), n, angles_.data(), ok_.data());
  float_angle_sin_cos(angles_.data(), n, factor_, tolerance_, cos_values, sin_values, ok_.data());
  unsigned char all = 1;
  for (std::size_t i = 0; i < n; ++i) all &= ok_[i];
  return all != 0;
}

RotaryReferenceCounts rotary_model_rows(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                        const ComputationModel& model, int threads, ExactValues exact,
                                        const RotaryRowVisitor& visit) {
  check_rotary_request(convention, request);
  const std::optional<ComputationModel> model_option = model;
  const auto n = static_cast<std::size_t>(rotary_derived(convention).frequencies);
  const std::int64_t cols = rotary_columns(convention);
  std::vector<std::size_t> frequency_of(static_cast<std::size_t>(cols));
  for (std::int64_t c = 0; c < cols; ++c) {
    frequency_of[static_cast<std::size_t>(c)] = static_cast<std::size_t>(rotary_column_frequency(convention, c));
  }
  // Column c holds frequency c mod n (the rotate-half layout): a row is two
  // copies of the frequencies' values.
  bool rotate_half = frequency_of.size() == 2 * n;
  for (std::size_t c = 0; c < frequency_of.size(); ++c) {
    rotate_half &= frequency_of[c] == c % std::max<std::size_t>(n, 1);
  }
  const FloatAngleRows shared(convention, model, request.format, exact);
  const Format& format = format_of(request.format);
  const int workers = worker_count(threads, request.rows);
  std::atomic<std::int64_t> escalations{0};
  std::atomic<std::int64_t> mpfr_entries{0};
  const std::vector<StepsFrequency> no_frequencies;  // a model's tiers take none
  parallel_for(workers, [&](int worker) {
    FloatAngleRows tier = shared;  // its own row buffers
    // The other tiers, built for the first row the float-angle tier leaves.
    std::unique_ptr<RotaryRowEvaluator> evaluator;
    RotaryRowResults row;
    std::vector<double> cos_values(n), sin_values(n);
    std::vector<double> plain(2 * static_cast<std::size_t>(cols));
    std::vector<DoubleDouble> cos_exact(static_cast<std::size_t>(cols)), sin_exact(cos_exact);
    const std::int64_t first = request.rows * worker / workers;
    const std::int64_t last = request.rows * (worker + 1) / workers;
    for (std::int64_t r = first; r < last; ++r) {
      const std::int64_t position = request.first_position + r;
      if (tier.row(position, cos_values.data(), sin_values.data())) {
        const std::size_t width = frequency_of.size();
        if (rotate_half) {  // two copies of the frequencies per table
          for (const std::size_t offset : {std::size_t{0}, n}) {
            std::copy_n(cos_values.data(), n, plain.data() + offset);
            std::copy_n(sin_values.data(), n, plain.data() + width + offset);
          }
        } else {
          for (std::size_t c = 0; c < width; ++c) {
            plain[c] = cos_values[frequency_of[c]];
            plain[width + c] = sin_values[frequency_of[c]];
          }
        }
        visit(worker, RotaryReferenceRow{r, {}, {}, plain});
        continue;
      }
      if (!evaluator) {
        evaluator = std::make_unique<RotaryRowEvaluator>(convention, model_option, no_frequencies, format, exact);
      }
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
