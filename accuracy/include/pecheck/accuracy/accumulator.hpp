// The one accumulator: values compared with their exact values row by row,
// into max and RMS ULP, max abs error, a histogram, the worst entries and the
// counts beyond a budget (and beyond an allowance). Accumulators merge, and
// the result is the same whatever the split of the rows, the order they came
// in, and the order of the merges: counts are integers, the squares go into
// an OrderFreeSum (each row's squares summed in a fixed order first), and
// every kept entry is chosen by a total order (the larger figure, then the
// smaller key), never by which part came first. So one pass, any number of
// worker threads, and shards merged in any order give the same bits.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pecheck/accuracy/allowance.hpp"
#include "pecheck/accuracy/compared_entry.hpp"
#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/accuracy/order_free_sum.hpp"
#include "pecheck/accuracy/ulp_kernel.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/double_double.hpp"
#include "pecheck/table.hpp"

namespace pecheck::accuracy {

// How a zero of the wrong sign counts. A typed mismatch, as everywhere the
// design speaks of errors; a rotary cache only multiplies by its values,
// where -0 and +0 rotate alike, so its comparison counts it as equal (0 ULP).
enum class SignedZero { mismatch, equal };

// Everything an accumulator has gathered: plain data, so that it can be
// written out and read back (a sweep's shard files) and compared.
struct Tally {
  std::int64_t entries = 0;
  std::int64_t mismatches = 0;             // typed mismatches: apart from the ULP figures
  std::int64_t signed_zeros = 0;           // of those, zeros of the wrong sign (|error| 0; the others' is infinite)
  std::int64_t beyond_budget = 0;          // measured entries with ulps above the budget
  OrderFreeSum sum_squares;                // of the measured entries' ulps
  std::optional<ComparedEntry> worst;      // the largest ulps
  std::optional<ComparedEntry> worst_abs;  // the largest |error| among the measured entries
  std::optional<ComparedEntry> first_mismatch;  // the typed mismatch with the smallest key
  std::optional<ComparedEntry> nearest_zero;    // the measured entry with the smallest nonzero |exact.hi|
  std::vector<std::int64_t> histogram;  // counts in the bins of ulp_histogram_edges() (or empty: HistogramCounting)
  // The largest bit pattern of |value| added: magnitudes order as their
  // patterns, infinity and NaN above every finite value.
  std::uint64_t largest_value_bits = 0;
  // The allowance's check (with an allowance): entries beyond the budget
  // that are beyond its bound too, and the largest |error| / bound.
  std::int64_t beyond_bound = 0;
  std::optional<ComparedEntry> worst_ratio_entry;
  double worst_ratio = 0.0;
  double worst_ratio_bound = 0.0;

  std::int64_t measured() const { return entries - mismatches; }
  // sqrt(sum of squares / measured), 0 when nothing was measured.
  double rms_ulp() const;
  double max_ulp() const { return worst ? worst->error.ulps : 0.0; }
  // Over every entry, typed mismatches included (infinite for a NaN or an infinity).
  double max_abs_error() const;
  // Whether every value added is finite and in [-1, 1], as sin and cos are.
  bool values_in_unit_interval() const;

  bool operator==(const Tally&) const = default;
};

// tally := tally's entries and part's together (the same for any order).
void merge_into(Tally& tally, const Tally& part);

// A row handed by its distinct entries (a rotary cache holds each
// frequency's value in two columns; where both copies of a row are equal,
// one is measured): entry e is column `column[e]` and stands for `copies`
// entries of its value and exact value. Every count and sum takes each
// copy; a kept entry is entry e at column[e], so column[e] must be the
// smallest column of its copies (of equal figures the smallest key is kept,
// and the other copies' keys are larger). The caller promises that the
// copies have the same value, exact value and allowance bound (a bound
// that depends on the column only through the frequency). Empty `column`:
// entry e is column e, one copy.
struct RowColumns {
  std::span<const std::int64_t> column;
  std::int64_t copies = 1;
  // The accumulator's allowance's plan_columns(column), made once for the
  // rows of these columns (Allowance::row_bounds); null: none.
  const ColumnsPlan* plan = nullptr;
};

// Whether an accumulator counts the histogram of ulps. A comparison whose
// histogram no output shows (`pecheck validate` without a report) leaves it
// out: its rows' passes then count the budget alone (row_ulp_budget), and
// its tally's and measurement's histograms are empty.
enum class HistogramCounting { counted, left_out };

// Maps a row the accumulator was given to the position it holds.
using RowPosition = std::function<std::int64_t(std::int64_t row)>;

class Accumulator {
 public:
  // Entries are judged in `format` against `budget_ulp`; beyond it, against
  // `allowance` when given (it must outlive the accumulator).
  Accumulator(FormatId format, double budget_ulp, const Allowance* allowance = nullptr,
              SignedZero signed_zero = SignedZero::mismatch, HistogramCounting histogram = HistogramCounting::counted);

