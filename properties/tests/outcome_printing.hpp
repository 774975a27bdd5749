// Test output for an Outcome: the message, statistics and measurements (max
// ULP beside the budget), the series, and for a failure the seed, the
// counterexample and the command that replays it; and test names from check ids
// and their short claims.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "pecheck/properties/check.hpp"
#include "pecheck/properties/registry.hpp"

namespace pecheck::properties {

inline std::string outcome_text(const Outcome& outcome) {
  std::ostringstream out;
  out << outcome.check_id << " on " << outcome.subject << ": " << to_string(outcome.verdict) << " (" << outcome.cases
      << " cases)\n  " << outcome.message << '\n';
  for (const accuracy::Measurement& m : outcome.measurements) {
    out << "  " << format_of(m.format).name << ": max " << m.max_ulp << " ULP (budget " << m.budget_ulp << "), RMS "
        << m.rms_ulp << " ULP, max abs error " << m.max_abs_error << ", " << m.entries << " entries, "
        << m.mismatches << " typed mismatches; worst at row " << m.worst.row << " column " << m.worst.column << ": "
        << m.worst.value_hex << " against exact " << m.worst.exact_text << '\n';
  }
  for (const Statistic& s : outcome.statistics) {
    out << "  " << s.name << " = " << s.value;
    if (s.lower_bound) out << " (lower bound " << *s.lower_bound << ")";
    if (s.upper_bound) out << " (upper bound " << *s.upper_bound << ")";
    if (!s.note.empty()) out << "; " << s.note;
    out << '\n';
  }
  for (const auto& [label, count] : outcome.distribution) out << "  " << count << " cases: " << label << '\n';
  if (outcome.verdict == Verdict::failed) {
    if (outcome.seed) out << "  seed: " << *outcome.seed << '\n';
    for (const auto& [name, value] : outcome.counterexample) out << "  counterexample " << name << " = " << value << '\n';
    if (!outcome.reproduce_command.empty()) out << "  reproduce: " << outcome.reproduce_command << '\n';
  }
  return out.str();
}

// Each series with its first 24 points, enough to see its shape in a test log.
inline std::string series_text(const Outcome& outcome) {
  std::string out;
  for (const Series& s : outcome.series) {
    out += "  series " + s.name + " (" + s.y_label + " against " + s.x_label + "):";
    for (std::size_t i = 0; i < s.x.size() && i < 24; ++i) {
      out += " (" + std::to_string(s.x[i]) + ", " + std::to_string(s.y[i]) + ")";
    }
    if (s.x.size() > 24) out += " ... " + std::to_string(s.x.size()) + " points";
    out += '\n';
  }
  return out;
}

// A GoogleTest parameter name from a check id ("encoding-bounds/unit-interval" -> "encoding_bounds_unit_interval").
inline std::string test_name(std::string id) {
  for (char& c : id) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
  }
  return id;
}

// INSTANTIATE_TEST_SUITE_P's name generator for tests over check ids: the
// check's claim in short (check_test_name), "unit_interval_everyValueLiesInMinusOneToOne".
inline std::string check_id_test_name(const ::testing::TestParamInfo<std::string>& param_info) {
  const Check* check = find_check(param_info.param);
  return check != nullptr ? check_test_name(*check) : test_name(param_info.param);
}

}  // namespace pecheck::properties
