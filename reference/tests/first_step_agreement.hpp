// Checks the oracle's cheap tiers against the MPFR path entry by entry: the
// double-word first step and the double tier (narrow formats). Each tier's
// enclosure must contain MPFR's (and so the exact value), and every rounding
// it decides must be, bit for bit, the MPFR path's.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "../src/double_tier.hpp"
#include "../src/enclosure_decision.hpp"
#include "../src/entry_evaluator.hpp"
#include "../src/first_step.hpp"
#include "../src/format_rounding.hpp"
#include "../src/steps_frequency.hpp"
#include "independent_oracle.hpp"

namespace pecheck::reference {

struct AgreementCounts {
  std::int64_t entries = 0;                    // sin and cos each count once
  std::int64_t not_applicable = 0;             // entries the first step leaves to MPFR outright
  std::array<std::int64_t, 4> undecided{};     // per format of testing::all_formats
  std::array<std::int64_t, 4> double_tier_undecided{};  // the same for the double tier (float64: not its job)
  std::int64_t exact_accepted = 0;             // entries whose first-step value stands as the exact value
  std::int64_t failures = 0;
  std::string first_failure;

  void add(const AgreementCounts& other) {
    entries += other.entries;
    not_applicable += other.not_applicable;
    for (std::size_t f = 0; f < undecided.size(); ++f) {
      undecided[f] += other.undecided[f];
      double_tier_undecided[f] += other.double_tier_undecided[f];
    }
    exact_accepted += other.exact_accepted;
    failures += other.failures;
    if (first_failure.empty()) first_failure = other.first_failure;
  }
};

class FirstStepChecker {
 public:
  FirstStepChecker(const Convention& convention, std::int64_t dim)
      : convention_(convention),
        dim_(dim),
        mpfr_(convention, dim),
        steps_(static_cast<std::size_t>(frequency_count(convention, dim))),
        double_constants_(double_tier_constants()),
        ready_(steps_.size(), false),
        distance_(make_real(exact_difference_bits)),
        lower_(make_real(wide_bits)),
        upper_(make_real(wide_bits)) {}

  std::int64_t frequencies() const { return static_cast<std::int64_t>(steps_.size()); }

  // Checks sin(p w_i) and cos(p w_i) in every format, by both cheap tiers.
  void check(std::int64_t position, std::int64_t frequency, AgreementCounts& counts) {
    counts.entries += 2;
    const StepsFrequency& steps = steps_frequency_of(frequency);
    if (!first_step_applies(position, steps)) {
      counts.not_applicable += 2;
      return;
    }
    const SinCosEnclosure fast = first_step_sin_cos(position, steps);
    mpfr_.enclose_sin_cos(position, frequency, 0, sin_value_, sin_error_, cos_value_, cos_error_);
    check_one(position, frequency, true, fast.sin_value, fast.sin_error, sin_value_, sin_error_, counts, false);
    check_one(position, frequency, false, fast.cos_value, fast.cos_error, cos_value_, cos_error_, counts, false);
    const DoubleEnclosure cheap =
        double_tier_sin_cos(static_cast<double>(position), steps.f0, steps.f1, steps.f2, steps.error, double_constants_);
    check_one(position, frequency, true, {cheap.sin_value, 0.0}, cheap.sin_error, sin_value_, sin_error_, counts, true);
    check_one(position, frequency, false, {cheap.cos_value, 0.0}, cheap.cos_error, cos_value_, cos_error_, counts, true);
  }

 private:
  static constexpr mpfr_prec_t wide_bits = 400;
  // Enough for hi + lo - m to be exact whatever the words' exponents (down to 2^-1074).
  static constexpr mpfr_prec_t exact_difference_bits = 1200;

  const StepsFrequency& steps_frequency_of(std::int64_t frequency) {
    const auto slot = static_cast<std::size_t>(frequency);
    if (!ready_[slot]) {
      steps_[slot] = steps_frequency(frequency_term(convention_, dim_, frequency));
      ready_[slot] = true;
    }
    return steps_[slot];
  }

