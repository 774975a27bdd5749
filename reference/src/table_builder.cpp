#include "table_builder.hpp"
#include "pecheck/parallel_for.hpp"

#include "enclosure_decision.hpp"

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

// What the first step decides in a row: entry i's rounding and whether the
// rounding and the exact value are both settled (the loop vectorises).
struct RowDecisions {
  std::vector<double> sin_value, cos_value;
  std::vector<unsigned char> sin_done, cos_done;
};

void decide_row(const RowEnclosures& row, const Format& format_in, RowDecisions& out) {
  const Format format = format_in;  // a local copy: its fields are then loop invariants
  const std::size_t count = row.sin_hi.size();
  out.sin_value.resize(count);
  out.cos_value.resize(count);
  out.sin_done.resize(count);
  out.cos_done.resize(count);
  const double* __restrict sin_hi = row.sin_hi.data();
  const double* __restrict sin_lo = row.sin_lo.data();
  const double* __restrict sin_error = row.sin_error.data();
  const double* __restrict cos_hi = row.cos_hi.data();
  const double* __restrict cos_lo = row.cos_lo.data();
  const double* __restrict cos_error = row.cos_error.data();
  double* __restrict sin_value = out.sin_value.data();
  double* __restrict cos_value = out.cos_value.data();
  unsigned char* __restrict sin_done = out.sin_done.data();
  unsigned char* __restrict cos_done = out.cos_done.data();
#pragma GCC ivdep
  for (std::size_t i = 0; i < count; ++i) {
    const NonzeroRounding s = nonzero_rounding(sin_hi[i], sin_lo[i], sin_error[i], format);
    const NonzeroRounding c = nonzero_rounding(cos_hi[i], cos_lo[i], cos_error[i], format);
    sin_value[i] = s.value;
    cos_value[i] = c.value;
    sin_done[i] = s.decided && good_as_exact(sin_hi[i], sin_error[i]);
    cos_done[i] = c.decided && good_as_exact(cos_hi[i], cos_error[i]);
  }
}

// Rows are handed out in small blocks from a shared counter, so threads stay
// busy to the end; every entry is computed the same way whichever thread takes
// it, so the table does not depend on the thread count.
constexpr std::int64_t rows_per_block = 4;

class TableJob {
 public:
  TableJob(const Convention& convention, const TableRequest& request, const Format& format,
           mpfr_prec_t first_precision, FirstStep first_step, ReferenceTable& out)
      : convention_(convention),
        request_(request),
        format_(format),
        first_precision_(first_precision),
        first_step_(first_step),
        out_(out) {}

