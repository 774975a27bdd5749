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

RotaryReferenceCounts visit_rotary_reference_rows(const RotaryConvention& convention,
                                                  const RotaryCacheRequest& request,
                                                  const std::optional<ComputationModel>& model, int threads,
                                                  ExactValues exact, const RotaryRowVisitor& visit) {
  check_rotary_request(convention, request);
  if (exact == ExactValues::none) throw std::logic_error("rotary_reference_rows: the rows are their exact values");
  // A model's float32 angles: the float-angle tier first (rotary_model_rows.hpp).
  if (float_angle_rows_apply(model, request.format, exact)) {
    return rotary_model_rows(convention, request, *model, threads, exact, visit);
  }
  const std::int64_t cols = rotary_columns(convention);
  std::vector<std::size_t> frequency_of(static_cast<std::size_t>(cols));
  for (std::int64_t c = 0; c < cols; ++c) {
    frequency_of[static_cast<std::size_t>(c)] = static_cast<std::size_t>(rotary_column_frequency(convention, c));
  }
  // Column c holds frequency c mod cols / 2 (the rotate-half layout): a
  // plain row is two copies of the frequencies' values.
  const std::size_t half = frequency_of.size() / 2;
  bool rotate_half = frequency_of.size() % 2 == 0;
  for (std::size_t c = 0; c < frequency_of.size(); ++c) rotate_half &= frequency_of[c] == c % std::max<std::size_t>(half, 1);
  const Format& format = format_of(request.format);
  const int workers = worker_count(threads, request.rows);
  std::atomic<std::int64_t> escalations{0};
  std::atomic<std::int64_t> mpfr_entries{0};
  const std::vector<StepsFrequency> tier_frequencies = rotary_tier_frequencies(convention, model);
  parallel_for(workers, [&](int worker) {
    // The rows are their exact values: no rounding to decide.
    RotaryRowEvaluator evaluator(convention, model, tier_frequencies, format, exact, RoundedValues::skipped);
    RotaryRowResults row;
    std::vector<DoubleDouble> cos_exact(static_cast<std::size_t>(cols)), sin_exact(cos_exact);
    std::vector<double> plain(2 * static_cast<std::size_t>(cols));
    // Contiguous blocks of rows: a worker reads its own part of the cache.
    const std::int64_t first = request.rows * worker / workers;
    const std::int64_t last = request.rows * (worker + 1) / workers;
    for (std::int64_t r = first; r < last; ++r) {
      // A row the double tier settles whole goes as its plain doubles, spread
      // to the columns straight from the tier's arrays.
      if (evaluator.settle_plain(request.first_position + r)) {
        const RowDecisions& d = evaluator.decisions();
        const std::size_t n = frequency_of.size();
        if (rotate_half) {  // two copies of the frequencies per table
          for (const std::size_t offset : {std::size_t{0}, half}) {
            std::copy_n(d.cos_hi.data(), half, plain.data() + offset);
            std::copy_n(d.sin_hi.data(), half, plain.data() + n + offset);
          }
        } else {
          for (std::size_t c = 0; c < n; ++c) {
            plain[c] = d.cos_hi[frequency_of[c]];
            plain[n + c] = d.sin_hi[frequency_of[c]];
          }
        }
        visit(worker, RotaryReferenceRow{r, {}, {}, plain});
        continue;
      }
      evaluator.finish(request.first_position + r, row);
      for (std::size_t c = 0; c < frequency_of.size(); ++c) {
        cos_exact[c] = row.cos[frequency_of[c]].exact;
        sin_exact[c] = row.sin[frequency_of[c]].exact;
      }
      visit(worker, RotaryReferenceRow{r, cos_exact, sin_exact, {}});
    }
    escalations += evaluator.escalations();
    mpfr_entries += evaluator.mpfr_entries();
  });
  return {escalations.load(), mpfr_entries.load(), workers};
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
