#include "table_builder.hpp"

#include "row_tiers.hpp"

#include "pecheck/parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace pecheck::reference {

namespace {

// Where the sin and cos of each frequency go in a row (-1: nowhere).
struct FrequencyColumns {
  std::vector<std::int64_t> sin_column;
  std::vector<std::int64_t> cos_column;
};

FrequencyColumns frequency_columns(const std::vector<ColumnSpec>& columns, std::int64_t frequencies) {
  FrequencyColumns result{std::vector<std::int64_t>(static_cast<std::size_t>(frequencies), -1),
                          std::vector<std::int64_t>(static_cast<std::size_t>(frequencies), -1)};
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const auto i = static_cast<std::size_t>(columns[c].frequency_index);
    if (columns[c].kind == ColumnKind::sin) result.sin_column[i] = static_cast<std::int64_t>(c);
    if (columns[c].kind == ColumnKind::cos) result.cos_column[i] = static_cast<std::int64_t>(c);
  }
  return result;
}

// Rows are handed out in small blocks from a shared counter, so threads stay
// busy to the end; every entry is computed the same way whichever thread takes
// it, so the table does not depend on the thread count.
constexpr std::int64_t rows_per_block = 4;

class TableJob {
 public:
  TableJob(const Convention& convention, const TableRequest& request, const Format& format,
           mpfr_prec_t first_precision, FirstStep first_step, ExactValues exact, ReferenceTable& out)
      : convention_(convention),
        request_(request),
        format_(format),
        first_precision_(first_precision),
        first_step_(first_step),
        exact_(exact),
        out_(out) {}

  void run_worker() {
    try {
      EntryEvaluator evaluator(convention_, request_.dim, first_precision_, first_step_);
      const FrequencyColumns columns = frequency_columns(evaluator.columns(), evaluator.frequency_count());
      RowTiers tiers(format_, exact_);  // this worker's
      RowDecisions decisions;
      Counts counts;
      while (!failed_.load()) {
        const std::int64_t begin = next_row_.fetch_add(rows_per_block);
        if (begin >= request_.rows) break;
        const std::int64_t end = std::min(begin + rows_per_block, request_.rows);
        for (std::int64_t row = begin; row < end; ++row) fill_row(evaluator, tiers, columns, row, decisions, counts);
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
                RowDecisions& decisions, Counts& counts) {
    const std::int64_t convention_row = row + request_.row_offset;
    // A zero row stays as allocated: +0 everywhere, exact values zero.
    if (is_zero_row(convention_, convention_row)) return;
    const std::int64_t signed_position = position_of_row(convention_, convention_row);
    // A negative position's row is its magnitude's with sin negated, exactly
    // (sin(-x) = -sin(x), cos(-x) = cos(x); rounding to nearest even is
    // symmetric): the row is decided at |p|, then its sin entries negated.
    const std::int64_t position = signed_position < 0 ? -signed_position : signed_position;
    const bool settled = tiers.settle(evaluator, position, decisions);
    const EntryQuery query{&format_, exact_ != ExactValues::none};
    EntryResult sin_result;
    EntryResult cos_result;
    for (std::size_t i = 0; i < columns.sin_column.size(); ++i) {
      const std::int64_t sin_col = columns.sin_column[i];
      const std::int64_t cos_col = columns.cos_column[i];
      if (settled) {
        const bool sin_done = sin_col < 0 || decisions.sin_done[i] != 0;
        const bool cos_done = cos_col < 0 || decisions.cos_done[i] != 0;
        if (sin_done && cos_done) {
          if (sin_col >= 0) store(row, sin_col, decisions.sin_rounded[i], {decisions.sin_hi[i], decisions.sin_lo[i]});
          if (cos_col >= 0) store(row, cos_col, decisions.cos_rounded[i], {decisions.cos_hi[i], decisions.cos_lo[i]});
          continue;
        }
        if (tiers.double_tier()) counts.fallbacks += (sin_done ? 0 : 1) + (cos_done ? 0 : 1);
      }
      evaluator.sin_cos(position, static_cast<std::int64_t>(i), sin_col >= 0, cos_col >= 0, query, sin_result,
                        cos_result);
      if (sin_col >= 0) counts.escalations += store(row, sin_col, sin_result);
      if (cos_col >= 0) counts.escalations += store(row, cos_col, cos_result);
    }
    if (signed_position < 0) negate_sin_entries(columns, row);
  }

  void negate_sin_entries(const FrequencyColumns& columns, std::int64_t row) {
    for (const std::int64_t col : columns.sin_column) {
      if (col < 0) continue;
      out_.rounded.set(row, col, -out_.rounded.at(row, col));
      if (exact_ == ExactValues::none) continue;
      DoubleDouble& exact = out_.exact[static_cast<std::size_t>(row * request_.dim + col)];
      exact = {-exact.hi, -exact.lo};
    }
  }

  void store(std::int64_t row, std::int64_t col, double rounded, DoubleDouble exact) {
    out_.rounded.set(row, col, rounded);
    if (exact_ != ExactValues::none) out_.exact[static_cast<std::size_t>(row * request_.dim + col)] = exact;
  }

  int store(std::int64_t row, std::int64_t col, const EntryResult& result) {
    store(row, col, result.rounded, result.exact);
    return result.escalated ? 1 : 0;
  }

  const Convention& convention_;
  const TableRequest& request_;
  const Format& format_;
  mpfr_prec_t first_precision_;
  FirstStep first_step_;
  ExactValues exact_;
  ReferenceTable& out_;
  std::atomic<std::int64_t> next_row_{0};
  std::atomic<std::int64_t> escalations_{0};
  std::atomic<std::int64_t> fallbacks_{0};
  std::atomic<bool> failed_{false};
  std::mutex error_mutex_;
  std::exception_ptr error_;
};

int worker_count(int threads, std::int64_t rows) {
  if (threads < 0) {
    throw std::invalid_argument("reference table: thread count " + std::to_string(threads) +
                                " is negative; expected 0 (all cores) or a positive count");
  }
  std::int64_t count = threads;
  if (count == 0) count = std::max(1u, std::thread::hardware_concurrency());
  const std::int64_t blocks = (rows + rows_per_block - 1) / rows_per_block;
  return static_cast<int>(std::max<std::int64_t>(1, std::min(count, blocks)));
}

}  // namespace

ReferenceTable build_reference_table(const Convention& convention, const TableRequest& request, const Format& format,
                                     int threads, mpfr_prec_t first_precision, FirstStep first_step,
                                     ExactValues exact) {
  check_request(convention, request);
  check_frequency_rule(convention);
  const int workers = worker_count(threads, request.rows);

  ReferenceTable out;
  out.rounded = make_table(request.rows, request.dim, format.id);
  if (exact != ExactValues::none) out.exact.assign(static_cast<std::size_t>(request.rows * request.dim), DoubleDouble{});

  TableJob job(convention, request, format, first_precision, first_step, exact, out);
  if (workers == 1) {
    job.run_worker();
  } else {
    parallel_for(workers, [&job](int worker) {
      job.run_worker();
      // MPFR keeps constants (pi, log 2) per thread; free a helper thread's.
      if (worker != 0) mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
    });
  }
  job.rethrow_failure();
  out.escalations = job.escalations();
  out.double_word_fallbacks = job.fallbacks();
  return out;
}

}  // namespace pecheck::reference