  void run_worker() {
    try {
      EntryEvaluator evaluator(convention_, request_.dim, first_precision_, first_step_);
      const FrequencyColumns columns = frequency_columns(evaluator.columns(), evaluator.frequency_count());
      RowEnclosures enclosures;  // this worker's
      RowDecisions decisions;
      std::int64_t escalations = 0;
      while (!failed_.load()) {
        const std::int64_t begin = next_row_.fetch_add(rows_per_block);
        if (begin >= request_.rows) break;
        const std::int64_t end = std::min(begin + rows_per_block, request_.rows);
        for (std::int64_t row = begin; row < end; ++row) escalations += fill_row(evaluator, columns, row, enclosures, decisions);
      }
      escalations_ += escalations;
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

 private:
  std::int64_t fill_row(EntryEvaluator& evaluator, const FrequencyColumns& columns, std::int64_t row,
                        RowEnclosures& enclosures, RowDecisions& decisions) {
    const std::int64_t convention_row = row + request_.row_offset;
    // A zero row stays as allocated: +0 everywhere, exact values zero.
    if (is_zero_row(convention_, convention_row)) return 0;
    const std::int64_t signed_position = position_of_row(convention_, convention_row);
    // A negative position's row is its magnitude's with sin negated, exactly
    // (sin(-x) = -sin(x), cos(-x) = cos(x); rounding to nearest even is
    // symmetric): the row is decided at |p|, then its sin entries negated.
    const std::int64_t position = signed_position < 0 ? -signed_position : signed_position;
    const std::int64_t escalations = fill_row_at(evaluator, columns, row, position, enclosures, decisions);
    if (signed_position < 0) negate_sin_entries(columns, row);
    return escalations;
  }

  std::int64_t fill_row_at(EntryEvaluator& evaluator, const FrequencyColumns& columns, std::int64_t row,
                           std::int64_t position, RowEnclosures& enclosures, RowDecisions& decisions) {
    const EntryQuery query{&format_, true};
    if (evaluator.first_step_row(position, enclosures)) {
      return fill_row_from_first_step(evaluator, columns, row, position, enclosures, decisions);
    }
    std::int64_t escalations = 0;
    EntryResult sin_result;
    EntryResult cos_result;
    for (std::size_t i = 0; i < columns.sin_column.size(); ++i) {
      const std::int64_t sin_col = columns.sin_column[i];
      const std::int64_t cos_col = columns.cos_column[i];
      evaluator.sin_cos(position, static_cast<std::int64_t>(i), sin_col >= 0, cos_col >= 0, query, sin_result,
                        cos_result);
      if (sin_col >= 0) escalations += store(row, sin_col, sin_result);
      if (cos_col >= 0) escalations += store(row, cos_col, cos_result);
    }
    return escalations;
  }

  // The row's first-step enclosures decide almost every entry; an entry
  // they leave undecided goes through sin_cos, which tries the first step
  // again (the same bits) and then MPFR, and counts as escalated.
  std::int64_t fill_row_from_first_step(EntryEvaluator& evaluator, const FrequencyColumns& columns, std::int64_t row,
                                        std::int64_t position, const RowEnclosures& enclosures,
                                        RowDecisions& decisions) {
    decide_row(enclosures, format_, decisions);
    std::int64_t escalations = 0;
    EntryResult sin_result;
    EntryResult cos_result;
    for (std::size_t i = 0; i < columns.sin_column.size(); ++i) {
      const std::int64_t sin_col = columns.sin_column[i];
      const std::int64_t cos_col = columns.cos_column[i];
      const bool sin_done = sin_col < 0 || decisions.sin_done[i] != 0;
      const bool cos_done = cos_col < 0 || decisions.cos_done[i] != 0;
      if (sin_done && cos_done) {
        if (sin_col >= 0) store_decided(row, sin_col, decisions.sin_value[i], enclosures.sin_hi[i], enclosures.sin_lo[i]);
        if (cos_col >= 0) store_decided(row, cos_col, decisions.cos_value[i], enclosures.cos_hi[i], enclosures.cos_lo[i]);
        continue;
      }
      evaluator.sin_cos(position, static_cast<std::int64_t>(i), sin_col >= 0, cos_col >= 0, EntryQuery{&format_, true},
                        sin_result, cos_result);
      if (sin_col >= 0) escalations += store(row, sin_col, sin_result);
      if (cos_col >= 0) escalations += store(row, cos_col, cos_result);
    }
    return escalations;
  }

  void negate_sin_entries(const FrequencyColumns& columns, std::int64_t row) {
    for (const std::int64_t col : columns.sin_column) {
      if (col < 0) continue;
      out_.rounded.set(row, col, -out_.rounded.at(row, col));
      DoubleDouble& exact = out_.exact[static_cast<std::size_t>(row * request_.dim + col)];
      exact = {-exact.hi, -exact.lo};
    }
  }

  void store_decided(std::int64_t row, std::int64_t col, double rounded, double exact_hi, double exact_lo) {
    out_.rounded.set(row, col, rounded);
    out_.exact[static_cast<std::size_t>(row * request_.dim + col)] = {exact_hi, exact_lo};
  }

  int store(std::int64_t row, std::int64_t col, const EntryResult& result) {
    out_.rounded.set(row, col, result.rounded);
    out_.exact[static_cast<std::size_t>(row * request_.dim + col)] = result.exact;
    return result.escalated ? 1 : 0;
  }

  const Convention& convention_;
  const TableRequest& request_;
  const Format& format_;
  mpfr_prec_t first_precision_;
  FirstStep first_step_;
  ReferenceTable& out_;
  std::atomic<std::int64_t> next_row_{0};
  std::atomic<std::int64_t> escalations_{0};
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
                                     int threads, mpfr_prec_t first_precision, FirstStep first_step) {
  check_request(convention, request);
  check_frequency_rule(convention);
  const int workers = worker_count(threads, request.rows);

  ReferenceTable out;
  out.rounded = make_table(request.rows, request.dim, format.id);
  out.exact.assign(static_cast<std::size_t>(request.rows * request.dim), DoubleDouble{});

  TableJob job(convention, request, format, first_precision, first_step, out);
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
  return out;
}

}  // namespace pecheck::reference
