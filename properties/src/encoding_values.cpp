// Checks on the values of single rows: the unit interval, sin^2 + cos^2 = 1,
// the squared norm, the origin row and the zero rows.
#include <cmath>
#include <numbers>
#include <sstream>

#include "check_support.hpp"
#include "encoding_checks.hpp"
#include "pecheck/properties/generators.hpp"
#include "pecheck/properties/property_runner.hpp"
#include "pecheck/reference/reference.hpp"

namespace pecheck::properties::encoding {

namespace {

using support::fail_case;

// A computed bound is itself rounded; this factor keeps it an upper bound.
constexpr double bound_rounding = 1.0 + 0x1.0p-40;

std::string entry_text(const EncodingCase& c, std::int64_t local_row, std::int64_t column) {
  return support::position_text(c.convention, c.request.row_offset + local_row) + ", column " + std::to_string(column);
}

std::string case_text(const EncodingCase& c) {
  std::ostringstream out;
  showValue(c, out);
  return out.str();
}

// The closest a held case came to its bound, kept across every case run.
struct ClosestApproach {
  double ratio = 0.0;
  std::string where;
  void see(double deviation, double bound, const std::string& context) {
    const double r = bound > 0 ? deviation / bound : (deviation > 0 ? INFINITY : 0.0);
    if (r > ratio) {
      ratio = r;
      where = context;
    }
  }
  void report(Outcome& outcome, Quantity quantity, const std::string& name) const {
    outcome.statistics.push_back(
        {name, ratio, std::nullopt, 1.0, where.empty() ? "" : "closest at " + where, key_of(quantity)});
  }
};

// |x|^2 of a double-double, to about 2^-104 relative.
DoubleDouble square(DoubleDouble x) {
  const DoubleDouble p = two_prod(x.hi, x.hi);
  return quick_two_sum(p.hi, p.lo + 2.0 * x.hi * x.lo);
}

// A case for a subject that may take any convention, moved so that its rows
// include position 0 (offset 0, row 0 not zeroed).
EncodingCase with_origin_row(EncodingCase c) {
  c.convention.position_offset = 0;
  std::erase(c.convention.zero_rows, std::int64_t{0});
  c.request.rows = 1;
  c.request.row_offset = 0;
  return c;
}

}  // namespace

Outcome unit_interval(const Subject& subject, const RunConfig& config) {
  const SubjectCapabilities capabilities = subject.capabilities();
  return run_property(std::string(unit_interval_id), config, [&] {
    const EncodingCase c = *gen::case_for(capabilities).as("case");
    RC_TAG(std::string(format_of(c.format).name));
    const Table table = support::fetch_table(subject, capabilities, c);
    for (std::int64_t r = 0; r < table.rows; ++r) {
      for (std::int64_t col = 0; col < table.cols; ++col) {
        const double v = table.at(r, col);
        if (!(v >= -1.0 && v <= 1.0)) {
          fail_case(entry_text(c, r, col) + " holds " + support::value_text(v, c.format) + ", outside [-1, 1]");
        }
      }
    }
  });
}

const CheckDefinition unit_interval_check{
    .id = check_ids::unit_interval,
    .family = Family::encoding_bounds,
    .short_claim = "everyValueLiesInMinusOneToOne",
    .claim = "Every value of the encoding table lies in [-1, 1]: no NaN, no infinity.",
    .source = "Vaswani et al. 2017, section 3.5 (every entry is a sine or a cosine); CONVENTIONS.md fault 8",
    .kind = CheckKind::property,
    .catches = {faults::random_init},
    .run = unit_interval,
};

Outcome pythagorean_identity(const Subject& subject, const RunConfig& config) {
  const SubjectCapabilities capabilities = subject.capabilities();
  ClosestApproach closest;
  Outcome outcome = run_property(std::string(pythagorean_id), config, [&] {
    const EncodingCase c = *gen::case_for(capabilities).as("case");
    RC_TAG(std::string(format_of(c.format).name));
    const Table table = support::fetch_table(subject, capabilities, c);
    // Stored s = sin t + a, c = cos t + b with |a|, |b| <= delta (the budget's
    // absolute error for values in [-1, 1], or a third-party subject's
    // float64-angle bound where larger). Then
    //   s^2 + c^2 - 1 = 2 (a sin t + b cos t) + a^2 + b^2,
    // and |a sin t + b cos t| <= sqrt(2) delta (Cauchy-Schwarz), so
    //   |s^2 + c^2 - 1| <= 2 sqrt(2) delta + 2 delta^2.
    // The left side is evaluated exactly enough (ExactSum: < 2^-100).
    const double delta = support::EntryErrorBound(subject, c.convention, c.request.dim, c.format)
                             .up_to_row(c.request.row_offset + table.rows - 1);
    const double bound = (2.0 * std::numbers::sqrt2 * delta + 2.0 * delta * delta + 0x1.0p-100) * bound_rounding;
    for (std::int64_t r = 0; r < table.rows; ++r) {
      if (is_zero_row(c.convention, c.request.row_offset + r)) continue;  // encoding-bounds/zero-rows
      for (const FrequencyColumns& pair : paired_frequencies(c.convention, c.request.dim)) {
        const double s = table.at(r, pair.sin_column);
        const double co = table.at(r, pair.cos_column);
        support::ExactSum sum;
        sum.add_product(s, s);
        sum.add_product(co, co);
        sum.add(-1.0);
        const double deviation = std::fabs(sum.approx());
        const std::string where = support::position_text(c.convention, c.request.row_offset + r) + ", frequency " +
                                  std::to_string(pair.frequency_index) + " of " + case_text(c);
        closest.see(deviation, bound, where);
        if (!(deviation <= bound)) {
          std::ostringstream message;
          message << where << " (columns " << pair.sin_column << ", " << pair.cos_column
                  << "): sin^2 + cos^2 - 1 = " << sum.approx() << ", beyond the bound " << bound << " (sin "
                  << support::value_text(s, c.format) << ", cos " << support::value_text(co, c.format) << ")";
          fail_case(message.str());
        }
      }
    }
  });
  closest.report(outcome, Quantity::pythagorean_miss_ratio, "largest |sin^2 + cos^2 - 1| / bound");
  return outcome;
}

const CheckDefinition pythagorean_identity_check{
    .id = check_ids::pythagorean_identity,
    .family = Family::encoding_bounds,
    .short_claim = "sinSquaredPlusCosSquaredIsOne",
    .claim =
        "For every frequency, the stored sin^2 + cos^2 equals 1 within the bound the format's ULP budget (a "
        "third-party subject: or the float64-angle bound) implies.",
    .source = "Vaswani et al. 2017, section 3.5 (each frequency is a sin and cos pair of one angle)",
    .kind = CheckKind::property,
    .catches = {faults::wrong_layout, faults::float32_angles, faults::float16_storage, faults::random_init},
    .run = pythagorean_identity,
};

Outcome squared_norm(const Subject& subject, const RunConfig& config) {
  const SubjectCapabilities capabilities = subject.capabilities();
  ClosestApproach closest;
  Outcome outcome = run_property(std::string(squared_norm_id), config, [&] {
    const EncodingCase c = *gen::case_for(capabilities).as("case");
    RC_TAG(std::string(format_of(c.format).name));
    const Table table = support::fetch_table(subject, capabilities, c);
    const std::vector<FrequencyColumns> pairs = paired_frequencies(c.convention, c.request.dim);
    const std::vector<ColumnSpec> columns = column_layout(c.convention, c.request.dim);
    std::vector<bool> paired(static_cast<std::size_t>(c.request.dim), false);
    for (const auto& pair : pairs)
      paired[static_cast<std::size_t>(pair.sin_column)] = paired[static_cast<std::size_t>(pair.cos_column)] = true;
    std::vector<std::int64_t> unpaired;  // the extra sin column of an odd width
    std::int64_t zero_columns = 0;
    for (std::int64_t col = 0; col < c.request.dim; ++col) {
      if (paired[static_cast<std::size_t>(col)]) continue;
      if (columns[static_cast<std::size_t>(col)].kind == ColumnKind::zero) {
        ++zero_columns;
      } else {
        unpaired.push_back(col);
      }
    }
    const double u = support::budget_for(subject, c.format).max_ulp;
    const support::EntryErrorBound entry_bound(subject, c.convention, c.request.dim, c.format);
    // Each pair contributes s^2 + c^2 = 1 within 2 sqrt(2) delta + 2 delta^2
    // (see pythagorean-identity); an unpaired column v = x + a contributes
    // v^2 - x^2 = 2 a x + a^2, within 2 delta + delta^2; a column whose exact
    // value is 0 may hold up to u smallest subnormals (the ULP floor). The
    // exact share x^2 of an unpaired column comes from the reference (2^-100).
    const double zero_delta = u * smallest_subnormal(format_of(c.format));
    const auto n_pairs = static_cast<double>(pairs.size());
    const auto n_unpaired = static_cast<double>(unpaired.size());
    for (std::int64_t r = 0; r < table.rows; ++r) {
      const std::int64_t row = c.request.row_offset + r;
      const bool zero_row = is_zero_row(c.convention, row);
      support::ExactSum norm;
      for (std::int64_t col = 0; col < table.cols; ++col) norm.add_product(table.at(r, col), table.at(r, col));
      support::ExactSum expected;
      const double delta = entry_bound.up_to_row(row);
      double bound = static_cast<double>(c.request.dim) * zero_delta * zero_delta;
      if (!zero_row) {
        expected.add(n_pairs);
        for (std::int64_t col : unpaired) {
          const DoubleDouble share = square(reference::exact_value(c.convention, c.request.dim, row, col));
          expected.add(share.hi);
          expected.add(share.lo);
        }
        bound = n_pairs * (2.0 * std::numbers::sqrt2 * delta + 2.0 * delta * delta) +
                n_unpaired * (2.0 * delta + delta * delta) + static_cast<double>(zero_columns) * zero_delta * zero_delta +
                static_cast<double>(c.request.dim + 2) * 0x1.0p-100;
      }
      bound *= bound_rounding;
      const double deviation = std::fabs(support::difference(norm.value(), expected.value()));
      const std::string where = support::position_text(c.convention, row) + " of " + case_text(c);
      closest.see(deviation, bound, where);
      if (!(deviation <= bound)) {
        std::ostringstream message;
        message << where << ": ||PE||^2 = " << norm.approx() << " but " << expected.approx() << " was expected"
                << (zero_row ? " (a zero row)" : "") << ", beyond the bound " << bound;
        fail_case(message.str());
      }
    }
  });
  closest.report(outcome, Quantity::squared_norm_miss_ratio, "largest | ||PE||^2 - expected | / bound");
  return outcome;
}

const CheckDefinition squared_norm_check{
    .id = check_ids::squared_norm,
    .family = Family::encoding_bounds,
    .short_claim = "squaredNormIsTheNumberOfPairs",
    .claim =
        "||PE(p)||^2 equals the number of sin/cos pairs plus the odd sin column's share, within the bound the ULP "
        "budget (a third-party subject: or the float64-angle bound) implies, and zero rows have norm 0.",
    .source =
        "Vaswani et al. 2017, section 3.5; the report's question (c), why the encoding is added (its magnitude is "
        "fixed)",
    .kind = CheckKind::property,
    .catches = {faults::float32_angles, faults::timescale_rule, faults::unzeroed_padding, faults::offset_by_one,
                faults::bfloat16_positions, faults::float16_positions, faults::float16_storage, faults::random_init},
    .run = squared_norm,
};

Outcome origin(const Subject& subject, const RunConfig& config) {
  const SubjectCapabilities capabilities = subject.capabilities();
  const bool fixed = !capabilities.any_convention && capabilities.fixed_convention;
  if (fixed) {
    // Position 0 is row -offset: it must exist, be served and not be zeroed.
    const Convention& convention = *capabilities.fixed_convention;
    const std::int64_t row = -convention.position_offset;
    const support::RowRange rows = support::servable_rows(capabilities, convention);
    if (row < rows.begin || row >= rows.end || is_zero_row(convention, row)) {
      return support::not_applicable("the subject holds no nonzero row for position 0");
    }
  }
  return run_property(std::string(origin_id), config, [&] {
    EncodingCase c = *gen::case_for(capabilities, CaseLimits{4096, 1, 4096, false}).as("case");
    if (fixed) {
      c.request.rows = 1;
      c.request.row_offset = -c.convention.position_offset;
    } else {
      c = with_origin_row(c);
    }
    RC_TAG(std::string(format_of(c.format).name));
    const Table table = support::fetch_table(subject, capabilities, c);
    const std::vector<ColumnSpec> columns = column_layout(c.convention, c.request.dim);
    for (std::int64_t col = 0; col < table.cols; ++col) {
      const double v = table.at(0, col);
      const ColumnKind kind = columns[static_cast<std::size_t>(col)].kind;
      const bool cos_column = kind == ColumnKind::cos;
      const bool exact = cos_column ? v == 1.0 : (v == 0.0 && !std::signbit(v));
      if (!exact) {
        fail_case("PE(0), column " + std::to_string(col) + " (" +
                  (kind == ColumnKind::sin ? "sin" : kind == ColumnKind::cos ? "cos" : "zero") + " of frequency " +
                  std::to_string(columns[static_cast<std::size_t>(col)].frequency_index) + ") holds " +
                  support::value_text(v, c.format) + ", not " + (cos_column ? "1" : "+0") + " (" + case_text(c) + ")");
      }
    }
  });
}

const CheckDefinition origin_check{
    .id = check_ids::origin,
    .family = Family::encoding_bounds,
    .short_claim = "positionZeroIsZeroesAndOnes",
    .claim = "PE(0) is exactly +0 in every sin and zero column and exactly 1 in every cos column.",
    .source = "Vaswani et al. 2017, section 3.5 (sin 0 = 0, cos 0 = 1); CONVENTIONS.md fault 3 (wrong layout)",
    .kind = CheckKind::property,
    .catches = {faults::sin_cos_swapped, faults::one_pair_swapped, faults::wrong_layout, faults::offset_by_one,
                faults::random_init},
    .run = origin,
};

Outcome zero_rows(const Subject& subject, const RunConfig& config) {
  const SubjectCapabilities capabilities = subject.capabilities();
  return run_property(std::string(zero_rows_id), config, [&] {
    EncodingCase c = *gen::case_for(capabilities, CaseLimits{4096, 16, 4096, true}).as("case");
    if (capabilities.any_convention && !capabilities.fixed_request) {
      // Give every case a zero row and ask for the rows that include it.
      if (c.convention.zero_rows.empty()) {
        c.convention.zero_rows = *rc::gen::weightedElement<std::vector<std::int64_t>>(
                                      {{3, {1}}, {1, {0}}, {1, {0, 1}}, {1, {3, 5}}})
                                      .as("zero rows added");
        c.convention.name += " with zero rows";
      }
      const std::int64_t last = *std::max_element(c.convention.zero_rows.begin(), c.convention.zero_rows.end());
      c.request.row_offset = 0;
      c.request.rows = last + 1 + *rc::gen::inRange<std::int64_t>(0, 8).as("rows after the last zero row");
      c.request.dim = std::min(c.request.dim, gen::valid_dim(c.convention, std::max<std::int64_t>(1, 4096 / c.request.rows)));
    }
    RC_TAG(std::string(format_of(c.format).name));
    const Table table = support::fetch_table(subject, capabilities, c);
    const bool has_pair = !paired_frequencies(c.convention, c.request.dim).empty();
    for (std::int64_t r = 0; r < table.rows; ++r) {
      const std::int64_t row = c.request.row_offset + r;
      const bool zero_row = is_zero_row(c.convention, row);
      bool all_zero = true;
      for (std::int64_t col = 0; col < table.cols; ++col) {
        const double v = table.at(r, col);
        if (v != 0.0) all_zero = false;
        if (zero_row && !(v == 0.0 && !std::signbit(v))) {
          fail_case(support::position_text(c.convention, row) + " is a zero row of the convention but column " +
                    std::to_string(col) + " holds " + support::value_text(v, c.format) + " (" + case_text(c) + ")");
        }
      }
      // A row with a (sin, cos) pair has sin^2 + cos^2 = 1: it cannot be all zeros.
      if (!zero_row && has_pair && all_zero) {
        fail_case(support::position_text(c.convention, row) + " is all zeros but the convention zeroes only rows " +
                  [&] {
                    std::string list;
                    for (std::int64_t z : c.convention.zero_rows) list += (list.empty() ? "" : ", ") + std::to_string(z);
                    return list.empty() ? std::string("(none)") : list;
                  }() +
                  " (" + case_text(c) + ")");
      }
    }
  });
}

const CheckDefinition zero_rows_check{
    .id = check_ids::zero_rows,
    .family = Family::encoding_bounds,
    .short_claim = "onlyTheConventionsZeroRowsAreZero",
    .claim =
        "Rows the convention zeroes (fairseq's padding row) hold +0 in every column, and no other row is all zeros.",
    .source = "CONVENTIONS.md fault 4 (fairseq's padding_idx row and padding_idx + 1 start)",
    .kind = CheckKind::property,
    .catches = {faults::unzeroed_padding, faults::random_init},
    .run = zero_rows,
};

}  // namespace pecheck::properties::encoding
