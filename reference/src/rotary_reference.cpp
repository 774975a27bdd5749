#include "pecheck/reference/rotary_reference.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <thread>

#include "pecheck/parallel_for.hpp"
#include "rotary_entry.hpp"
#include "rotary_model_rows.hpp"
#include "rotary_reference_kernels.hpp"
#include "rotary_row_evaluator.hpp"

namespace pecheck::reference {

namespace {

void check_frequency(const RotaryConvention& convention, std::int64_t frequency) {
  const std::int64_t count = rotary_derived(convention).frequencies;
  if (frequency < 0 || frequency >= count) {
    throw ConventionError("frequency " + std::to_string(frequency) + " is outside [0, " + std::to_string(count) +
                          ") for rotary convention '" + convention.name + "'");
  }
}

// A rounded value into the cache, exact (already a value of the format):
// float32 and float64 written in their own type (Table::set's conversion, a
// call per value, was a quarter of the reference's time), the 16-bit
// formats through Table::set.
inline void store(Table& table, std::int64_t row, std::int64_t column, double value) {
  const std::int64_t k = row * table.cols + column;
  if (table.format == FormatId::float32) {
    table.storage<float>()[static_cast<std::size_t>(k)] = static_cast<float>(value);
  } else if (table.format == FormatId::float64) {
    table.storage<double>()[static_cast<std::size_t>(k)] = value;
  } else {
    table.set(row, column, value);
  }
}

}  // namespace

RotaryReferenceCache build_rotary_reference_cache(const RotaryConvention& convention,
                                                  const RotaryCacheRequest& request,
                                                  const std::optional<ComputationModel>& model, int threads,
                                                  ExactValues exact) {
  check_rotary_request(convention, request);
  const std::int64_t cols = rotary_columns(convention);
  const std::int64_t frequencies = rotary_derived(convention).frequencies;
  // Which columns hold frequency i (two for the real layouts, one for complex).
  std::vector<std::vector<std::int64_t>> columns_of(static_cast<std::size_t>(frequencies));
  for (std::int64_t c = 0; c < cols; ++c) {
    columns_of[static_cast<std::size_t>(rotary_column_frequency(convention, c))].push_back(c);
  }
  const bool want_exact = exact != ExactValues::none;
  const auto exact_size = static_cast<std::size_t>(want_exact ? request.rows * cols : 0);
  RotaryReferenceCache result{
      RotaryCache{make_table(request.rows, cols, request.format), make_table(request.rows, cols, request.format)},
      std::vector<DoubleDouble>(exact_size), std::vector<DoubleDouble>(exact_size), 0, 0};
  const Format& format = format_of(request.format);
  const int workers = worker_count(threads, request.rows);
  std::atomic<std::int64_t> escalations{0};
  std::atomic<std::int64_t> mpfr_entries{0};
  const std::vector<StepsFrequency> tier_frequencies = rotary_tier_frequencies(convention, model);
  // A model's float32 angles: the exact values rotary_reference_rows gives
  // (rotary_model_rows.hpp), the rounded values as before.
  std::optional<FloatAngleRows> float_angle_rows;
  if (float_angle_rows_apply(model, request.format, exact)) {
    float_angle_rows.emplace(convention, *model, request.format, exact);
  }
  parallel_for(workers, [&](int worker) {
    RotaryRowEvaluator evaluator(convention, model, tier_frequencies, format, exact);
    RotaryRowResults row;
    std::optional<FloatAngleRows> float_angle_tier = float_angle_rows;
    std::vector<double> cos_values(static_cast<std::size_t>(frequencies)), sin_values(cos_values);
    // Rows w, w + workers, ...: each entry is decided alone, so the split
    // cannot change a bit.
    for (std::int64_t r = worker; r < request.rows; r += workers) {
      evaluator.evaluate(request.first_position + r, row);
      if (float_angle_tier && float_angle_tier->row(request.first_position + r, cos_values.data(), sin_values.data())) {
        for (std::size_t k = 0; k < cos_values.size(); ++k) {
          row.cos[k].exact = {cos_values[k], 0.0};
          row.sin[k].exact = {sin_values[k], 0.0};
        }
      }
      for (std::int64_t i = 0; i < frequencies; ++i) {
        const auto k = static_cast<std::size_t>(i);
        for (std::int64_t c : columns_of[k]) {
          store(result.rounded.cos, r, c, row.cos[k].rounded);
          store(result.rounded.sin, r, c, row.sin[k].rounded);
          if (!want_exact) continue;
          const auto e = static_cast<std::size_t>(r * cols + c);
          result.exact_cos[e] = row.cos[k].exact;
          result.exact_sin[e] = row.sin[k].exact;
        }
      }
    }
    escalations += evaluator.escalations();
    mpfr_entries += evaluator.mpfr_entries();
  });
  result.escalations = escalations.load();
  result.mpfr_entries = mpfr_entries.load();
  return result;
}

double rotary_correctly_rounded(const RotaryConvention& convention, std::int64_t position, std::int64_t frequency,
                                bool cosine, FormatId format, const std::optional<ComputationModel>& model) {
  check_frequency(convention, frequency);
  RotaryEntryEvaluator evaluator(convention, model);
  RotaryEntryResult cos_result;
  RotaryEntryResult sin_result;
  evaluator.evaluate(position, frequency, &format_of(format), false, cos_result, sin_result);
  return cosine ? cos_result.rounded : sin_result.rounded;
}

DoubleDouble rotary_exact_value(const RotaryConvention& convention, std::int64_t position, std::int64_t frequency,
                                bool cosine, const std::optional<ComputationModel>& model) {
  check_frequency(convention, frequency);
  RotaryEntryEvaluator evaluator(convention, model);
  RotaryEntryResult cos_result;
  RotaryEntryResult sin_result;
  evaluator.evaluate(position, frequency, nullptr, true, cos_result, sin_result);
  return cosine ? cos_result.exact : sin_result.exact;
}

double rotary_model_inv_freq(const RotaryConvention& convention, std::int64_t frequency,
                             const ComputationModel& model) {
  check_frequency(convention, frequency);
  RotaryEntryEvaluator evaluator(convention, model);
  return evaluator.model_inv_freq(frequency);
}

}  // namespace pecheck::reference
