#include "entry_evaluator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "enclosure_decision.hpp"
#include "pecheck/parallel_for.hpp"

namespace pecheck::reference {

namespace {

// Bits of w beyond the working precision. The enclosure of w is about
// 2^(6 - bits) w wide (frequency_enclosure.cpp), so theta = p w is known to
// |p| w 2^(6 - P - guard) <= 2^(30 - P - guard) for |p| w <= 2^24: with 40
// guard bits the argument costs 2^(-P - 10), under the sin/cos rounding.
constexpr mpfr_prec_t frequency_guard_bits = 40;
// theta = p * value(w) is held exactly: |p| < 2^63 has at most 63 bits.
constexpr mpfr_prec_t position_bits = 64;
// Error bounds only need to bound: one limb, always rounded up.
constexpr mpfr_prec_t error_bits = 64;
// Positions beyond this would not fit position_bits exactly.
constexpr std::int64_t max_position_magnitude = std::int64_t{1} << 62;

bool same_term(const FrequencyTerm& a, const FrequencyTerm& b) {
  return a.log_numerator == b.log_numerator && a.log_denominator == b.log_denominator && a.k == b.k && a.m == b.m &&
         a.divisor == b.divisor && a.multiplier == b.multiplier;
}

// The first step's frequencies of a table's terms, kept for the last few
// term sets. Each is an MPFR enclosure (steps_frequency.cpp), about 10 us,
// so a width of 1024 costs 5 ms, and validate makes an evaluator per worker
// for every pass of 2^22 entries: 16 times over for a 32768 x 1024 table.
// A frequency depends on its term alone, so a kept one is the same bits.
std::shared_ptr<const std::vector<StepsFrequency>> remembered_steps_frequencies(const std::vector<FrequencyTerm>& terms) {
  constexpr std::size_t kept_sets = 8;
  using Kept = std::shared_ptr<const std::vector<StepsFrequency>>;
  static std::mutex mutex;
  static std::deque<std::pair<std::vector<FrequencyTerm>, Kept>> kept;
  const auto find_kept = [&terms]() -> Kept {
    const std::lock_guard<std::mutex> lock(mutex);
    for (const auto& [known, frequencies] : kept) {
      if (std::equal(known.begin(), known.end(), terms.begin(), terms.end(), same_term)) return frequencies;
    }
    return nullptr;
  };
  if (Kept found = find_kept()) return found;
  // One set computed at a time, split across the cores: the workers of a
  // table all ask for the same set at once, and each computing it whole took
  // as long as one does (5 ms at width 1024) with the work done twice.
  static std::mutex computing;
  const std::lock_guard<std::mutex> computing_lock(computing);
  if (Kept found = find_kept()) return found;  // computed while this caller waited
  auto computed = std::make_shared<std::vector<StepsFrequency>>(terms.size());
  constexpr std::size_t terms_per_worker = 64;  // below that, a thread costs more than it saves
  const std::size_t wanted = (terms.size() + terms_per_worker - 1) / terms_per_worker;
  const int workers = worker_count(0, static_cast<std::int64_t>(wanted));
  parallel_for(workers, [&](int worker) {
    for (auto i = static_cast<std::size_t>(worker); i < terms.size(); i += static_cast<std::size_t>(workers)) {
      (*computed)[i] = steps_frequency(terms[i]);
    }
    // MPFR keeps constants (pi, log 2) per thread; free a helper thread's.
    if (worker != 0) mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
  });
  const std::lock_guard<std::mutex> lock(mutex);
  kept.emplace_front(terms, computed);
  if (kept.size() > kept_sets) kept.pop_back();
  return computed;
}

}  // namespace

bool decide_from_first_step(DoubleWord value, double error, EntryQuery& query, EntryResult& result) {
  if (query.format != nullptr) {
    if (const std::optional<double> rounded = decided_rounding(value, error, *query.format)) {
      result.rounded = *rounded;
      query.format = nullptr;
    }
  }
  if (query.exact && good_as_exact(value, error)) {
    result.exact = {value.hi, value.lo};
    query.exact = false;
  }
  return query.format == nullptr && !query.exact;
}

struct EntryEvaluator::Level {
  Level(mpfr_prec_t bits, std::int64_t frequency_count)
      : precision(bits),
        frequencies(static_cast<std::size_t>(frequency_count)),
        theta(make_real(bits + frequency_guard_bits + position_bits)),
        theta_radius(make_real(error_bits)),
        sin(make_real(bits)),
        cos(make_real(bits)),
        sin_error(make_real(error_bits)),
        cos_error(make_real(error_bits)),
        lower(make_real(bits)),
        upper(make_real(bits)) {}

