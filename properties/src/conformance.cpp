// The conformance family: the subject against the correctly rounded
// reference, per format, as measurements over sampled rows up to 2^24 and as
// a property over generated conventions, shapes and offsets.
#include <algorithm>
#include <optional>
#include <sstream>

#include "check_support.hpp"
#include "conformance_checks.hpp"
#include "pecheck/accuracy/exact_text.hpp"
#include "pecheck/accuracy/measure.hpp"
#include "pecheck/properties/sweep_blocks.hpp"
#include "pecheck/properties/accuracy_by_position.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/generators.hpp"
#include "pecheck/properties/property_runner.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::properties {

namespace {

constexpr std::string_view any_position_id = check_ids::any_position;

// The sweep: presets at a width (quick: 64; default: 512; full: four widths
// with an odd one), blocks of rows from sweep_blocks. The default costs about
// 6 x 512 x 13 x 4 = 160k reference entries per format.
Outcome sweep_format(const Subject& subject, const RunConfig& config, FormatId format) {
  const SubjectCapabilities capabilities = subject.capabilities();
  if (!support::offers(capabilities, format)) {
    return support::not_applicable("the subject offers " + support::formats_text(capabilities) + ", not " +
                                   std::string(format_of(format).name));
  }
  const std::vector<std::int64_t> dims = config.quick  ? std::vector<std::int64_t>{64}
                                         : config.full ? std::vector<std::int64_t>{64, 512, 1023, 4096}
                                                       : std::vector<std::int64_t>{512};
  const std::int64_t rows_per_block = config.quick ? 2 : config.full ? 8 : 4;
  const accuracy::UlpBudget& budget = support::budget_for(subject, format);
  const bool third_party = budget.kind == accuracy::BudgetKind::third_party;
  accuracy::Measurement total;
  for (const support::ConventionWidth& target : support::sweep_targets(capabilities, dims)) {
    const support::RowRange range = support::servable_rows(capabilities, target.convention);
    const accuracy::Float64AngleAllowance allowance(target.convention, target.dim, format);
    const std::int64_t rows = std::min(rows_per_block, range.end - range.begin);
    if (rows <= 0) continue;
    std::int64_t covered = range.begin;
    for (TableRequest block : sweep_blocks(target.dim, rows, config.full)) {
      // Keep each block inside the rows the subject serves, never overlapping.
      if (covered > range.end - rows) break;
      block.row_offset = std::clamp(block.row_offset, covered, range.end - rows);
      covered = block.row_offset + rows;
      const Table computed = support::fetch_table(subject, capabilities, target.convention, block, format);
      const reference::ReferenceTable exact = reference::reference_table(target.convention, block, format, 0,
                                                                                     reference::ExactValues::for_format);
      accuracy::Measurement part = accuracy::measure_accuracy(computed, exact.exact, target.convention, block, budget.max_ulp,
                                          std::string(budget.source), third_party ? &allowance : nullptr);
      part.reference_escalations = exact.escalations;
      accuracy::merge_measurement(total, part);
    }
  }
  Outcome outcome;
  outcome.cases = total.entries;
  outcome.verdict = accuracy::within_budget(total) ? Verdict::held : Verdict::failed;
  outcome.message = accuracy::summary(total);
  outcome.measurements.push_back(std::move(total));
  return outcome;
}

Outcome any_position(const Subject& subject, const RunConfig& config) {
  const SubjectCapabilities capabilities = subject.capabilities();
  // A third-party entry beyond the ULP budget may still be within the
  // float64-angle bound (angle_allowance.hpp).
  const bool third_party = support::budget_for(subject, FormatId::float64).kind == accuracy::BudgetKind::third_party;
  double worst_ratio = 0.0;  // among the entries the bound does not admit
  std::string worst_where;
  Outcome outcome = run_property(std::string(any_position_id), config, [&] {
    const EncodingCase c = *gen::case_for(capabilities, CaseLimits{1024, 16, 4096, true}).as("case");
    RC_TAG(std::string(format_of(c.format).name));
    RC_CLASSIFY(position_of_row(c.convention, c.request.row_offset) >= (std::int64_t{1} << 20), "positions past 2^20");
    const Table computed = support::fetch_table(subject, capabilities, c);
    const reference::ReferenceTable exact = reference::reference_table(c.convention, c.request, c.format, 0,
                                                                                   reference::ExactValues::for_format);
    const Format& format = format_of(c.format);
    const double budget = support::budget_for(subject, c.format).max_ulp;
    std::optional<accuracy::Float64AngleAllowance> allowance;
    if (third_party) allowance.emplace(c.convention, c.request.dim, c.format);
    for (std::int64_t k = 0; k < computed.rows * computed.cols; ++k) {
      const auto index = static_cast<std::size_t>(k);
      const UlpError error = ulp_error(computed.flat(static_cast<std::int64_t>(index)), exact.exact[index], format);
      const std::int64_t row = c.request.row_offset + k / computed.cols;
      const std::string where = support::position_text(c.convention, row) + ", column " +
                                std::to_string(k % computed.cols);
      const bool beyond_ulp = error.mismatch != Mismatch::none || !(error.ulps <= budget);
      const double abs_error = absolute_error(computed.flat(static_cast<std::int64_t>(index)), exact.exact[index]);
      const double bound = beyond_ulp && allowance ? allowance->bound(row, k % computed.cols, exact.exact[index]) : 0.0;
      const bool within_bound = beyond_ulp && allowance && error.mismatch == Mismatch::none && abs_error <= bound;
      if (!within_bound && error.ulps / budget > worst_ratio) {
        worst_ratio = error.ulps / budget;
        worst_where = where;
      }
      if (beyond_ulp && !within_bound) {
        std::ostringstream message;
        message << where << " holds " << support::value_text(computed.flat(static_cast<std::int64_t>(index)), c.format) << "; the exact value is "
                << accuracy::decimal_text(exact.exact[index]) << ": ";
        if (error.mismatch != Mismatch::none) {
          message << "a " << to_string(error.mismatch) << " mismatch";
        } else {
          message << error.ulps << " ULP, beyond the budget of " << budget;
          if (allowance)
            message << " and beyond the float64-angle bound (abs error " << abs_error << ", bound " << bound << ")";
        }
        std::ostringstream shown;
        showValue(c, shown);
        message << " (" << shown.str() << ")";
        support::fail_case(message.str());
      }
    }
  });
  outcome.statistics.push_back({"largest ULP error / budget", worst_ratio, std::nullopt, 1.0,
                                (worst_where.empty() ? std::string() : "at " + worst_where) +
                                    (third_party ? " (entries within the float64-angle bound left out)" : ""),
                                key_of(Quantity::ulp_error_over_budget)});
  return outcome;
}

std::string sweep_claim(FormatId format) {
  return "The subject's " + std::string(format_of(format).name) +
         " table is within its ULP budget of the correctly rounded reference (a third-party entry: or within the "
         "float64-angle bound of an ordinary float64 computation) at the first rows, rows straddling powers of two "
         "and the last rows below 2^24, with no signed-zero, NaN or infinity mismatch.";
}

const std::string conformance_source =
    "the design's accuracy contract: correctly rounded reference by Ziv's strategy, ULP error SLEEF-style; "
    "CONVENTIONS.md accuracy figures";

Outcome sweep_float64(const Subject& subject, const RunConfig& config) {
  return sweep_format(subject, config, FormatId::float64);
}
Outcome sweep_float32(const Subject& subject, const RunConfig& config) {
  return sweep_format(subject, config, FormatId::float32);
}
Outcome sweep_float16(const Subject& subject, const RunConfig& config) {
  return sweep_format(subject, config, FormatId::float16);
}
Outcome sweep_bfloat16(const Subject& subject, const RunConfig& config) {
  return sweep_format(subject, config, FormatId::bfloat16);
}

}  // namespace

