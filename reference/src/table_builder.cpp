#include "table_builder.hpp"

#include "row_tiers.hpp"

#include "pecheck/parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>

namespace pecheck::reference {

namespace {

// Where the sin and cos of each frequency go in a row (-1: nowhere).
struct FrequencyColumns {
  std::vector<std::int64_t> sin_column;
  std::vector<std::int64_t> cos_column;
  bool every_pair_whole = false;  // every frequency has both a sin and a cos column
  // When every pair is whole and the columns are affine in the frequency
  // (sin of frequency i in column sin_first + sin_step i, cos likewise): the
  // layouts of every preset, interleaved or split. -1 otherwise.
  std::int64_t sin_first = -1, sin_step = 0, cos_first = -1, cos_step = 0;
};

// first + step i for every i, as a (first, step) pair; (-1, 0) otherwise.
std::pair<std::int64_t, std::int64_t> affine(const std::vector<std::int64_t>& columns) {
  if (columns.empty() || columns[0] < 0) return {-1, 0};
  const std::int64_t step = columns.size() > 1 ? columns[1] - columns[0] : 1;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] != columns[0] + step * static_cast<std::int64_t>(i)) return {-1, 0};
  }
  return {columns[0], step};
}

FrequencyColumns frequency_columns(const std::vector<ColumnSpec>& columns, std::int64_t frequencies) {
  FrequencyColumns result{std::vector<std::int64_t>(static_cast<std::size_t>(frequencies), -1),
                          std::vector<std::int64_t>(static_cast<std::size_t>(frequencies), -1)};
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const auto i = static_cast<std::size_t>(columns[c].frequency_index);
    if (columns[c].kind == ColumnKind::sin) result.sin_column[i] = static_cast<std::int64_t>(c);
    if (columns[c].kind == ColumnKind::cos) result.cos_column[i] = static_cast<std::int64_t>(c);
  }
  result.every_pair_whole =
      std::none_of(result.sin_column.begin(), result.sin_column.end(), [](std::int64_t c) { return c < 0; }) &&
      std::none_of(result.cos_column.begin(), result.cos_column.end(), [](std::int64_t c) { return c < 0; });
  if (result.every_pair_whole) {
    const auto [sin_first, sin_step] = affine(result.sin_column);
    const auto [cos_first, cos_step] = affine(result.cos_column);
    if (sin_first >= 0 && cos_first >= 0) {
      result.sin_first = sin_first;
      result.sin_step = sin_step;
      result.cos_first = cos_first;
      result.cos_step = cos_step;
    }
  }
  return result;
}

// Rows are handed out in small blocks from a shared counter, so threads stay
// busy to the end; every entry is computed the same way whichever thread takes
// it, so the table does not depend on the thread count.
constexpr std::int64_t rows_per_block = 4;

// One row of the table as the tiers settle it, reused row after row by one
// worker: what the sink (the table, or a caller's visitor) receives.
struct RowBuffer {
  std::vector<double> rounded;      // empty for RoundedValues::skipped
  std::vector<DoubleDouble> exact;  // empty for ExactValues::none
  std::vector<double> plain_exact;  // the row's exact values instead, when `plain`
  bool plain = false;               // every exact value of this row is a plain double, in plain_exact
};

using RowSink = std::function<void(int worker, std::int64_t row, const RowBuffer& buffer)>;

class TableJob {
 public:
  TableJob(const Convention& convention, const TableRequest& request, const Format& format, mpfr_prec_t first_precision,
           FirstStep first_step, ExactValues exact, RoundedValues rounded, RowSink sink)
      : convention_(convention),
        request_(request),
        format_(format),
        first_precision_(first_precision),
        first_step_(first_step),
        exact_(exact),
        rounded_(rounded),
        sink_(std::move(sink)) {}

