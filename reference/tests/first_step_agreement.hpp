// Checks the oracle's first step against the MPFR path entry by entry: the
// first step's enclosure must contain MPFR's (and so the exact value), and
// every rounding it decides must be, bit for bit, the MPFR path's.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

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
  std::int64_t exact_accepted = 0;             // entries whose first-step value stands as the exact value
  std::int64_t failures = 0;
  std::string first_failure;

  void add(const AgreementCounts& other) {
    entries += other.entries;
    not_applicable += other.not_applicable;
    for (std::size_t f = 0; f < undecided.size(); ++f) undecided[f] += other.undecided[f];
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
        ready_(steps_.size(), false),
        distance_(make_real(exact_difference_bits)),
        lower_(make_real(wide_bits)),
        upper_(make_real(wide_bits)) {}

  std::int64_t frequencies() const { return static_cast<std::int64_t>(steps_.size()); }

  // Checks sin(p w_i) and cos(p w_i) in every format.
  void check(std::int64_t position, std::int64_t frequency, AgreementCounts& counts) {
    counts.entries += 2;
    const StepsFrequency& steps = steps_frequency_of(frequency);
    if (!first_step_applies(position, steps)) {
      counts.not_applicable += 2;
      return;
    }
    const SinCosEnclosure fast = first_step_sin_cos(position, steps);
    mpfr_.enclose_sin_cos(position, frequency, 0, sin_value_, sin_error_, cos_value_, cos_error_);
    check_one(position, frequency, true, fast.sin_value, fast.sin_error, sin_value_, sin_error_, counts);
    check_one(position, frequency, false, fast.cos_value, fast.cos_error, cos_value_, cos_error_, counts);
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

  void check_one(std::int64_t position, std::int64_t frequency, bool is_sin, DoubleWord value, double error,
                 const Real& mpfr_value, const Real& mpfr_error, AgreementCounts& counts) {
    // The first step's enclosure must contain MPFR's: |v - m| + e_m <= e.
    mpfr_set_d(raw(distance_), value.hi, MPFR_RNDN);  // exact, as are the next two
    mpfr_add_d(raw(distance_), raw(distance_), value.lo, MPFR_RNDN);
    mpfr_sub(raw(distance_), raw(distance_), raw(mpfr_value), MPFR_RNDN);
    mpfr_abs(raw(distance_), raw(distance_), MPFR_RNDU);
    mpfr_add(raw(distance_), raw(distance_), raw(mpfr_error), MPFR_RNDU);
    if (mpfr_cmp_d(raw(distance_), error) > 0) {
      fail(position, frequency, is_sin, "the first step's bound " + std::to_string(error) + " is exceeded", counts);
    }
    if (good_as_exact(value, error)) ++counts.exact_accepted;

    mpfr_sub(raw(lower_), raw(mpfr_value), raw(mpfr_error), MPFR_RNDD);
    mpfr_add(raw(upper_), raw(mpfr_value), raw(mpfr_error), MPFR_RNDU);
    for (std::size_t f = 0; f < 4; ++f) {
      const Format& format = *testing::all_formats[f];
      const std::optional<double> decided = decided_rounding(value, error, format);
      if (!decided) {
        ++counts.undecided[f];
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
             std::string(format.name) + " rounding " + hex_float(*decided) + " but MPFR gives " + hex_float(truth),
             counts);
      }
    }
  }

  Convention convention_;
  std::int64_t dim_;
  EntryEvaluator mpfr_;  // the MPFR path alone
  std::vector<StepsFrequency> steps_;
  std::vector<bool> ready_;
  Real sin_value_, sin_error_, cos_value_, cos_error_;
  Real distance_, lower_, upper_;
  RoundingScratch scratch_;
};

}  // namespace pecheck::reference