  // Row `row` of table `table` (EntryKey): values[e] against exact[e], column
  // e (or as `columns` says).
  void add_row(std::int64_t row, std::span<const double> values, std::span<const DoubleDouble> exact,
               std::int64_t table = 0, const RowColumns& columns = {});
  void add_row(std::int64_t row, std::span<const float> values, std::span<const DoubleDouble> exact,
               std::int64_t table = 0, const RowColumns& columns = {});
  // Exact values that are plain doubles (every lo zero), handed as such: half
  // the bytes to read.
  void add_row(std::int64_t row, std::span<const double> values, std::span<const double> exact, std::int64_t table = 0,
               const RowColumns& columns = {});
  void add_row(std::int64_t row, std::span<const float> values, std::span<const double> exact, std::int64_t table = 0,
               const RowColumns& columns = {});
  // Row `table_row` of a stored table (16-bit formats decoded exactly), keyed `row`.
  void add_row(const TableView& values, std::int64_t table_row, std::int64_t row, std::span<const DoubleDouble> exact,
               std::int64_t table = 0);
  void add_row(const TableView& values, std::int64_t table_row, std::int64_t row, std::span<const double> exact,
               std::int64_t table = 0);

  // This accumulator's entries and other's together (same format, budget and allowance).
  void merge(const Accumulator& other);

  const Tally& tally() const { return tally_; }
  FormatId format() const { return format_; }
  double budget_ulp() const { return budget_ulp_; }

  // The statistics as a Measurement, its worst inputs placed by `position`
  // (for the convention overload: the convention row's position).
  Measurement measurement(const RowPosition& position, std::string budget_source, std::int64_t escalations) const;
  Measurement measurement(const Convention& convention, std::string budget_source, std::int64_t escalations) const;

 private:
  // A row's work (add_values and what it calls), compiled once per
  // instruction-set variant (accuracy/src/accumulator_kernels.hpp).
  friend struct AccumulatorRows;
  template <typename Value, typename Exact>
  void add_values(std::span<const Value> values, std::span<const Exact> exact, std::int64_t row, std::int64_t table,
                  const RowColumns& columns);
  void add_scalar(const ComparedEntry& entry);
  void judge_beyond(const ComparedEntry& entry);
  template <typename Exact>
  std::span<const double> row_bounds(std::int64_t row, const RowColumns& columns, std::span<const Exact> exact);
  template <typename EntryAt>
  void keep_worst_ratio(std::size_t n, const EntryAt& entry_at);

  FormatId format_;
  double budget_ulp_;
  const Allowance* allowance_;
  SignedZero signed_zero_;
  std::array<double, 5> thresholds_{};  // the first four histogram edges, then the budget
  // Every histogram edge but the last (infinity), then the budget: a judged row's.
  std::array<double, judged_thresholds> judged_thresholds_{};
  std::vector<double> edges_;
  Tally tally_;
  // A row's values and errors, reused row after row.
  std::vector<float> decoded_;  // a 16-bit row, as float32 (exactly)
  std::vector<double> ulps_, abs_;
  std::vector<double> exact_hi_, bounds_;  // a judged row's (row_bounds)
  std::vector<unsigned char> common_;
  bool last_row_beyond_ = false;  // the last row had an entry beyond the budget (add_values)
};

}  // namespace pecheck::accuracy