  void run_worker(int worker) {
    try {
      EntryEvaluator evaluator(convention_, request_.dim, first_precision_, first_step_);
      const FrequencyColumns columns = frequency_columns(evaluator.columns(), evaluator.frequency_count());
      RowTiers tiers(format_, exact_, rounded_);  // this worker's
      RowDecisions decisions;
      RowBuffer buffer;
      if (rounded_ == RoundedValues::decided) buffer.rounded.resize(static_cast<std::size_t>(request_.dim));
      if (exact_ != ExactValues::none) {
        buffer.exact.resize(static_cast<std::size_t>(request_.dim));
        buffer.plain_exact.resize(static_cast<std::size_t>(request_.dim));
      }
      Counts counts;
      while (!failed_.load()) {
        const std::int64_t begin = next_row_.fetch_add(rows_per_block);
        if (begin >= request_.rows) break;
        const std::int64_t end = std::min(begin + rows_per_block, request_.rows);
        for (std::int64_t row = begin; row < end; ++row) {
          fill_row(evaluator, tiers, columns, row, decisions, buffer, counts);
          sink_(worker, row, buffer);
        }
      }
      escalations_ += counts.escalations;
      fallbacks_ += counts.fallbacks;
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex_);
      if (!error_) error_ = std::current_exception();
      failed_.store(true);
    }
  }

  void rethrow_failure() {
    if (error_) std::rethrow_exception(error_);
  }
  std::int64_t escalations() const { return escalations_.load(); }
  std::int64_t fallbacks() const { return fallbacks_.load(); }

 private:
  struct Counts {
    std::int64_t escalations = 0;  // entries MPFR decided
    std::int64_t fallbacks = 0;    // entries the double tier left to the double-word tier
  };

  // The row's cheap tiers settle almost every entry; an entry they leave
  // unsettled (or every entry, where they do not apply) goes through
  // sin_cos: the double-word tier for that entry, then MPFR.
  void fill_row(EntryEvaluator& evaluator, RowTiers& tiers, const FrequencyColumns& columns, std::int64_t row,
                RowDecisions& decisions, RowBuffer& buffer, Counts& counts) {
    // A column neither sin nor cos (an odd d's zero column) and a zero row
    // are +0, exact values zero. The buffer starts zero and only sin and cos
    // columns are written, so a column of neither stays zero from row to row;
    // only a zero row is cleared.
    const std::int64_t convention_row = row + request_.row_offset;
    buffer.plain = false;  // unless the common path below finds the row plain
    if (is_zero_row(convention_, convention_row)) {
      std::fill(buffer.rounded.begin(), buffer.rounded.end(), 0.0);
      std::fill(buffer.exact.begin(), buffer.exact.end(), DoubleDouble{});
      return;
    }
    const std::int64_t signed_position = position_of_row(convention_, convention_row);
    // A negative position's row is its magnitude's with sin negated, exactly
    // (sin(-x) = -sin(x), cos(-x) = cos(x); rounding to nearest even is
    // symmetric): the row is decided at |p|, then its sin entries negated.
    const std::int64_t position = signed_position < 0 ? -signed_position : signed_position;
    const bool settled = tiers.settle(evaluator, position, decisions);
    const EntryQuery query{rounded_ == RoundedValues::decided ? &format_ : nullptr, exact_ != ExactValues::none};
    if (settled && columns.every_pair_whole && every_entry_settled(decisions)) {
      // The common row: the cheap tier settled it all, stored without a test per entry.
      store_settled_row(columns, decisions, buffer);
      if (signed_position < 0) negate_sin_entries(columns, buffer);
      return;
    }
    EntryResult sin_result;
    EntryResult cos_result;
    for (std::size_t i = 0; i < columns.sin_column.size(); ++i) {
      const std::int64_t sin_col = columns.sin_column[i];
      const std::int64_t cos_col = columns.cos_column[i];
      if (settled) {
        const bool sin_done = sin_col < 0 || decisions.sin_done[i] != 0;
        const bool cos_done = cos_col < 0 || decisions.cos_done[i] != 0;
        if (sin_done && cos_done) {
          if (sin_col >= 0)
            store(buffer, sin_col, decisions.sin_rounded[i], {decisions.sin_hi[i], decisions.sin_low(i)});
          if (cos_col >= 0)
            store(buffer, cos_col, decisions.cos_rounded[i], {decisions.cos_hi[i], decisions.cos_low(i)});
          continue;
        }
        if (tiers.double_tier()) counts.fallbacks += (sin_done ? 0 : 1) + (cos_done ? 0 : 1);
      }
      evaluator.sin_cos(position, static_cast<std::int64_t>(i), sin_col >= 0, cos_col >= 0, query, sin_result,
                        cos_result);
      if (sin_col >= 0) counts.escalations += store(buffer, sin_col, sin_result);
      if (cos_col >= 0) counts.escalations += store(buffer, cos_col, cos_result);
    }
    if (signed_position < 0) negate_sin_entries(columns, buffer);
  }

  static bool every_entry_settled(const RowDecisions& decisions) {
    unsigned char all = 1;
    for (std::size_t i = 0; i < decisions.sin_done.size(); ++i) {
      all = static_cast<unsigned char>(all & decisions.sin_done[i] & decisions.cos_done[i]);
    }
    return all != 0;
  }

  // Requires columns.every_pair_whole and every entry settled.
  void store_settled_row(const FrequencyColumns& columns, const RowDecisions& decisions, RowBuffer& buffer) const {
    const std::size_t count = columns.sin_column.size();
    const std::int64_t* sin_col = columns.sin_column.data();
    const std::int64_t* cos_col = columns.cos_column.data();
    if (rounded_ == RoundedValues::decided) {
      double* rounded = buffer.rounded.data();
      for (std::size_t i = 0; i < count; ++i) {
        rounded[sin_col[i]] = decisions.sin_rounded[i];
        rounded[cos_col[i]] = decisions.cos_rounded[i];
      }
    }
    if (exact_ == ExactValues::none) return;
    if (decisions.plain) {
      // Plain doubles (RowDecisions::plain): the row's exact values as doubles.
      store_settled<double>(
          columns, buffer.plain_exact.data(), [&](std::size_t i) { return decisions.sin_hi[i]; },
          [&](std::size_t i) { return decisions.cos_hi[i]; });
      buffer.plain = true;
    } else {
      store_settled<DoubleDouble>(
          columns, buffer.exact.data(),
          [&](std::size_t i) {
            return DoubleDouble{decisions.sin_hi[i], decisions.sin_lo[i]};
          },
          [&](std::size_t i) {
            return DoubleDouble{decisions.cos_hi[i], decisions.cos_lo[i]};
          });
    }
  }

  // Frequency i's sin_of(i) and cos_of(i) into its columns of `out`: without
  // index loads where the columns are affine in the frequency, and with the
  // step known to the compiler for the presets' two layouts (a pair's columns
  // side by side, or sin and cos each in a run), where it vectorises the
  // stores; a step it knows only at run time left the loop scalar.
  template <typename T, typename Sin, typename Cos>
  static void store_settled(const FrequencyColumns& columns, T* __restrict out, const Sin& sin_of, const Cos& cos_of) {
    const std::size_t count = columns.sin_column.size();
    if (columns.sin_first >= 0) {
      T* __restrict sin_out = out + columns.sin_first;
      T* __restrict cos_out = out + columns.cos_first;
      const auto store_with_steps = [&](auto sin_step, auto cos_step) {
        for (std::size_t i = 0; i < count; ++i) {
          const auto k = static_cast<std::int64_t>(i);
          sin_out[k * sin_step] = sin_of(i);
          cos_out[k * cos_step] = cos_of(i);
        }
      };
      if (columns.sin_step == 1 && columns.cos_step == 1) {
        store_with_steps(std::integral_constant<std::int64_t, 1>{}, std::integral_constant<std::int64_t, 1>{});
      } else if (columns.sin_step == 2 && columns.cos_step == 2 && columns.cos_first == columns.sin_first + 1) {
        // Written as one pair of columns after another, so the two stores are one interleaving group.
        T* __restrict pair_out = out + columns.sin_first;
        for (std::size_t i = 0; i < count; ++i) {
          pair_out[2 * i] = sin_of(i);
          pair_out[2 * i + 1] = cos_of(i);
        }
      } else {
        store_with_steps(columns.sin_step, columns.cos_step);
      }
      return;
    }
    for (std::size_t i = 0; i < count; ++i) {
      out[columns.sin_column[i]] = sin_of(i);
      out[columns.cos_column[i]] = cos_of(i);
    }
  }

  void negate_sin_entries(const FrequencyColumns& columns, RowBuffer& buffer) const {
    for (const std::int64_t col : columns.sin_column) {
      if (col < 0) continue;
      const auto c = static_cast<std::size_t>(col);
      if (rounded_ == RoundedValues::decided) buffer.rounded[c] = -buffer.rounded[c];
      if (exact_ == ExactValues::none) continue;
      if (buffer.plain) {
        buffer.plain_exact[c] = -buffer.plain_exact[c];
      } else {
        buffer.exact[c] = {-buffer.exact[c].hi, -buffer.exact[c].lo};
      }
    }
  }

  void store(RowBuffer& buffer, std::int64_t col, double rounded, DoubleDouble exact) const {
    const auto c = static_cast<std::size_t>(col);
    if (rounded_ == RoundedValues::decided) buffer.rounded[c] = rounded;
    if (exact_ != ExactValues::none) buffer.exact[c] = exact;
  }

  int store(RowBuffer& buffer, std::int64_t col, const EntryResult& result) const {
    store(buffer, col, result.rounded, result.exact);
    return result.escalated ? 1 : 0;
  }

  const Convention& convention_;
  const TableRequest& request_;
  const Format& format_;
  mpfr_prec_t first_precision_;
  FirstStep first_step_;
  ExactValues exact_;
  RoundedValues rounded_;
  RowSink sink_;
  std::atomic<std::int64_t> next_row_{0};
  std::atomic<std::int64_t> escalations_{0};
  std::atomic<std::int64_t> fallbacks_{0};
  std::atomic<bool> failed_{false};
  std::mutex error_mutex_;
  std::exception_ptr error_;
};

