#include "pecheck/reference/rotated_reference.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "enclosure_decision.hpp"
#include "first_step.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/rotary_frequency.hpp"
#include "rotary_arithmetic.hpp"
#include "rotary_entry.hpp"
#include "rotated_double_tier.hpp"
#include "rotated_tier_kernels.hpp"
#include "rotated_rounding.hpp"
#include "rotated_steps.hpp"
#include "rotated_word_bound.hpp"

namespace pecheck::reference {

namespace {

// The MPFR tier as rotary_entry.cpp's: sin and cos at P = 128, 256, ...
// bits, the exact frequency at P + 64 bits.
constexpr mpfr_prec_t first_precision = 128;
constexpr mpfr_prec_t frequency_guard_bits = 64;
constexpr mpfr_prec_t error_bits = 64;

}  // namespace

struct RotatedOracle::State {
  RotaryConvention convention;
  RotaryDerived derived;
  const Format* output;
  std::optional<ComputationModel> model;
  double factor = 1.0;
  std::vector<StepsFrequency> frequencies;  // exact angles, in steps; filled on first use
  std::vector<char> frequency_known;
  std::vector<std::vector<Real>> mpfr_frequencies;  // [level][i] at P + 64 bits, empty until used
  std::unique_ptr<RotaryEntryEvaluator> model_evaluator;
  std::vector<double> model_inv_freq;
  // The last position's enclosures, per frequency (stamp == position + 1: valid).
  std::vector<SinCosEnclosure> enclosures;
  std::vector<std::int64_t> enclosure_stamp;
  std::vector<char> enclosure_usable;
  std::int64_t escalated = 0;
  std::int64_t rotated = 0;
  std::int64_t double_tier_pairs = 0;
  // rotate_row's double tier: the frequencies by column (all known), the
  // last position's sin and cos, and the row's outputs.
  bool narrow = false;
  NarrowFormat narrow_output{};
  double exact_tolerance = 0.0;
  std::unique_ptr<StepsFrequencies> columns;
  std::int64_t trig_position = -1;
  bool trig_usable = false;
  RotatedRowTrig row_sin_cos;
  std::vector<double> first_rounded, second_rounded, first_exact, second_exact;
  std::vector<unsigned char> done;

  void know_frequency(std::size_t k) {
    if (!frequency_known[k]) {
      frequencies[k] = rotary_steps_frequency(convention, derived, static_cast<std::int64_t>(k));
      frequency_known[k] = 1;
    }
  }

  // The double tier's sin and cos at `position`, when it applies to the row.
  // The columns are the frequencies that rotate: the proportional form's
  // tail (inv_freq 0) lies outside the first step's range, and its cos 1 and
  // sin 0 are exact, so they are appended with no error and the tier decides
  // those pairs too (A x, rounded once).
  bool row_trig(std::int64_t position) {
    if (trig_position == position) return trig_usable;
    const auto rotating = static_cast<std::size_t>(derived.rotated_frequencies);
    if (!columns) {
      for (std::size_t k = 0; k < rotating; ++k) know_frequency(k);
      columns = std::make_unique<StepsFrequencies>(
          std::vector<StepsFrequency>(frequencies.begin(), frequencies.begin() + static_cast<std::ptrdiff_t>(rotating)));
    }
    trig_position = position;
    trig_usable = position != 0 && rotating > 0 && columns->all_errors_finite &&
                  first_step_applies_to_row(position, *columns);
    if (trig_usable) {
      rotated_tier_kernels().row_trig(position, *columns, row_sin_cos);  // sized to the rotating frequencies
      const std::size_t all = frequencies.size();
      row_sin_cos.sin_value.resize(all, 0.0);
      row_sin_cos.sin_error.resize(all, 0.0);
      row_sin_cos.cos_value.resize(all, 1.0);
      row_sin_cos.cos_error.resize(all, 0.0);
    }
    return trig_usable;
  }