// Every table fault moves some entry beyond the budget in every format; the
// float16-storage table is exact to float16, so only the wider formats' sweeps
// (and the position sweeps) see it.
const CheckDefinition conformance_float64_check{
    .id = check_ids::conformance_float64,
    .family = Family::conformance,
    .short_claim = "withinBudgetOfTheReference",
    .claim = sweep_claim(FormatId::float64),
    .source = conformance_source,
    .kind = CheckKind::measurement,
    .catches = {faults::sin_cos_swapped, faults::one_pair_swapped, faults::wrong_layout, faults::float32_angles,
                faults::timescale_rule, faults::unzeroed_padding, faults::offset_by_one, faults::bfloat16_positions,
                faults::float16_positions, faults::float16_storage, faults::corrupted_row, faults::random_init},
    .run = sweep_float64,
};

const CheckDefinition conformance_float32_check{
    .id = check_ids::conformance_float32,
    .family = Family::conformance,
    .short_claim = "withinBudgetOfTheReference",
    .claim = sweep_claim(FormatId::float32),
    .source = conformance_source,
    .kind = CheckKind::measurement,
    .catches = {faults::sin_cos_swapped, faults::one_pair_swapped, faults::wrong_layout, faults::float32_angles,
                faults::timescale_rule, faults::unzeroed_padding, faults::offset_by_one, faults::bfloat16_positions,
                faults::float16_positions, faults::float16_storage, faults::corrupted_row, faults::random_init},
    .run = sweep_float32,
};

