// Test helpers for the scaling-variance and add-vs-concat families: run one
// registered check on a subject and print its outcome, series included.
#pragma once

#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "outcome_printing.hpp"
#include "pecheck/properties/registry.hpp"

namespace pecheck::properties {

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

inline Outcome run_and_print(const std::string& id, const Subject& subject, const RunConfig& config = {}) {
  const Check* check = find_check(id);
  if (check == nullptr) {
    ADD_FAILURE() << "no check " << id;
    return {};
  }
  Outcome outcome = run_check(*check, subject, config);
  std::cout << outcome_text(outcome) << series_text(outcome);
  return outcome;
}

inline const Statistic* find_statistic(const Outcome& outcome, const std::string& fragment) {
  for (const Statistic& s : outcome.statistics) {
    if (s.name.find(fragment) != std::string::npos) return &s;
  }
  return nullptr;
}

}  // namespace pecheck::properties