  void check(std::int64_t position, std::int64_t frequency) const {
    if (frequency < 0 || frequency >= derived.frequencies) {
      throw ConventionError("frequency " + std::to_string(frequency) + " is outside [0, " +
                            std::to_string(derived.frequencies) + ") for rotary convention '" + convention.name + "'");
    }
    if (position < 0 || position > (std::int64_t{1} << 31)) {
      throw ConventionError("position " + std::to_string(position) + " is outside [0, 2^31]");
    }
  }

  double model_angle(std::int64_t position, std::int64_t frequency) {
    auto& inv = model_inv_freq[static_cast<std::size_t>(frequency)];
    if (std::isnan(inv)) inv = model_evaluator->model_inv_freq(frequency);
    const double p = round_nearest(static_cast<double>(position), format_of(model->position));
    // p has at most 53 bits and inv too: the exact product is hi + lo (FMA),
    // rounded once to the angle's format.
    const DoubleWord product = exact_product(p, inv);
    return round_word(product.hi, product.lo, format_of(model->angle));
  }

  bool zero_angle(std::int64_t position, std::int64_t frequency) {
    // Exact: position 0, or a pair that never rotates (the proportional form's tail).
    return model ? model_angle(position, frequency) == 0.0
                 : position == 0 || frequency >= derived.rotated_frequencies;
  }

  // The first step's enclosure of cos and sin at this entry, when it applies.
  const SinCosEnclosure* enclosure(std::int64_t position, std::int64_t frequency) {
    const auto k = static_cast<std::size_t>(frequency);
    if (enclosure_stamp[k] != position + 1) {
      enclosure_stamp[k] = position + 1;
      enclosure_usable[k] = 0;
      if (model) {
        if (const std::optional<BinaryAngleSteps> steps = binary_angle_steps(model_angle(position, frequency))) {
          if (first_step_applies(steps->position, steps->frequency)) {
            enclosures[k] = first_step_sin_cos(steps->position, steps->frequency);
            enclosure_usable[k] = 1;
          }
        }
      } else {
        know_frequency(k);
        if (first_step_applies(position, frequencies[k])) {
          enclosures[k] = first_step_sin_cos(position, frequencies[k]);
          enclosure_usable[k] = 1;
        }
      }
    }
    return enclosure_usable[k] ? &enclosures[k] : nullptr;
  }

  const Real& mpfr_frequency(std::size_t level, std::int64_t frequency, mpfr_prec_t precision) {
    if (mpfr_frequencies.size() <= level) mpfr_frequencies.resize(level + 1);
    auto& slots = mpfr_frequencies[level];
    if (slots.empty()) {
      slots.reserve(static_cast<std::size_t>(derived.frequencies));
      for (std::int64_t i = 0; i < derived.frequencies; ++i) slots.push_back(make_real(2));
    }
    Real& slot = slots[static_cast<std::size_t>(frequency)];
    if (mpfr_get_prec(raw(slot)) == 2) {
      NearestArithmetic arithmetic(precision + frequency_guard_bits);
      slot = rotary_inv_freq(convention, derived, frequency, arithmetic);
    }
    return slot;
  }

  // The angle at `level` and its radius: exact for a model, else p w with w
  // within 2^(16 - prec(w)) relative (rotary_arithmetic.cpp), the product exact.
  void mpfr_angle(std::size_t level, mpfr_prec_t precision, std::int64_t position, std::int64_t frequency, Real& theta,
                  Real& radius) {
    mpfr_set_prec(raw(radius), error_bits);
    if (model) {
      mpfr_set_prec(raw(theta), 64);
      mpfr_set_d(raw(theta), model_angle(position, frequency), MPFR_RNDN);  // exact
      mpfr_set_zero(raw(radius), 1);
      return;
    }
    const Real& w = mpfr_frequency(level, frequency, precision);
    mpfr_set_prec(raw(theta), mpfr_get_prec(raw(w)) + 64);
    mpfr_mul_si(raw(theta), raw(w), static_cast<long>(position), MPFR_RNDN);  // exact
    mpfr_abs(raw(radius), raw(theta), MPFR_RNDU);
    mpfr_mul_2si(raw(radius), raw(radius), rotary_frequency_error_offset - mpfr_get_prec(raw(w)), MPFR_RNDU);
  }