  mpfr_prec_t precision;  // of sin and cos
  std::vector<std::unique_ptr<FrequencyEnclosure>> frequencies;  // filled on first use
  Real theta;         // p * value(w_i), exact
  Real theta_radius;  // |p| * radius(w_i), rounded up: |theta - p w_i| <= theta_radius
  Real sin, cos;      // RN_P(sin theta), RN_P(cos theta)
  Real sin_error, cos_error;  // bounds on |sin - sin(p w_i)|, |cos - cos(p w_i)|
  Real lower, upper;  // the enclosure of the exact value being decided
};

EntryEvaluator::EntryEvaluator(const Convention& convention, std::int64_t dim, mpfr_prec_t first_precision,
                               FirstStep first_step)
    : convention_(convention),
      dim_(dim),
      columns_(column_layout(convention, dim)),
      frequency_count_(pecheck::frequency_count(convention, dim)),
      first_precision_(first_precision),
      first_step_(first_step),
      steps_frequencies_(static_cast<std::size_t>(frequency_count_)),
      steps_frequency_ready_(static_cast<std::size_t>(frequency_count_), false),
      float64_format_{FormatId::float64, "float64", 53, -1022, 1023, 64} {
  check_frequency_rule(convention);
  if (first_precision < 8 || first_precision > max_working_precision) {
    throw std::invalid_argument("first working precision " + std::to_string(first_precision) +
                                " bits is outside [8, " + std::to_string(max_working_precision) + "]");
  }
}

EntryEvaluator::~EntryEvaluator() = default;

EntryEvaluator::Level& EntryEvaluator::level(std::size_t index) {
  while (levels_.size() <= index) {
    const mpfr_prec_t bits = first_precision_ << levels_.size();
    if (bits > max_working_precision) {
      throw std::logic_error("reference: the rounding of an entry is still undecided at " +
                             std::to_string(max_working_precision) +
                             " bits; the error bound or the rounding is wrong (this is a bug)");
    }
    levels_.push_back(std::make_unique<Level>(bits, frequency_count_));
  }
  return *levels_[index];
}

const FrequencyEnclosure& EntryEvaluator::frequency(Level& level, std::int64_t index) {
  std::unique_ptr<FrequencyEnclosure>& slot = level.frequencies[static_cast<std::size_t>(index)];
  if (!slot) {
    slot = std::make_unique<FrequencyEnclosure>(
        enclose_frequency(frequency_term(convention_, dim_, index), level.precision + frequency_guard_bits));
  }
  return *slot;
}

// The error bound at working precision P, from MPFR's correct rounding:
//   theta:  value(w) * p is exact (theta has P + guard + 64 bits), so
//           |theta - p w| <= |p| radius(w)                       (theta_radius)
//   sin:    s = RN_P(sin theta). Round to nearest with a P-bit significand
//           is off by at most half an ulp, 2^(e-P) for 2^e <= |s|, so
//           |s - sin theta| <= 2^-P |s|; and sin is 1-Lipschitz, so
//           |sin theta - sin(p w)| <= |theta - p w|.
//   total:  |s - sin(p w)| <= 2^-P |s| + theta_radius, the same for cos.
// The argument loses nothing to |p| up to 2^24 because w carries 40 guard
// bits and the product is exact; without them ~30 bits would be lost.
void EntryEvaluator::evaluate(Level& level, std::int64_t position, std::int64_t frequency_index) {
  const FrequencyEnclosure& w = frequency(level, frequency_index);
  mpfr_mul_si(raw(level.theta), raw(w.value), static_cast<long>(position), MPFR_RNDN);
  mpfr_mul_ui(raw(level.theta_radius), raw(w.radius), static_cast<unsigned long>(std::llabs(position)), MPFR_RNDU);
  mpfr_sin_cos(raw(level.sin), raw(level.cos), raw(level.theta), MPFR_RNDN);

  mpfr_abs(raw(level.sin_error), raw(level.sin), MPFR_RNDU);
  mpfr_mul_2si(raw(level.sin_error), raw(level.sin_error), -level.precision, MPFR_RNDU);
  mpfr_add(raw(level.sin_error), raw(level.sin_error), raw(level.theta_radius), MPFR_RNDU);
  mpfr_abs(raw(level.cos_error), raw(level.cos), MPFR_RNDU);
  mpfr_mul_2si(raw(level.cos_error), raw(level.cos_error), -level.precision, MPFR_RNDU);
  mpfr_add(raw(level.cos_error), raw(level.cos_error), raw(level.theta_radius), MPFR_RNDU);
}

// Decided when every value in [value - error, value + error] gives the same
// answer. Rounding is monotone, so the two ends rounding alike suffices.
bool EntryEvaluator::decide(Level& level, mpfr_srcptr value, mpfr_ptr error, const EntryQuery& query,
                            EntryResult& result) {
  mpfr_sub(raw(level.lower), value, error, MPFR_RNDD);
  mpfr_add(raw(level.upper), value, error, MPFR_RNDU);
  if (query.format != nullptr) {
    const double low = round_to_format(raw(level.lower), *query.format, rounding_);
    const double high = round_to_format(raw(level.upper), *query.format, rounding_);
    if (low != high || std::signbit(low) != std::signbit(high)) return false;
    result.rounded = low;
  }
  if (query.exact) {
    // The exact value as the double-double nearest to it: hi = RN(x) and
    // lo = RN(x - hi) in float64, each decided like any rounding. Then
    // |x - hi - lo| <= 2^-54 |x - hi| <= 2^-108 |x|, and the pair does not
    // depend on the precision that decided it (nor on the thread).
    const double hi = round_to_format(raw(level.lower), float64_format_, rounding_);
    if (hi != round_to_format(raw(level.upper), float64_format_, rounding_)) return false;
    // Both ends lie within half an ulp of hi, and they and hi are multiples of
    // the ends' last bit, so the differences fit in P bits: exact.
    const int inexact_lower = mpfr_sub_d(raw(level.lower), raw(level.lower), hi, MPFR_RNDN);
    const int inexact_upper = mpfr_sub_d(raw(level.upper), raw(level.upper), hi, MPFR_RNDN);
    if (inexact_lower != 0 || inexact_upper != 0) {
      throw std::logic_error("reference: subtracting the leading double was inexact (this is a bug)");
    }
    const double lo = round_to_format(raw(level.lower), float64_format_, rounding_);
    const double lo_upper = round_to_format(raw(level.upper), float64_format_, rounding_);
    if (lo != lo_upper || std::signbit(lo) != std::signbit(lo_upper)) return false;
    result.exact = {hi, lo};
  }
  return true;
}

void EntryEvaluator::sin_cos(std::int64_t position, std::int64_t frequency_index, bool want_sin, bool want_cos,
                             const EntryQuery& query, EntryResult& sin_result, EntryResult& cos_result) {
  sin_result = EntryResult{};
  cos_result = EntryResult{};
  if (position < 0) {
    // sin(-x) = -sin(x), cos(-x) = cos(x); negation is exact and rounding to
    // nearest even is symmetric, so the correctly rounded value at -p is the
    // one at p with sin's sign flipped, and so is the nearest double-double.
    sin_cos(-position, frequency_index, want_sin, want_cos, query, sin_result, cos_result);
    sin_result.rounded = -sin_result.rounded;
    sin_result.exact = {-sin_result.exact.hi, -sin_result.exact.lo};
    return;
  }
  if (position == 0) {
    // sin 0 = +0 and cos 0 = 1 exactly, in every format.
    cos_result.rounded = 1.0;
    cos_result.exact = {1.0, 0.0};
    return;
  }
  if (position >= max_position_magnitude || position <= -max_position_magnitude) {
    throw ConventionError("position " + std::to_string(position) + " is beyond the reference's range (|p| < 2^62)");
  }
  bool need_sin = want_sin;
  bool need_cos = want_cos;
  EntryQuery sin_query = query;
  EntryQuery cos_query = query;
  bool first_step_tried = false;
  if (const StepsFrequency* steps = steps_frequency(frequency_index, position)) {
    const SinCosEnclosure enclosure = first_step_sin_cos(position, *steps);
    if (need_sin) need_sin = !decide_from_first_step(enclosure.sin_value, enclosure.sin_error, sin_query, sin_result);
    if (need_cos) need_cos = !decide_from_first_step(enclosure.cos_value, enclosure.cos_error, cos_query, cos_result);
    sin_result.escalated = need_sin;
    cos_result.escalated = need_cos;
    first_step_tried = true;
  }
  for (std::size_t k = 0; need_sin || need_cos; ++k) {
    Level& current = level(k);
    evaluate(current, position, frequency_index);
    if (need_sin && decide(current, raw(current.sin), raw(current.sin_error), sin_query, sin_result)) need_sin = false;
    if (need_cos && decide(current, raw(current.cos), raw(current.cos_error), cos_query, cos_result)) need_cos = false;
    if (k == 0 && !first_step_tried) {
      sin_result.escalated = need_sin;
      cos_result.escalated = need_cos;
    }
  }
}

const StepsFrequencies* EntryEvaluator::row_frequencies(std::int64_t position) {
  if (first_step_ != FirstStep::double_word) return nullptr;
  if (!row_frequencies_) {
    std::vector<FrequencyTerm> terms;
    terms.reserve(static_cast<std::size_t>(frequency_count_));
    for (std::int64_t i = 0; i < frequency_count_; ++i) terms.push_back(frequency_term(convention_, dim_, i));
    steps_frequencies_ = *remembered_steps_frequencies(terms);
    steps_frequency_ready_.assign(steps_frequencies_.size(), true);
    row_frequencies_ = std::make_unique<StepsFrequencies>(steps_frequencies_);
  }
  return first_step_applies_to_row(position, *row_frequencies_) ? row_frequencies_.get() : nullptr;
}

// The first step's frequency, or null when the first step is off or its
// bound does not cover this position and frequency.
const StepsFrequency* EntryEvaluator::steps_frequency(std::int64_t index, std::int64_t position) {
  if (first_step_ != FirstStep::double_word) return nullptr;
  const auto slot = static_cast<std::size_t>(index);
  if (!steps_frequency_ready_[slot]) {
    steps_frequencies_[slot] = pecheck::reference::steps_frequency(frequency_term(convention_, dim_, index));
    steps_frequency_ready_[slot] = true;
  }
  const StepsFrequency& steps = steps_frequencies_[slot];
  return first_step_applies(position, steps) ? &steps : nullptr;
}

void EntryEvaluator::enclose(std::int64_t position, std::int64_t frequency_index, std::size_t level_index,
                             ColumnKind kind, Real& value, Real& error) {
  Level& current = level(level_index);
  evaluate(current, position, frequency_index);
  const bool is_sin = kind == ColumnKind::sin;
  mpfr_set_prec(raw(value), current.precision);
  mpfr_set(raw(value), raw(is_sin ? current.sin : current.cos), MPFR_RNDN);  // exact: same precision
  mpfr_set_prec(raw(error), error_bits);
  mpfr_set(raw(error), raw(is_sin ? current.sin_error : current.cos_error), MPFR_RNDN);
}

void EntryEvaluator::enclose_sin_cos(std::int64_t position, std::int64_t frequency_index, std::size_t level_index,
                                     Real& sin_value, Real& sin_error, Real& cos_value, Real& cos_error) {
  Level& current = level(level_index);
  evaluate(current, position, frequency_index);
  for (Real* value : {&sin_value, &cos_value}) mpfr_set_prec(raw(*value), current.precision);
  for (Real* error : {&sin_error, &cos_error}) mpfr_set_prec(raw(*error), error_bits);
  mpfr_set(raw(sin_value), raw(current.sin), MPFR_RNDN);  // exact: same precisions
  mpfr_set(raw(cos_value), raw(current.cos), MPFR_RNDN);
  mpfr_set(raw(sin_error), raw(current.sin_error), MPFR_RNDN);
  mpfr_set(raw(cos_error), raw(current.cos_error), MPFR_RNDN);
}

EntryResult EntryEvaluator::entry(std::int64_t row, std::int64_t col, const EntryQuery& query) {
  if (col < 0 || col >= dim_) {
    throw ConventionError("column " + std::to_string(col) + " is outside [0, " + std::to_string(dim_) +
                          ") for --dim " + std::to_string(dim_));
  }
  const ColumnSpec& column = columns_[static_cast<std::size_t>(col)];
  // Zero rows and zero columns are +0 exactly; the default result is that.
  if (column.kind == ColumnKind::zero || is_zero_row(convention_, row)) return EntryResult{};

  EntryResult wanted;
  EntryResult other;
  const std::int64_t position = position_of_row(convention_, row);
  if (column.kind == ColumnKind::sin) {
    sin_cos(position, column.frequency_index, true, false, query, wanted, other);
  } else {
    sin_cos(position, column.frequency_index, false, true, query, other, wanted);
  }
  return wanted;
}

}  // namespace pecheck::reference
