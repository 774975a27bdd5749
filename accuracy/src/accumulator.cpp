#include "pecheck/accuracy/accumulator.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "accumulator_kernels.hpp"
#include "kept_entries.hpp"
#include "pecheck/accuracy/measure.hpp"

namespace pecheck::accuracy {

namespace {

// The bin of ulps: the first edge at or above it (the last bin for a NaN).
std::size_t histogram_bin(const std::vector<double>& edges, double ulps) {
  const auto bin = std::lower_bound(edges.begin(), edges.end(), ulps);
  return static_cast<std::size_t>(
      std::min<std::ptrdiff_t>(bin - edges.begin(), static_cast<std::ptrdiff_t>(edges.size()) - 1));
}

}  // namespace

Accumulator::Accumulator(FormatId format, double budget_ulp, const Allowance* allowance, SignedZero signed_zero,
                         HistogramCounting histogram)
    : format_(format),
      budget_ulp_(budget_ulp),
      allowance_(allowance),
      signed_zero_(signed_zero),
      edges_(ulp_histogram_edges()) {
  for (std::size_t k = 0; k < 4; ++k) thresholds_[k] = edges_[k];
  thresholds_[4] = budget_ulp;
  if (edges_.size() != judged_thresholds || !std::isinf(edges_.back())) {
    throw std::logic_error("Accumulator: a judged row counts every histogram edge but a last infinite one");
  }
  for (std::size_t k = 0; k + 1 < edges_.size(); ++k) judged_thresholds_[k] = edges_[k];
  judged_thresholds_[judged_thresholds - 1] = budget_ulp;
  if (histogram == HistogramCounting::counted) tally_.histogram.assign(edges_.size(), 0);
}

void Accumulator::judge_beyond(const ComparedEntry& entry) {
  ++tally_.beyond_budget;
  if (allowance_ == nullptr) return;
  const AllowanceDecision decision = judge(*allowance_, entry.key.row, entry.key.column, entry.exact, entry.abs_error);
  if (!decision.admitted) ++tally_.beyond_bound;
  if (!tally_.worst_ratio_entry || decision.ratio > tally_.worst_ratio ||
      (decision.ratio == tally_.worst_ratio && entry.key < tally_.worst_ratio_entry->key)) {
    tally_.worst_ratio = decision.ratio;
    tally_.worst_ratio_bound = decision.bound;
    tally_.worst_ratio_entry = entry;
  }
}

// An entry the kernel leaves to the scalar metric (zeros, non-finite values,
// exact values out of its range).
void Accumulator::add_scalar(const ComparedEntry& entry) {
  const bool signed_zero = entry.error.mismatch == Mismatch::signed_zero;
  if (entry.error.mismatch != Mismatch::none && !(signed_zero && signed_zero_ == SignedZero::equal)) {
    ++tally_.mismatches;
    if (signed_zero) ++tally_.signed_zeros;
    keep(tally_.first_mismatch, entry, no_size);
    return;
  }
  const double ulps = entry.error.ulps;
  tally_.sum_squares.add(ulps * ulps);
  if (!tally_.histogram.empty()) ++tally_.histogram[histogram_bin(edges_, ulps)];
  keep(tally_.worst, entry, ulps_of);
  keep(tally_.worst_abs, entry, abs_error_of);
  if (entry.exact.hi != 0.0) keep(tally_.nearest_zero, entry, closeness_to_zero);
  if (ulps > budget_ulp_) judge_beyond(entry);
}

// A row's work is the selected instruction-set variant's (accumulator_kernels.hpp).
void Accumulator::add_row(std::int64_t row, std::span<const double> values, std::span<const DoubleDouble> exact,
                          std::int64_t table, const RowColumns& columns) {
  accumulator_kernels().double_against_double_double(*this, row, values, exact, table, columns);
}
void Accumulator::add_row(std::int64_t row, std::span<const float> values, std::span<const DoubleDouble> exact,
                          std::int64_t table, const RowColumns& columns) {
  accumulator_kernels().float_against_double_double(*this, row, values, exact, table, columns);
}
void Accumulator::add_row(std::int64_t row, std::span<const double> values, std::span<const double> exact,
                          std::int64_t table, const RowColumns& columns) {
  accumulator_kernels().double_against_double(*this, row, values, exact, table, columns);
}
void Accumulator::add_row(std::int64_t row, std::span<const float> values, std::span<const double> exact,
                          std::int64_t table, const RowColumns& columns) {
  accumulator_kernels().float_against_double(*this, row, values, exact, table, columns);
}

namespace {

template <typename Exact>
void add_table_row(Accumulator& accumulator, std::vector<float>& decoded, const TableView& table,
                   std::int64_t table_row, std::int64_t row, std::span<const Exact> exact, std::int64_t key_table) {
  if (table.format() == FormatId::float32) {
    accumulator.add_row(row, table.row<float>(table_row), exact, key_table);
    return;
  }
  if (table.format() == FormatId::float64) {
    accumulator.add_row(row, table.row<double>(table_row), exact, key_table);
    return;
  }
  // The 16-bit formats, decoded exactly into float32 (both are subsets of
  // it: bfloat16 is float32's top half) and measured by the float32 path,
  // as a float32 table holding their values is (the same numbers).
  const std::span<const std::uint16_t> bits = table.row<std::uint16_t>(table_row);
  decoded.resize(bits.size());
  if (table.format() == FormatId::bfloat16) {
    for (std::size_t c = 0; c < bits.size(); ++c) decoded[c] = std::bit_cast<float>(std::uint32_t{bits[c]} << 16);
  } else {
    for (std::size_t c = 0; c < bits.size(); ++c) decoded[c] = static_cast<float>(float16_bits_to_double(bits[c]));
  }
  accumulator.add_row(row, std::span<const float>(decoded), exact, key_table);
}

}  // namespace

void Accumulator::add_row(const TableView& values, std::int64_t table_row, std::int64_t row,
                          std::span<const DoubleDouble> exact, std::int64_t table) {
  add_table_row(*this, decoded_, values, table_row, row, exact, table);
}
void Accumulator::add_row(const TableView& values, std::int64_t table_row, std::int64_t row,
                          std::span<const double> exact, std::int64_t table) {
  add_table_row(*this, decoded_, values, table_row, row, exact, table);
}

void Accumulator::merge(const Accumulator& other) { merge_into(tally_, other.tally_); }

Measurement Accumulator::measurement(const RowPosition& position, std::string budget_source,
                                     std::int64_t escalations) const {
  const Format& format = format_of(format_);
  Measurement m;
  m.format = format_;
  m.budget_ulp = budget_ulp_;
  m.budget_source = std::move(budget_source);
  if (!tally_.histogram.empty()) m.ulp_histogram = {edges_, tally_.histogram};
  m.entries = tally_.entries;
  m.beyond_budget = tally_.beyond_budget;
  m.mismatches = tally_.mismatches;
  m.max_ulp = tally_.max_ulp();
  m.max_abs_error = tally_.max_abs_error();
  m.reference_escalations = escalations;
  m.rms_ulp = tally_.rms_ulp();
  if (tally_.worst) m.worst = worst_input(*tally_.worst, position(tally_.worst->key.row), format);
  if (tally_.nearest_zero) {
    m.nearest_zero = worst_input(*tally_.nearest_zero, position(tally_.nearest_zero->key.row), format);
  }
  if (allowance_ != nullptr) {
    m.abs_bound = empty_bound_check(*allowance_);
    AbsoluteBoundCheck& check = *m.abs_bound;
    check.beyond_ulp = tally_.beyond_budget;
    check.beyond_bound = tally_.beyond_bound;
    if (tally_.worst_ratio_entry) {
      const ComparedEntry& w = *tally_.worst_ratio_entry;
      check.worst_ratio = tally_.worst_ratio;
      check.worst_ulp = w.error.ulps;
      check.worst_bound = tally_.worst_ratio_bound;
      check.worst = worst_input(w, position(w.key.row), format);
    }
  }
  return m;
}

Measurement Accumulator::measurement(const Convention& convention, std::string budget_source,
                                     std::int64_t escalations) const {
  return measurement([&](std::int64_t row) { return position_of_row(convention, row); }, std::move(budget_source),
                     escalations);
}

}  // namespace pecheck::accuracy