  // factor (x c + y s) correctly rounded to `format`, by MPFR alone. At P
  // bits c and s are within 2^-P |c| + r of the exact ones (sin and cos are
  // 1-Lipschitz, r the angle's radius); x c and y s are exact at P + 53
  // bits; their sum at Q = P + 64 bits adds 2^-Q of it, the factor's product
  // 2^-Q of the result.
  double mpfr_combination(std::int64_t position, std::int64_t frequency, double x, double y, bool first,
                          const Format& format, DoubleDouble* exact = nullptr) {
    for (std::size_t level = 0;; ++level) {
      const mpfr_prec_t precision = first_precision << level;
      if (precision > max_working_bits) {
        throw std::logic_error("rotated reference: an output is undecided at " + std::to_string(max_working_bits) +
                               " bits; the error bound or the rounding is wrong (this is a bug)");
      }
      Real theta = make_real(64);
      Real radius = make_real(error_bits);
      mpfr_angle(level, precision, position, frequency, theta, radius);
      Real s = make_real(precision);
      Real c = make_real(precision);
      mpfr_sin_cos(raw(s), raw(c), raw(theta), MPFR_RNDN);
      // first: x c - y s; second: x s + y c.
      Real& u = first ? c : s;
      Real& v = first ? s : c;
      const double v_sign = first ? -1.0 : 1.0;
      Real a = make_real(precision + 53);
      Real b = make_real(precision + 53);
      mpfr_mul_d(raw(a), raw(u), x, MPFR_RNDN);           // exact
      mpfr_mul_d(raw(b), raw(v), v_sign * y, MPFR_RNDN);  // exact
      const mpfr_prec_t q = precision + 64;
      Real value = make_real(q);
      mpfr_add(raw(value), raw(a), raw(b), MPFR_RNDN);
      Real error = make_real(error_bits);
      Real term = make_real(error_bits);
      for (const auto& [weight, trig] : {std::pair{x, &u}, std::pair{y, &v}}) {
        mpfr_abs(raw(term), raw(*trig), MPFR_RNDU);
        mpfr_mul_2si(raw(term), raw(term), -precision, MPFR_RNDU);
        mpfr_add(raw(term), raw(term), raw(radius), MPFR_RNDU);
        mpfr_mul_d(raw(term), raw(term), std::fabs(weight), MPFR_RNDU);
        mpfr_add(raw(error), raw(error), raw(term), MPFR_RNDU);
      }
      mpfr_abs(raw(term), raw(value), MPFR_RNDU);
      mpfr_mul_2si(raw(term), raw(term), -q, MPFR_RNDU);
      mpfr_add(raw(error), raw(error), raw(term), MPFR_RNDU);
      if (factor != 1.0) {
        mpfr_mul_d(raw(value), raw(value), factor, MPFR_RNDN);
        mpfr_mul_d(raw(error), raw(error), std::fabs(factor), MPFR_RNDU);
        mpfr_abs(raw(term), raw(value), MPFR_RNDU);
        mpfr_mul_2si(raw(term), raw(term), -q, MPFR_RNDU);
        mpfr_add(raw(error), raw(error), raw(term), MPFR_RNDU);
      }
      if (const std::optional<double> rounded = decide_rounding(raw(value), raw(error), format)) {
        if (exact != nullptr) {
          exact->hi = mpfr_get_d(raw(value), MPFR_RNDN);
          mpfr_sub_d(raw(value), raw(value), exact->hi, MPFR_RNDN);
          exact->lo = mpfr_get_d(raw(value), MPFR_RNDN);
        }
        return *rounded;
      }
    }
  }
};

RotatedOracle::RotatedOracle(const RotaryConvention& convention, FormatId output,
                             const std::optional<ComputationModel>& angle_model)
    : state_(std::make_unique<State>()) {
  check_rotary_convention(convention);
  State& s = *state_;
  s.convention = convention;
  s.derived = rotary_derived(convention);
  s.output = &format_of(output);
  s.model = angle_model;
  s.factor = s.derived.attention_factor;
  const auto n = static_cast<std::size_t>(s.derived.frequencies);
  s.frequencies.resize(n);
  s.frequency_known.assign(n, 0);
  s.enclosures.resize(n);
  s.enclosure_stamp.assign(n, -1);
  s.enclosure_usable.assign(n, 0);
  // The double tier's exactness argument needs precision <= 26 (narrow_format).
  s.narrow = !angle_model && s.output->precision <= 26;
  if (s.narrow) {
    s.narrow_output = narrow_format(*s.output);
    s.exact_tolerance = exact_tolerance(ExactValues::for_format, output);
  }
  if (angle_model) {
    s.model_evaluator = std::make_unique<RotaryEntryEvaluator>(convention, angle_model);
    s.model_inv_freq.assign(n, std::nan(""));
    s.factor = pecheck::round_to_format(s.factor, format_of(angle_model->angle));
  }
}

RotatedOracle::~RotatedOracle() = default;

double RotatedOracle::attention_factor() const { return state_->factor; }
std::int64_t RotatedOracle::pairs_escalated() const { return state_->escalated; }
std::int64_t RotatedOracle::pairs_rotated() const { return state_->rotated; }
std::int64_t RotatedOracle::pairs_double_tier() const { return state_->double_tier_pairs; }

double RotatedOracle::angle(std::int64_t position, std::int64_t frequency) {
  State& s = *state_;
  s.check(position, frequency);
  if (s.model) return s.model_angle(position, frequency);
  const Real& w = s.mpfr_frequency(0, frequency, first_precision);
  Real theta = make_real(mpfr_get_prec(raw(w)) + 64);
  mpfr_mul_si(raw(theta), raw(w), static_cast<long>(position), MPFR_RNDN);
  return mpfr_get_d(raw(theta), MPFR_RNDN);
}

RotatedPair RotatedOracle::rotate(std::int64_t position, std::int64_t frequency, double x_first, double x_second,
                                  RotatedExact* exact) {
  State& s = *state_;
  s.check(position, frequency);
  ++s.rotated;
  const Format& format = *s.output;
  if (s.zero_angle(position, frequency)) {
    // cos 0 = 1, sin 0 = 0: the outputs are A x exactly, rounded once.
    const DoubleWord a = exact_product(s.factor, x_first);
    const DoubleWord b = exact_product(s.factor, x_second);
    if (exact != nullptr) *exact = {{a.hi, a.lo}, {b.hi, b.lo}};
    return {round_word(a.hi, a.lo, format), round_word(b.hi, b.lo, format)};
  }
  if (x_first == 0.0 && x_second == 0.0) {
    if (exact != nullptr) *exact = {};
    return {0.0, 0.0};
  }
  if (!std::isfinite(x_first) || !std::isfinite(x_second)) {
    // No real rotation of a NaN or an infinity (inf * 0 at a quarter turn): NaN, which compares as a typed mismatch.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (exact != nullptr) *exact = {{nan, 0.0}, {nan, 0.0}};
    return {nan, nan};
  }
  DoubleDouble first_exact;
  DoubleDouble second_exact;
  RotatedPair out;
  bool first_open = true;
  bool second_open = true;
  if (const SinCosEnclosure* e = s.enclosure(position, frequency)) {
    const BoundedWord a = bounded_combination(e->cos_value, e->cos_error, x_first, dw_neg(e->sin_value), e->sin_error,
                                              x_second, s.factor);
    const BoundedWord b =
        bounded_combination(e->sin_value, e->sin_error, x_first, e->cos_value, e->cos_error, x_second, s.factor);
    const NonzeroRounding ra = nonzero_rounding(a.value.hi, a.value.lo, a.error, format);
    const NonzeroRounding rb = nonzero_rounding(b.value.hi, b.value.lo, b.error, format);
    if (ra.decided) out.first = ra.value, first_open = false;
    if (rb.decided) out.second = rb.value, second_open = false;
    first_exact = {a.value.hi, a.value.lo};
    second_exact = {b.value.hi, b.value.lo};
  }
  if (first_open || second_open) ++s.escalated;
  if (first_open) out.first = s.mpfr_combination(position, frequency, x_first, x_second, true, format, &first_exact);
  if (second_open) {
    out.second = s.mpfr_combination(position, frequency, x_first, x_second, false, format, &second_exact);
  }
  if (exact != nullptr) *exact = {first_exact, second_exact};
  return out;
}

void RotatedOracle::rotate_row(std::int64_t position, std::span<const double> x_first,
                               std::span<const double> x_second, std::span<RotatedPair> out,
                               std::span<RotatedExact> exact) {
  State& s = *state_;
  const std::size_t count = x_first.size();
  if (x_second.size() != count || out.size() != count || exact.size() != count) {
    throw std::logic_error("rotated reference: rotate_row's spans differ in length");
  }
  if (count == 0) return;
  s.check(position, static_cast<std::int64_t>(count) - 1);
  if (!s.narrow || !s.row_trig(position)) {
    for (std::size_t i = 0; i < count; ++i) {
      out[i] = rotate(position, static_cast<std::int64_t>(i), x_first[i], x_second[i], &exact[i]);
    }
    return;
  }
  for (std::vector<double>* v : {&s.first_rounded, &s.second_rounded, &s.first_exact, &s.second_exact}) {
    v->resize(count);
  }
  s.done.resize(count);
  rotated_tier_kernels().double_tier(s.row_sin_cos, x_first.data(), x_second.data(), count, s.factor, s.narrow_output,
                                     s.exact_tolerance,
                                     {s.first_rounded.data(), s.second_rounded.data(), s.first_exact.data(),
                                      s.second_exact.data(), s.done.data()});
  // The tier's pairs are counted here and added once: counted in the state
  // pair by pair, the two counters went through memory every pair (the
  // compiler cannot keep them in registers across the writes to out and
  // exact), most of this loop's time.
  std::int64_t decided = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (s.done[i]) {
      out[i] = {s.first_rounded[i], s.second_rounded[i]};
      exact[i] = {{s.first_exact[i], 0.0}, {s.second_exact[i], 0.0}};
      ++decided;
    } else {
      out[i] = rotate(position, static_cast<std::int64_t>(i), x_first[i], x_second[i], &exact[i]);
    }
  }
  s.double_tier_pairs += decided;
  s.rotated += decided;
}

