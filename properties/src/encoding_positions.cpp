// Checks over many positions at once: distinct positions stay distinct after
// rounding, and the slow columns (those the format holds constant over a
// range of positions) are counted and checked against the exact values.
#include <algorithm>
#include <cmath>
#include <compare>
#include <sstream>

#include "check_support.hpp"
#include "encoding_checks.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::properties::encoding {

namespace {

constexpr FormatId all_formats[] = {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16};

// How many rows a sweep looks at: RunConfig quick / default / full.
std::int64_t scaled(const RunConfig& config, std::int64_t quick, std::int64_t normal, std::int64_t full) {
  return config.quick ? quick : config.full ? full : normal;
}

// Rows [begin, begin + count) clipped to what the subject serves.
TableRequest window(const SubjectCapabilities& capabilities, const Convention& convention, std::int64_t dim,
                    std::int64_t count) {
  const support::RowRange range = support::servable_rows(capabilities, convention);
  return TableRequest{std::max<std::int64_t>(0, std::min(count, range.end - range.begin)), dim, range.begin};
}

// -0 and +0 are the same value; every other value orders by IEEE totalOrder.
std::strong_ordering compare_values(double a, double b) {
  return std::strong_order(a == 0.0 ? 0.0 : a, b == 0.0 ? 0.0 : b);
}

// Could two rows hold the same stored values while each is within u ULP of
// its exact value? Only if, in every column, the exact values are within
// u ulp(x_p) + u ulp(x_q) of each other. Returns the first column where they
// are not, or -1.
std::int64_t separating_column(const std::vector<DoubleDouble>& exact_p, const std::vector<DoubleDouble>& exact_q,
                               const Format& format, double u) {
  for (std::size_t c = 0; c < exact_p.size(); ++c) {
    const double gap = std::fabs(support::difference(exact_p[c], exact_q[c]));
    const double allowed = u * (ulp_of(exact_p[c], format) + ulp_of(exact_q[c], format));
    if (gap > allowed) return static_cast<std::int64_t>(c);
  }
  return -1;
}

std::vector<DoubleDouble> exact_row(const Convention& convention, std::int64_t dim, std::int64_t row, FormatId format) {
  return reference::reference_table(convention, TableRequest{1, dim, row}, format, 1).exact;
}

}  // namespace

Outcome distinct_positions(const Subject& subject, const RunConfig& config) {
  const SubjectCapabilities capabilities = subject.capabilities();
  const std::vector<std::int64_t> dims = config.quick ? std::vector<std::int64_t>{2, 64}
                                                      : std::vector<std::int64_t>{2, 16, 64, 512};
  const std::int64_t rows_wanted = scaled(config, 512, 4096, 16384);
  // Collisions checked against the exact rows, per (convention, width, format).
  constexpr std::size_t collisions_checked = 64;
  Outcome outcome = support::held("");
  std::vector<std::string> failures;
  std::int64_t formats_run = 0;
  for (const support::ConventionWidth& target : support::sweep_targets(capabilities, dims)) {
    // Two rules are enough to show collisions: the paper's and the timescale one.
    if (capabilities.any_convention && target.convention.name != "vaswani" && target.convention.name != "tensor2tensor") continue;
    const TableRequest request = window(capabilities, target.convention, target.dim, rows_wanted);
    for (FormatId format : all_formats) {
      if (!support::offers(capabilities, format)) continue;
      ++formats_run;
      const Table table = support::fetch_table(subject, capabilities, target.convention, request, format);
      outcome.cases += table.rows;
      std::vector<std::int64_t> order;
      for (std::int64_t r = 0; r < table.rows; ++r) {
        if (!is_zero_row(target.convention, request.row_offset + r)) order.push_back(r);
      }
      const auto row_compare = [&](std::int64_t a, std::int64_t b) {
        for (std::int64_t c = 0; c < table.cols; ++c) {
          const std::strong_ordering o = compare_values(table.at(a, c), table.at(b, c));
          if (o != 0) return o;
        }
        return std::strong_ordering::equal;
      };
      // Equal rows sort by row, so each repeat follows the row it repeats.
      std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
        const std::strong_ordering o = row_compare(a, b);
        return o != 0 ? o < 0 : a < b;
      });
      // (earlier row, later row) for every row equal to an earlier one.
      std::vector<std::pair<std::int64_t, std::int64_t>> collisions;
      for (std::size_t k = 1; k < order.size(); ++k) {
        if (row_compare(order[k - 1], order[k]) == 0) collisions.emplace_back(order[k - 1], order[k]);
      }
      std::sort(collisions.begin(), collisions.end(),
                [](const auto& a, const auto& b) { return a.second != b.second ? a.second < b.second : a.first < b.first; });
      const std::string where = target.convention.name + ", d = " + std::to_string(target.dim) + ", " +
                                std::string(format_of(format).name);
      Statistic first_collision{"first collision: " + where,
                                0.0,
                                std::nullopt,
                                std::nullopt,
                                "",
                                {Quantity::first_collision, format, target.dim, 0, target.convention.name}};
      if (collisions.empty()) {
        first_collision.value = static_cast<double>(position_of_row(target.convention, request.row_offset + table.rows));
        first_collision.note = "no two of the " + std::to_string(table.rows) + " rows from " +
                               support::position_text(target.convention, request.row_offset) + " collide";
      } else {
        const auto [p, q] = collisions.front();
        first_collision.value = static_cast<double>(position_of_row(target.convention, request.row_offset + q));
        first_collision.note = support::position_text(target.convention, request.row_offset + q) + " equals " +
                               support::position_text(target.convention, request.row_offset + p) + "; " +
                               (collisions.size() == 1 ? std::string("1 row repeats") : std::to_string(collisions.size()) + " rows repeat") +
                               " an earlier row";
      }
      outcome.statistics.push_back(first_collision);
      const double u = support::budget_for(subject, format).max_ulp;
      for (std::size_t k = 0; k < std::min(collisions.size(), collisions_checked); ++k) {
        const std::int64_t p = request.row_offset + collisions[k].first;
        const std::int64_t q = request.row_offset + collisions[k].second;
        const std::int64_t column = separating_column(exact_row(target.convention, target.dim, p, format),
                                                      exact_row(target.convention, target.dim, q, format),
                                                      format_of(format), u);
        if (column >= 0) {
          std::ostringstream message;
          message << where << ": " << support::position_text(target.convention, q) << " and "
                  << support::position_text(target.convention, p)
                  << " are stored identically, yet their exact values in column " << column
                  << " are further apart than a budget of " << u << " ULP allows";
          failures.push_back(message.str());
          break;
        }
      }
    }
  }
  if (formats_run == 0) return support::not_applicable("the subject offers none of the formats");
  if (!failures.empty()) {
    outcome.verdict = Verdict::failed;
    outcome.message = failures.front() + (failures.size() > 1 ? " (and " + std::to_string(failures.size() - 1) +
                                                                     " more)" : "");
  } else {
    outcome.message = "every collision found is one the exact encoding allows within the budget (" +
                      std::to_string(outcome.statistics.size()) + " convention, width and format combinations)";
  }
  return outcome;
}