  void fail(std::int64_t position, std::int64_t frequency, bool is_sin, const std::string& what,
            AgreementCounts& counts) {
    ++counts.failures;
    if (!counts.first_failure.empty()) return;
    std::ostringstream text;
    text << convention_.name << " d=" << dim_ << " p=" << position << " i=" << frequency << ' '
         << (is_sin ? "sin" : "cos") << ": " << what;
    counts.first_failure = text.str();
  }

  // One tier's enclosure [value - error, value + error] against MPFR's: the
  // double tier (double_tier true) decides the narrow formats by
  // narrow_rounding, the first step every format by decided_rounding.
  void check_one(std::int64_t position, std::int64_t frequency, bool is_sin, DoubleWord value, double error,
                 const Real& mpfr_value, const Real& mpfr_error, AgreementCounts& counts, bool double_tier) {
    const char* tier = double_tier ? "the double tier's" : "the first step's";
    // The tier's enclosure must contain MPFR's: |v - m| + e_m <= e.
    mpfr_set_d(raw(distance_), value.hi, MPFR_RNDN);  // exact, as are the next two
    mpfr_add_d(raw(distance_), raw(distance_), value.lo, MPFR_RNDN);
    mpfr_sub(raw(distance_), raw(distance_), raw(mpfr_value), MPFR_RNDN);
    mpfr_abs(raw(distance_), raw(distance_), MPFR_RNDU);
    mpfr_add(raw(distance_), raw(distance_), raw(mpfr_error), MPFR_RNDU);
    if (mpfr_cmp_d(raw(distance_), error) > 0) {
      fail(position, frequency, is_sin, std::string(tier) + " bound " + std::to_string(error) + " is exceeded", counts);
    }
    if (!double_tier && good_as_exact(value, error)) ++counts.exact_accepted;

    mpfr_sub(raw(lower_), raw(mpfr_value), raw(mpfr_error), MPFR_RNDD);
    mpfr_add(raw(upper_), raw(mpfr_value), raw(mpfr_error), MPFR_RNDU);
    for (std::size_t f = 0; f < 4; ++f) {
      const Format& format = *testing::all_formats[f];
      if (double_tier && format.precision > 26) continue;
      std::optional<double> decided;
      if (double_tier) {
        const NarrowRounding narrow = narrow_rounding(value.hi, error, narrow_format(format));
        if (narrow.decided) decided = narrow.value;
      } else {
        decided = decided_rounding(value, error, format);
      }
      if (!decided) {
        ++(double_tier ? counts.double_tier_undecided : counts.undecided)[f];
        continue;
      }
      double truth = round_to_format(raw(lower_), format, scratch_);
      if (std::bit_cast<std::uint64_t>(truth) !=
          std::bit_cast<std::uint64_t>(round_to_format(raw(upper_), format, scratch_))) {
        EntryResult sin_result, cos_result;
        mpfr_.sin_cos(position, frequency, is_sin, !is_sin, EntryQuery{&format, false}, sin_result, cos_result);
        truth = is_sin ? sin_result.rounded : cos_result.rounded;
      }
      if (std::bit_cast<std::uint64_t>(truth) != std::bit_cast<std::uint64_t>(*decided)) {
        fail(position, frequency, is_sin,
             std::string(tier) + " " + std::string(format.name) + " rounding " + hex_float(*decided) +
                 " but MPFR gives " + hex_float(truth),
             counts);
      }
    }
  }

  Convention convention_;
  std::int64_t dim_;
  EntryEvaluator mpfr_;  // the MPFR path alone
  std::vector<StepsFrequency> steps_;
  DoubleTierConstants double_constants_;
  std::vector<bool> ready_;
  Real sin_value_, sin_error_, cos_value_, cos_error_;
  Real distance_, lower_, upper_;
  RoundingScratch scratch_;
};

}  // namespace pecheck::reference
