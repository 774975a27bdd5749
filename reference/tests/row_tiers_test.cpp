// The double-word tier's row loop (row_tiers.cpp: first_step_row, then the
// rounding and exact-value decisions of every entry in one vectorised loop)
// against the entry it is made of (first_step_sin_cos, nonzero_rounding,
// within_relative), one entry at a time, for every count of frequencies up
// to a few vectors past a row of 64, both with rounding decided and skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "../src/enclosure_decision.hpp"
#include "../src/entry_evaluator.hpp"
#include "../src/first_step.hpp"
#include "../src/row_tiers.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/reference/reference.hpp"

namespace pecheck::reference {
namespace {

// The outputs are filled beforehand with values no entry gives, so an entry
// left unwritten shows. The tier decides every entry of these rows: its bound
// stays relative near the zeros of sin and cos, and one of about 2^-100 of
// the value reaches a float64 rounding boundary about once in 2^46 entries
// (EnclosureDecision's tests hold nonzero_rounding's refusals).
TEST(RowTiers, theDoubleWordTierRowIsItsEntryAtEveryCount) {
  const Convention vaswani = *find_preset("vaswani");
  const auto bits = [](double x) { return std::bit_cast<std::uint64_t>(x); };
  for (std::int64_t count = 1; count <= 84; ++count) {
    EntryEvaluator evaluator(vaswani, 2 * count, default_first_precision, FirstStep::double_word);
    for (const FormatId id : {FormatId::float64, FormatId::float32}) {
      const Format& format = format_of(id);
      const double tolerance = exact_tolerance(ExactValues::full, id);
      for (const RoundedValues rounded : {RoundedValues::decided, RoundedValues::skipped}) {
        RowTiers tiers(format, ExactValues::full, rounded);
        ASSERT_FALSE(tiers.double_tier());
        for (const std::int64_t position : {std::int64_t{355}, std::int64_t{12345}}) {
          const StepsFrequencies* frequencies = evaluator.row_frequencies(position);
          ASSERT_NE(frequencies, nullptr);
          const auto n = static_cast<std::size_t>(count);
          RowDecisions out;
          out.resize(n);
          for (std::vector<double>* v : {&out.sin_rounded, &out.cos_rounded, &out.sin_lo, &out.cos_lo}) {
            v->assign(n, -7.0);
          }
          std::fill(out.sin_hi.begin(), out.sin_hi.end(), -7.0);
          std::fill(out.cos_hi.begin(), out.cos_hi.end(), -7.0);
          out.sin_done.assign(n, 9);
          out.cos_done.assign(n, 9);
          ASSERT_TRUE(tiers.settle(evaluator, position, out));
          for (std::size_t i = 0; i < n; ++i) {
            const StepsFrequency f{frequencies->f0[i], frequencies->f1[i], frequencies->f2[i], frequencies->error[i]};
            const SinCosEnclosure e = first_step_sin_cos(position, f);
            const std::string at = std::string(format.name) + ", count " + std::to_string(count) + ", position " +
                                   std::to_string(position) + ", entry " + std::to_string(i) +
                                   (rounded == RoundedValues::decided ? ", rounding" : ", exact only");
            for (const bool is_sin : {true, false}) {
              const DoubleWord v = is_sin ? e.sin_value : e.cos_value;
              const double error = is_sin ? e.sin_error : e.cos_error;
              NonzeroRounding r{v.hi, true};
              if (rounded == RoundedValues::decided) r = nonzero_rounding(v.hi, v.lo, error, format);
              const bool done = r.decided && within_relative(v.hi, error, tolerance);
              EXPECT_EQ(bits((is_sin ? out.sin_rounded : out.cos_rounded)[i]), bits(r.value)) << at;
              EXPECT_EQ(bits((is_sin ? out.sin_hi : out.cos_hi)[i]), bits(v.hi)) << at;
              EXPECT_EQ(bits((is_sin ? out.sin_lo : out.cos_lo)[i]), bits(v.lo)) << at;
              EXPECT_EQ((is_sin ? out.sin_done : out.cos_done)[i], done ? 1 : 0) << at << (is_sin ? " sin" : " cos");
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace pecheck::reference