// One worker per block of rows at most.
int block_workers(int threads, std::int64_t rows) {
  if (threads < 0) {
    throw std::invalid_argument("reference table: thread count " + std::to_string(threads) +
                                " is negative; expected 0 (all cores) or a positive count");
  }
  return worker_count(threads, (rows + rows_per_block - 1) / rows_per_block);
}

// Runs the job on `workers` threads, each row handed to `sink` once.
ReferenceCounts run_job(const Convention& convention, const TableRequest& request, const Format& format, int workers,
                        mpfr_prec_t first_precision, FirstStep first_step, ExactValues exact, RoundedValues rounded,
                        RowSink sink) {
  TableJob job(convention, request, format, first_precision, first_step, exact, rounded, std::move(sink));
  if (workers == 1) {
    job.run_worker(0);
  } else {
    parallel_for(workers, [&job](int worker) {
      job.run_worker(worker);
      // MPFR keeps constants (pi, log 2) per thread; free a helper thread's.
      if (worker != 0) mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
    });
  }
  job.rethrow_failure();
  return {job.escalations(), job.fallbacks()};
}

// Row `row` of the buffer into the table: float32 and float64 straight into
// their storage (the values are already of the format, so the conversion is
// exact), the 16-bit formats through set(), which encodes them.
void write_row(Table& table, std::int64_t row, const std::vector<double>& rounded) {
  const auto first = static_cast<std::size_t>(row * table.cols);
  if (table.format == FormatId::float32) {
    const std::span<float> out = table.storage<float>().subspan(first, rounded.size());
    for (std::size_t c = 0; c < rounded.size(); ++c) out[c] = static_cast<float>(rounded[c]);
  } else if (table.format == FormatId::float64) {
    std::copy(rounded.begin(), rounded.end(), table.storage<double>().begin() + static_cast<std::ptrdiff_t>(first));
  } else {
    for (std::size_t c = 0; c < rounded.size(); ++c) table.set(row, static_cast<std::int64_t>(c), rounded[c]);
  }
}

}  // namespace