RotatedPair RotatedOracle::cos_sin(std::int64_t position, std::int64_t frequency, FormatId format_id) {
  State& s = *state_;
  s.check(position, frequency);
  const Format& format = format_of(format_id);
  if (s.zero_angle(position, frequency)) return {pecheck::round_to_format(s.factor, format), 0.0};
  RotatedPair out;
  bool cos_open = true;
  bool sin_open = true;
  if (const SinCosEnclosure* e = s.enclosure(position, frequency)) {
    const BoundedWord c = bounded_combination(e->cos_value, e->cos_error, 1.0, DoubleWord{}, 0.0, 0.0, s.factor);
    const BoundedWord n = bounded_combination(e->sin_value, e->sin_error, 1.0, DoubleWord{}, 0.0, 0.0, s.factor);
    const NonzeroRounding rc = nonzero_rounding(c.value.hi, c.value.lo, c.error, format);
    const NonzeroRounding rs = nonzero_rounding(n.value.hi, n.value.lo, n.error, format);
    if (rc.decided) out.first = rc.value, cos_open = false;
    if (rs.decided) out.second = rs.value, sin_open = false;
  }
  // x = 1, y = 0 in the MPFR combination: A cos (first = x c - y s) and A sin (second).
  if (cos_open) out.first = s.mpfr_combination(position, frequency, 1.0, 0.0, true, format);
  if (sin_open) out.second = s.mpfr_combination(position, frequency, 1.0, 0.0, false, format);
  return out;
}

}  // namespace pecheck::reference
