#include "check_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <rapidcheck.h>

namespace pecheck::properties::support {

namespace {

std::string rows_text(const TableRequest& request) {
  return "rows [" + std::to_string(request.row_offset) + ", " + std::to_string(request.row_offset + request.rows) +
         ") at width " + std::to_string(request.dim);
}

}  // namespace

Table fetch_table(const Subject& subject, const SubjectCapabilities& capabilities, const Convention& convention,
                  const TableRequest& request, FormatId format) {
  if (!capabilities.fixed_request) {
    Table table = subject.encoding_table(convention, request, format);
    if (table.rows != request.rows || table.cols != request.dim ||
        static_cast<std::size_t>(table.size()) != static_cast<std::size_t>(request.rows * request.dim)) {
      throw SubjectError("subject '" + subject.name() + "' returned a " + std::to_string(table.rows) + " x " +
                         std::to_string(table.cols) + " table for " + rows_text(request));
    }
    return table;
  }
  const TableRequest& fixed = *capabilities.fixed_request;
  if (request.dim != fixed.dim || request.row_offset < fixed.row_offset ||
      request.row_offset + request.rows > fixed.row_offset + fixed.rows) {
    throw SubjectError("subject '" + subject.name() + "' holds " + rows_text(fixed) + "; a check asked for " +
                       rows_text(request));
  }
  const Table whole = subject.encoding_table(convention, fixed, format);
  if (whole.rows != fixed.rows || whole.cols != fixed.dim ||
      static_cast<std::size_t>(whole.size()) != static_cast<std::size_t>(fixed.rows * fixed.dim)) {
    throw SubjectError("subject '" + subject.name() + "' returned a " + std::to_string(whole.rows) + " x " +
                       std::to_string(whole.cols) + " table for " + rows_text(fixed));
  }
  return copy_table(whole.view().row_block(request.row_offset - fixed.row_offset, request.rows));
}

RowRange servable_rows(const SubjectCapabilities& capabilities, const Convention& convention) {
  if (capabilities.fixed_request) {
    return {capabilities.fixed_request->row_offset,
            capabilities.fixed_request->row_offset + capabilities.fixed_request->rows};
  }
  // Row r holds position r + offset; every position must stay below 2^24.
  return {std::max<std::int64_t>(0, -convention.position_offset), max_exact_position - convention.position_offset};
}

std::vector<ConventionWidth> sweep_targets(const SubjectCapabilities& capabilities, const std::vector<std::int64_t>& dims) {
  std::vector<ConventionWidth> targets;
  std::vector<Convention> conventions;
  if (!capabilities.any_convention && capabilities.fixed_convention) {
    conventions.push_back(*capabilities.fixed_convention);
  } else {
    conventions = presets();
  }
  for (const Convention& convention : conventions) {
    if (capabilities.fixed_request) {
      targets.push_back({convention, capabilities.fixed_request->dim});
      continue;
    }
    for (std::int64_t d : dims) {
      const std::int64_t valid = gen::valid_dim(convention, d);
      const bool seen = std::any_of(targets.begin(), targets.end(), [&](const ConventionWidth& t) {
        return t.convention.name == convention.name && t.dim == valid;
      });
      if (!seen) targets.push_back({convention, valid});
    }
  }
  return targets;
}

bool offers(const SubjectCapabilities& capabilities, FormatId format) {
  return std::find(capabilities.formats.begin(), capabilities.formats.end(), format) != capabilities.formats.end();
}

std::string formats_text(const SubjectCapabilities& capabilities) {
  std::string text;
  for (FormatId format : capabilities.formats) text += (text.empty() ? "" : ", ") + std::string(format_of(format).name);
  return text.empty() ? "no format" : text;
}

const accuracy::UlpBudget& budget_for(const Subject& subject, FormatId format) {
  return accuracy::ulp_budget(accuracy::budget_kind_of(subject.name()), format);
}

double value_error_bound(FormatId format, double ulps) {
  return ulps * std::ldexp(1.0, 1 - format_of(format).precision);
}

EntryErrorBound::EntryErrorBound(const Subject& subject, const Convention& convention, std::int64_t dim,
                                 FormatId format) {
  const accuracy::UlpBudget& budget = budget_for(subject, format);
  ulp_bound_ = value_error_bound(format, budget.max_ulp);
  if (budget.kind == accuracy::BudgetKind::third_party) allowance_.emplace(convention, dim, format);
}

double EntryErrorBound::up_to_row(std::int64_t last_row) const {
  return allowance_ ? std::max(ulp_bound_, allowance_->largest_bound(last_row)) : ulp_bound_;
}

void ExactSum::add(double x) {
  const DoubleDouble s = two_sum(sum_.hi, x);
  sum_ = quick_two_sum(s.hi, s.lo + sum_.lo);
}

void ExactSum::add_product(double a, double b) {
  const DoubleDouble p = two_prod(a, b);
  add(p.hi);
  add(p.lo);
}

double difference(DoubleDouble a, DoubleDouble b) {
  ExactSum sum;
  sum.add(a.hi);
  sum.add(-b.hi);
  sum.add(a.lo);
  sum.add(-b.lo);
  return sum.approx();
}

std::string value_text(double value, FormatId format) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  std::string text = buffer;
  if (std::isnan(value) || is_representable(value, format_of(format))) {
    text += " (" + hex_bits(value, format_of(format)) + ")";
  }
  return text;
}

std::string position_text(const Convention& convention, std::int64_t row) {
  return "row " + std::to_string(row) + " (position " + std::to_string(position_of_row(convention, row)) + ")";
}

void fail_case(const std::string& message) {
  throw rc::detail::CaseResult(rc::detail::CaseResult::Type::Failure, message);
}

Outcome not_applicable(const std::string& reason) {
  Outcome outcome;
  outcome.verdict = Verdict::not_applicable;
  outcome.message = reason;
  return outcome;
}

Outcome held(std::string message) {
  Outcome outcome;
  outcome.verdict = Verdict::held;
  outcome.message = std::move(message);
  return outcome;
}

Outcome failed(std::string message) {
  Outcome outcome;
  outcome.verdict = Verdict::failed;
  outcome.message = std::move(message);
  return outcome;
}

}  // namespace pecheck::properties::support
