// Ziv's strategy for one encoding entry: evaluate with a rigorous error
// bound, and raise the precision until the bound decides what is asked for.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "first_step.hpp"
#include "format_rounding.hpp"
#include "frequency_enclosure.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/double_double.hpp"
#include "pecheck/format.hpp"
#include "real.hpp"

namespace pecheck::reference {

// First working precision, in bits: two 64-bit limbs, about twice what any
// format needs. The error bound is then about 2^-128 relative, so a float64
// rounding (half-ulp ~2^-54) is undecided for about one entry in 2^73, and
// the low half of an exact value (half-ulp ~2^-108) for about one in 2^20:
// tables rarely evaluate an entry twice.
inline constexpr mpfr_prec_t default_first_precision = 128;
// Working precisions double up to this; reaching it means a bug, since the
// exact values are transcendental and never sit on a rounding boundary.
inline constexpr mpfr_prec_t max_working_precision = mpfr_prec_t{1} << 16;

// What to decide for an entry: its rounding to `format` (unless null) and/or
// its exact value as the nearest double-double (hi = RN(x), lo = RN(x - hi)),
// within 2^-108 |x|: the 2^-100 exact_value promises, with room to spare.
struct EntryQuery {
  const Format* format = nullptr;
  bool exact = false;
};

struct EntryResult {
  double rounded = 0.0;        // when a format was asked for
  DoubleDouble exact;          // when exact was asked for
  bool escalated = false;      // the first try (first step, or else first precision) did not decide it
};

// How an entry is tried first. `double_word`: the first step (first_step.cpp),
// MPFR's Ziv loop only for what it leaves undecided; its exact values are
// within 2^-100 relative, no longer always the nearest double-double.
// `none`: the Ziv loop alone, exact values always the nearest double-double.
enum class FirstStep { none, double_word };

// Takes from a first-step enclosure what it decides (the rounding, the exact
// value), leaves in `query` only what is still to decide; true when nothing is.
bool decide_from_first_step(DoubleWord value, double error, EntryQuery& query, EntryResult& result);

// One evaluator per thread: it owns the MPFR variables and the frequency
// cache, and allocates nothing per entry once warm.
class EntryEvaluator {
 public:
  EntryEvaluator(const Convention& convention, std::int64_t dim,
                 mpfr_prec_t first_precision = default_first_precision, FirstStep first_step = FirstStep::none);
  ~EntryEvaluator();
  EntryEvaluator(const EntryEvaluator&) = delete;
  EntryEvaluator& operator=(const EntryEvaluator&) = delete;

  const std::vector<ColumnSpec>& columns() const { return columns_; }
  std::int64_t frequency_count() const { return frequency_count_; }

  // The entry at table row `row` (the convention's row: zero rows apply) and column `col`.
  EntryResult entry(std::int64_t row, std::int64_t col, const EntryQuery& query);

  // sin(p w_i) and cos(p w_i) from one evaluation per precision; `want_sin`
  // and `want_cos` say which of the two to decide.
  void sin_cos(std::int64_t position, std::int64_t frequency, bool want_sin, bool want_cos, const EntryQuery& query,
               EntryResult& sin_result, EntryResult& cos_result);

  // Every frequency of the table for the row-wide cheap tiers (row_tiers.hpp),
  // or null when the first step is off or its bound does not cover every
  // frequency at this position (then sin_cos decides entry by entry).
  const StepsFrequencies* row_frequencies(std::int64_t position);

  // sin(p w_i) or cos(p w_i) as evaluated at working precision
  // first_precision << level_index, with the error bound the decisions use
  // (|value - exact| <= error); for tests of the bound itself.
  void enclose(std::int64_t position, std::int64_t frequency, std::size_t level_index, ColumnKind kind, Real& value,
               Real& error);
  // Both from one evaluation, for tests that check many entries.
  void enclose_sin_cos(std::int64_t position, std::int64_t frequency, std::size_t level_index, Real& sin_value,
                       Real& sin_error, Real& cos_value, Real& cos_error);

 private:
  struct Level;
  Level& level(std::size_t index);
  const FrequencyEnclosure& frequency(Level& level, std::int64_t index);
  void evaluate(Level& level, std::int64_t position, std::int64_t frequency);
  bool decide(Level& level, mpfr_srcptr value, mpfr_ptr error, const EntryQuery& query, EntryResult& result);
  const StepsFrequency* steps_frequency(std::int64_t index, std::int64_t position);

  Convention convention_;
  std::int64_t dim_;
  std::vector<ColumnSpec> columns_;
  std::int64_t frequency_count_;
  mpfr_prec_t first_precision_;
  FirstStep first_step_;
  std::vector<StepsFrequency> steps_frequencies_;  // for the first step, filled on first use
  std::vector<bool> steps_frequency_ready_;
  std::unique_ptr<StepsFrequencies> row_frequencies_;  // every frequency, on the first row_frequencies
  std::vector<std::unique_ptr<Level>> levels_;  // levels_[k] works at first_precision << k
  RoundingScratch rounding_;
  Format float64_format_;  // the format of both halves of an exact value
};

}  // namespace pecheck::reference
