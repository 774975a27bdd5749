// encoding-bounds/constant-columns-exact: how many columns of the correctly
// rounded encoding keep one value over positions [0, P), P = 2, 4, ..., 2^24,
// in each narrow format. A property of the encoding and the format, not of
// the subject (the subject only chooses the convention and width), so it is
// an observation: nothing a subject does can fail it. encoding-bounds/
// slow-columns holds the subject's own constant columns to the budget; the
// report's figure shows both.
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "check_support.hpp"
#include "encoding_checks.hpp"
#include "pecheck/reference/reference.hpp"

namespace pecheck::properties::encoding {

// A column is constant over [0, P) when every correctly rounded value in the
// range is the same. For a column of frequency w with (P-1) w <= pi/2, sin
// and cos are monotone on [0, (P-1) w] and rounding preserves order, so the
// column is constant exactly when its first and last values round alike.
// Past pi/2 a sin column reaches 1 and a cos column falls to cos(pi/2) = 0
// from 1: no format rounds those together. Zero columns (odd widths) hold no
// position at all and are not counted.
Outcome constant_columns_exact(const Subject& subject, const RunConfig& config) {
  const std::vector<support::ConventionWidth> targets =
      support::sweep_targets(subject.capabilities(), {config.quick ? std::int64_t{128} : std::int64_t{512}});
  if (targets.empty()) return support::not_applicable("the subject offers no convention");
  // The encoding as a function of position: row r holds position r, no zero rows.
  Convention convention = targets.front().convention;
  convention.position_offset = 0;
  convention.zero_rows.clear();
  const std::int64_t dim = targets.front().dim;
  const std::vector<ColumnSpec> columns = column_layout(convention, dim);
  constexpr int largest_power = 24;  // P = 2^24: every position float32 holds exactly
  Outcome outcome;
  outcome.verdict = Verdict::info;
  for (FormatId format : {FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
    const Format& f = format_of(format);
    Series series{std::string(f.name), "positions P", "constant columns", {}, {}};
    for (int k = 1; k <= largest_power; ++k) {
      const std::int64_t range_end = std::int64_t{1} << k;
      int constant = 0;
      for (std::int64_t c = 0; c < dim; ++c) {
        const ColumnSpec& column = columns[static_cast<std::size_t>(c)];
        if (column.kind == ColumnKind::zero) continue;
        const double w = frequency_value(convention, dim, column.frequency_index);
        if (static_cast<double>(range_end - 1) * w > std::numbers::pi / 2) continue;
        const double first = reference::correctly_rounded(convention, dim, 0, c, f);
        const double last = reference::correctly_rounded(convention, dim, range_end - 1, c, f);
        constant += first == last;
      }
      series.x.push_back(static_cast<double>(range_end));
      series.y.push_back(constant);
      outcome.statistics.push_back(
          {std::string(f.name) + " constant columns of the exact encoding over positions [0, " +
               std::to_string(range_end) + ")",
           static_cast<double>(constant),
           std::nullopt,
           std::nullopt,
           "of " + std::to_string(dim) + " columns, " + convention.name + ", correctly rounded",
           {Quantity::constant_columns, format, dim, range_end, convention.name}});
      outcome.cases += dim;
    }
    outcome.series.push_back(std::move(series));
  }
  outcome.message = "constant columns of the correctly rounded " + convention.name +
                    " encoding, d = " + std::to_string(dim) +
                    ", over positions [0, P) for P = 2 to 2^24 (an observation of the "
                    "encoding and the format, not of the subject)";
  return outcome;
}

const CheckDefinition constant_columns_exact_check{
    .id = check_ids::constant_columns_exact,
    .family = Family::encoding_bounds,
    .short_claim = "countsColumnsConstantAfterRounding",
    .claim =
        "Over the first P = 2, 4, ..., 2^24 positions, this many columns of the correctly rounded encoding keep "
        "one value in float32, float16 and bfloat16.",
    .source = "the seed observation that the last dimensions are hardly affected by the position",
    .kind = CheckKind::measurement,
    // An observation of the encoding itself: no subject can fail it.
    .catches = {},
    .run = constant_columns_exact,
};

}  // namespace pecheck::properties::encoding