const CheckDefinition distinct_positions_check{
    .id = check_ids::distinct_positions,
    .family = Family::encoding_bounds,
    .short_claim = "distinctPositionsKeepDistinctRows",
    .claim =
        "Distinct positions keep distinct rows after rounding to the format unless their exact rows are within the "
        "ULP budget of each other in every column; the first collision is reported.",
    .source = "CONVENTIONS.md fault 1 (positions in bf16: pytorch issues 137774 and 114544, transformers issue 28685)",
    .kind = CheckKind::measurement,
    .catches = {faults::bfloat16_positions, faults::corrupted_row},
    .run = distinct_positions,
};

Outcome slow_columns(const Subject& subject, const RunConfig& config) {
  const SubjectCapabilities capabilities = subject.capabilities();
  const std::vector<support::ConventionWidth> targets =
      support::sweep_targets(capabilities, {config.quick ? std::int64_t{128} : std::int64_t{512}});
  // One convention is the figure: the paper's (or the subject's own).
  const support::ConventionWidth target = targets.front();
  const int longest_power = static_cast<int>(scaled(config, 9, 12, 14));
  const TableRequest request = window(capabilities, target.convention, target.dim, std::int64_t{1} << longest_power);
  if (request.rows < 2) return support::not_applicable("the subject serves fewer than two rows");
  const Convention& convention = target.convention;
  const std::int64_t d = request.dim;
  const std::vector<ColumnSpec> columns = column_layout(convention, d);

  // The exact values in long double: w from the rule's terms (relative error
  // about (3|E| + 7) 2^-64 for w = multiplier exp(E) / divisor: the
  // multiplier, a timestep rule's scale, is one more product), the angle p w, then
  // sinl / cosl. Their error is below slack(angle) = ((3|E| + 7)|angle| + 4)
  // 2^-64, which is added to every span before it is compared.
  std::vector<long double> frequency(static_cast<std::size_t>(d), 0.0L);
  std::vector<long double> exponent(static_cast<std::size_t>(d), 0.0L);
  for (std::int64_t c = 0; c < d; ++c) {
    const ColumnSpec& spec = columns[static_cast<std::size_t>(c)];
    if (spec.kind == ColumnKind::zero) continue;
    const FrequencyTerm term = frequency_term(convention, d, spec.frequency_index);
    const long double e = -(static_cast<long double>(term.k) / static_cast<long double>(term.m)) *
                          std::log(static_cast<long double>(term.log_numerator) / static_cast<long double>(term.log_denominator));
    exponent[static_cast<std::size_t>(c)] = std::fabs(e);
    frequency[static_cast<std::size_t>(c)] =
        static_cast<long double>(term.multiplier) * std::exp(e) / static_cast<long double>(term.divisor);
  }
  struct Span {
    long double min = INFINITY, max = -INFINITY, slack = 0.0L;
  };
  std::vector<Span> spans(static_cast<std::size_t>(d));
  std::vector<std::int64_t> windows;
  for (int k = 1; k <= longest_power && (std::int64_t{1} << k) <= request.rows; ++k) windows.push_back(std::int64_t{1} << k);
  // exact_spans[w][c]: the exact span of column c over the first windows[w] rows.
  std::vector<std::vector<Span>> exact_spans;
  {
    std::size_t next_window = 0;
    for (std::int64_t r = 0; r < request.rows && next_window < windows.size(); ++r) {
      const std::int64_t row = request.row_offset + r;
      if (!is_zero_row(convention, row)) {
        const auto position = static_cast<long double>(position_of_row(convention, row));
        for (std::int64_t c = 0; c < d; ++c) {
          const auto k = static_cast<std::size_t>(c);
          const ColumnKind kind = columns[k].kind;
          const long double angle = position * frequency[k];
          const long double x = kind == ColumnKind::sin ? std::sin(angle) : kind == ColumnKind::cos ? std::cos(angle) : 0.0L;
          spans[k].min = std::min(spans[k].min, x);
          spans[k].max = std::max(spans[k].max, x);
          spans[k].slack = std::max(spans[k].slack, ((3.0L * exponent[k] + 7.0L) * std::fabs(angle) + 4.0L) * 0x1.0p-64L);
        }
      }
      if (r + 1 == windows[next_window]) {
        exact_spans.push_back(spans);
        ++next_window;
      }
    }
  }

  Outcome outcome = support::held("");
  std::vector<std::string> failures;
  for (FormatId format : all_formats) {
    if (!support::offers(capabilities, format)) continue;
    const Format& f = format_of(format);
    const double u = support::budget_for(subject, format).max_ulp;
    const Table table = support::fetch_table(subject, capabilities, convention, request, format);
    outcome.cases += table.rows * table.cols;
    // first_change[c]: the first row (counted from the window start) where
    // column c differs from its first nonzero-row value.
    std::vector<std::int64_t> first_change(static_cast<std::size_t>(d), table.rows);
    std::int64_t first_row = 0;
    while (first_row < table.rows && is_zero_row(convention, request.row_offset + first_row)) ++first_row;
    for (std::int64_t c = 0; c < d; ++c) {
      for (std::int64_t r = first_row + 1; r < table.rows; ++r) {
        if (is_zero_row(convention, request.row_offset + r)) continue;
        if (compare_values(table.at(r, c), table.at(first_row, c)) != 0) {
          first_change[static_cast<std::size_t>(c)] = r;
          break;
        }
      }
    }
    for (std::size_t w = 0; w < windows.size(); ++w) {
      std::int64_t constant = 0;
      for (std::int64_t c = 0; c < d; ++c) {
        const auto k = static_cast<std::size_t>(c);
        if (columns[k].kind == ColumnKind::zero || first_change[k] < windows[w]) continue;
        ++constant;
        // A stored constant v within u ULP of every exact value x needs
        // max x - min x <= u ulp(max) + u ulp(min).
        const Span& span = exact_spans[w][k];
        const auto ulp_at = [&](long double x) {
          const auto hi = static_cast<double>(x);
          return ulp_of(DoubleDouble{hi, static_cast<double>(x - hi)}, f);
        };
        const long double allowed = u * (ulp_at(span.max) + ulp_at(span.min)) + 2.0L * span.slack;
        if (span.max - span.min > allowed && failures.empty()) {
          std::ostringstream message;
          message << std::string(f.name) << ": column " << c << " holds " << support::value_text(table.at(first_row, c), format)
                  << " in every row of [" << request.row_offset << ", " << request.row_offset + windows[w]
                  << "), but its exact values span " << static_cast<double>(span.max - span.min)
                  << ", more than " << u << " ULP from one value allows (" << convention.name << ", d = " << d << ")";
          failures.push_back(message.str());
        }
      }
      outcome.statistics.push_back({std::string(f.name) + " constant columns over rows [" +
                                        std::to_string(request.row_offset) + ", " +
                                        std::to_string(request.row_offset + windows[w]) + ")",
                                    static_cast<double>(constant),
                                    std::nullopt,
                                    std::nullopt,
                                    "of " + std::to_string(d) + " columns, " + convention.name,
                                    {Quantity::constant_columns, format, d, windows[w], convention.name}});
    }
  }
  if (outcome.statistics.empty()) return support::not_applicable("the subject offers none of the formats");
  if (!failures.empty()) {
    outcome.verdict = Verdict::failed;
    outcome.message = failures.front();
  } else {
    outcome.message = "every column held constant over a window is one whose exact values the budget allows to round to one value";
  }
  return outcome;
}

const CheckDefinition slow_columns_check{
    .id = check_ids::slow_columns,
    .family = Family::encoding_bounds,
    .short_claim = "constantColumnsAreExactlySlowColumns",
    .claim =
        "Over the first 2^k positions, a column the table holds constant is one whose exact values stay within the "
        "ULP budget of one value; how many such slow columns each format has is reported.",
    .source = "the seed observation that the last dimensions are hardly affected by the position",
    .kind = CheckKind::measurement,
    .catches = {faults::sin_cos_swapped, faults::one_pair_swapped, faults::wrong_layout, faults::float32_angles,
                faults::float16_storage},
    .run = slow_columns,
};

}  // namespace pecheck::properties::encoding
