// The rotary oracle's cheap tiers (reference/src/rotary_tiers.hpp) against
// MPFR alone (RotaryEntryEvaluator, Ziv's strategy): every preset, the exact
// encoding and every computation model, every format and every tolerance of
// the exact values, rows at both ends of [0, 2^24) and between. Where a tier
// settles an entry its rounding is MPFR's bit for bit and its exact value is
// within the promised relative tolerance of MPFR's; and the tiers settle
// nearly every entry (else the reference would be no faster than MPFR).
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <memory>

#include "pecheck/reference/reference.hpp"
#include "pecheck/reference/rotary_reference.hpp"
#include "pecheck/rotary_convention.hpp"
#include "rotary_entry.hpp"
#include "rotary_tiers.hpp"

namespace pecheck::reference {
namespace {

// Whether a is within `tolerance` relative of the exact value x, knowing b,
// MPFR's nearest double-double to x (|b - x| <= 2^-106 |x|): then
// |a - b| <= (tolerance + 2^-106) |x|, allowed here as (tolerance + 2^-104)
// |b|, the difference's own rounding included. a.hi - b.hi is exact (Sterbenz).
bool within(const DoubleDouble& a, const DoubleDouble& b, double tolerance) {
  const double difference = (a.hi - b.hi) + (a.lo - b.lo);
  return std::fabs(difference) <= (tolerance + 0x1p-104) * std::fabs(b.hi);
}

struct Tally {
  std::int64_t entries = 0;
  std::int64_t settled = 0;
  std::int64_t by_row = 0;  // by the double tier
};

// Entries the tiers are meant for: not a zero angle at position 0 (MPFR's
// evaluator decides it without MPFR), not a float64 angle (its odd integer
// has up to 53 bits, past the first step's 2^31).
bool countable(std::int64_t position, const std::optional<ComputationModel>& model) {
  return position != 0 && !(model && model->angle == FormatId::float64);
}

constexpr ExactValues tolerances[] = {ExactValues::full, ExactValues::for_format, ExactValues::none};

// MPFR once per entry, against the tiers for each tolerance of the exact
// values: the row's double tier where it applies, the first step after it.
void check_rows(const RotaryConvention& c, const std::optional<ComputationModel>& model, FormatId format_id,
                Tally& tally) {
  const Format& format = format_of(format_id);
  RotaryEntryEvaluator evaluator(c, model);
  const std::vector<StepsFrequency> frequencies = rotary_tier_frequencies(c, model);
  std::vector<std::unique_ptr<RotaryTiers>> tiers;
  for (const ExactValues exact : tolerances) {
    tiers.push_back(std::make_unique<RotaryTiers>(c, model, evaluator, frequencies, format, exact));
  }
  const std::int64_t n = rotary_derived(c).frequencies;
  std::vector<RowDecisions> rows(tiers.size());
  std::vector<char> row_settled(tiers.size());
  for (const std::int64_t first : {std::int64_t{0}, std::int64_t{40000}, (std::int64_t{1} << 24) - 3}) {
    for (std::int64_t position = first; position < first + 3; ++position) {
      for (std::size_t t = 0; t < tiers.size(); ++t) {
        bool whole = false;
        row_settled[t] = tiers[t]->settle_row(position, rows[t], whole);
        // `whole`: every entry of the row settled, cos's flags and sin's alike.
        const bool all_flags = std::all_of(rows[t].cos_done.begin(), rows[t].cos_done.end(), [](unsigned char d) {
          return d != 0;
        }) && rows[t].sin_done == rows[t].cos_done;
        EXPECT_EQ(whole, row_settled[t] && all_flags) << c.name << " position " << position;
      }
      for (std::int64_t i = 0; i < n; ++i) {
        RotaryEntryResult cos_mpfr, sin_mpfr;
        evaluator.evaluate(position, i, &format, true, cos_mpfr, sin_mpfr);
        const auto k = static_cast<std::size_t>(i);
        for (std::size_t t = 0; t < tiers.size(); ++t) {
          RotaryEntryResult cos_tier, sin_tier;
          const bool tallied = countable(position, model);
          tally.entries += tallied;
          const bool by_row = row_settled[t] && rows[t].cos_done[k];
          if (by_row) {
            cos_tier = {rows[t].cos_rounded[k], {rows[t].cos_hi[k], rows[t].cos_low(k)}, false};
            sin_tier = {rows[t].sin_rounded[k], {rows[t].sin_hi[k], rows[t].sin_low(k)}, false};
            tally.by_row += tallied;
          } else if (!tiers[t]->settle(position, i, cos_tier, sin_tier)) {
            continue;
          }
          tally.settled += tallied;
          const std::string where = c.name + " " + (model ? model->name : "exact") + " " +
                                    std::string(format.name) + " p " + std::to_string(position) + " i " +
                                    std::to_string(i) + (by_row ? " (double tier)" : " (first step)");
          ASSERT_EQ(cos_tier.rounded, cos_mpfr.rounded) << where << " cos";
          ASSERT_EQ(sin_tier.rounded, sin_mpfr.rounded) << where << " sin";
          if (tolerances[t] == ExactValues::none) continue;
          const double tolerance = exact_tolerance(tolerances[t], format_id);
          ASSERT_TRUE(within(cos_tier.exact, cos_mpfr.exact, tolerance)) << where << " cos exact";
          ASSERT_TRUE(within(sin_tier.exact, sin_mpfr.exact, tolerance)) << where << " sin exact";
        }
      }
    }
  }
}

TEST(RotaryTiers, settledEntriesAreMpfrsRoundingAndExactValue) {
  std::vector<std::optional<ComputationModel>> targets = {std::nullopt};
  for (const ComputationModel& m : computation_models()) targets.emplace_back(m);
  Tally tally;
  for (const RotaryConvention& c : rotary_presets()) {
    for (const auto& model : targets) {
      for (const FormatId format : {FormatId::float32, FormatId::bfloat16, FormatId::float64}) {
        check_rows(c, model, format, tally);
        if (HasFatalFailure()) return;
      }
    }
  }
  // What is left: entries within the tiers' bounds of a rounding boundary.
  EXPECT_GT(static_cast<double>(tally.settled), 0.99 * static_cast<double>(tally.entries))
      << tally.settled << " of " << tally.entries << " settled";
  // The double tier serves a third of the cases (float32 and bfloat16, exact
  // values for the format or none): it must have settled entries of each.
  EXPECT_GT(static_cast<double>(tally.by_row), 0.25 * static_cast<double>(tally.entries));
}

TEST(RotaryTiers, theFloat32CacheOfTheBenchNeedsNoMpfr) {
  const RotaryConvention c = *find_rotary_preset("llama3.1");
  const RotaryReferenceCache cache =
      rotary_reference_cache(c, {1, 512, FormatId::float32}, std::nullopt, 1, ExactValues::none);
  EXPECT_EQ(cache.mpfr_entries, 0);
}

}  // namespace
}  // namespace pecheck::reference