const CheckDefinition conformance_float16_check{
    .id = check_ids::conformance_float16,
    .family = Family::conformance,
    .short_claim = "withinBudgetOfTheReference",
    .claim = sweep_claim(FormatId::float16),
    .source = conformance_source,
    .kind = CheckKind::measurement,
    .catches = {faults::sin_cos_swapped, faults::one_pair_swapped, faults::wrong_layout, faults::float32_angles,
                faults::timescale_rule, faults::unzeroed_padding, faults::offset_by_one, faults::bfloat16_positions,
                faults::float16_positions, faults::corrupted_row, faults::random_init},
    .run = sweep_float16,
};

const CheckDefinition conformance_bfloat16_check{
    .id = check_ids::conformance_bfloat16,
    .family = Family::conformance,
    .short_claim = "withinBudgetOfTheReference",
    .claim = sweep_claim(FormatId::bfloat16),
    .source = conformance_source,
    .kind = CheckKind::measurement,
    .catches = {faults::sin_cos_swapped, faults::one_pair_swapped, faults::wrong_layout, faults::float32_angles,
                faults::timescale_rule, faults::unzeroed_padding, faults::offset_by_one, faults::bfloat16_positions,
                faults::float16_positions, faults::corrupted_row, faults::random_init},
    .run = sweep_bfloat16,
};

const CheckDefinition any_position_check{
    .id = check_ids::any_position,
    .family = Family::conformance,
    .short_claim = "anyPositionIsWithinBudget",
    .claim =
        "For any convention, width, format and rows at any position below 2^24, every entry is within the "
        "subject's ULP budget of the correctly rounded value (a third-party entry: or within the float64-angle "
        "bound of an ordinary float64 computation).",
    .source = conformance_source + "; 2^24 is the largest range in which float32 holds every integer position",
    .kind = CheckKind::property,
    .catches = {faults::sin_cos_swapped, faults::one_pair_swapped, faults::wrong_layout, faults::float32_angles,
                faults::timescale_rule, faults::unzeroed_padding, faults::offset_by_one, faults::bfloat16_positions,
                faults::float16_positions, faults::float16_storage, faults::corrupted_row, faults::random_init},
    .run = any_position,
};

}  // namespace pecheck::properties