int reference_workers(int threads, std::int64_t rows) { return block_workers(threads, rows); }

ReferenceTable build_reference_table(const Convention& convention, const TableRequest& request, const Format& format,
                                     int threads, mpfr_prec_t first_precision, FirstStep first_step,
                                     ExactValues exact) {
  check_request(convention, request);
  check_frequency_rule(convention);
  const int workers = block_workers(threads, request.rows);

  ReferenceTable out;
  out.rounded = make_uninitialized_table(request.rows, request.dim, format.id);
  if (exact != ExactValues::none) out.exact.resize(static_cast<std::size_t>(request.rows * request.dim));
  const ReferenceCounts counts =
      run_job(convention, request, format, workers, first_precision, first_step, exact, RoundedValues::decided,
              [&out](int, std::int64_t row, const RowBuffer& buffer) {
                write_row(out.rounded, row, buffer.rounded);
                const auto first = out.exact.begin() + static_cast<std::ptrdiff_t>(row * out.rounded.cols);
                if (buffer.plain) {
                  std::transform(buffer.plain_exact.begin(), buffer.plain_exact.end(), first, [](double x) {
                    return DoubleDouble{x, 0.0};
                  });
                } else {
                  std::copy(buffer.exact.begin(), buffer.exact.end(), first);
                }
              });
  out.escalations = counts.escalations;
  out.double_word_fallbacks = counts.double_word_fallbacks;
  return out;
}

ReferenceCounts visit_reference_rows(const Convention& convention, const TableRequest& request, const Format& format,
                                     int threads, mpfr_prec_t first_precision, FirstStep first_step, ExactValues exact,
                                     RoundedValues rounded, const ReferenceRowVisitor& visit) {
  check_request(convention, request);
  check_frequency_rule(convention);
  if (rounded == RoundedValues::skipped && exact == ExactValues::none) {
    throw std::invalid_argument("reference rows: neither rounded nor exact values asked for");
  }
  const int workers = block_workers(threads, request.rows);
  return run_job(convention, request, format, workers, first_precision, first_step, exact, rounded,
                 [&visit](int worker, std::int64_t row, const RowBuffer& buffer) {
                   visit(worker, buffer.plain ? ReferenceRow{row, buffer.rounded, {}, buffer.plain_exact}
                                              : ReferenceRow{row, buffer.rounded, buffer.exact, {}});
                 });
}

}  // namespace pecheck::reference
