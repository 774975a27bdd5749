// Test helpers that run registered checks: one check on a subject with its
// outcome printed (series included), so the test log carries the measured
// figures, and every check of a family on pecheck's fast subject.
#pragma once

#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "outcome_printing.hpp"
#include "pecheck/properties/registry.hpp"

namespace pecheck::properties {

inline Outcome run_and_print(std::string_view id, const Subject& subject, const RunConfig& config = {}) {
  const Check* check = find_check(id);
  if (check == nullptr) {
    ADD_FAILURE() << "no check " << id;
    return {};
  }
  Outcome outcome = run_check(*check, subject, config);
  std::cout << outcome_text(outcome) << series_text(outcome);
  return outcome;
}

// pecheck's own fast implementation, made once per test process; shared, so
// the fault-injected subjects can wrap it.
inline std::shared_ptr<const Subject> fast_subject() {
  static const std::shared_ptr<const Subject> subject = make_fast_subject();
  return subject;
}

// The ids of one family's registered checks, in registry order.
inline std::vector<std::string> family_check_ids(Family family) {
  std::vector<std::string> ids;
  for (const Check& check : all_checks()) {
    if (check.family == family) ids.push_back(check.id);
  }
  return ids;
}

// What a family test claims of each of its checks: it holds on the fast
// subject, and on at least one case.
inline void expect_holds_on_the_fast_subject(const std::string& id) {
  const Outcome outcome = run_and_print(id, *fast_subject());
  const Check* check = find_check(id);
  ASSERT_NE(check, nullptr);
  // An observation that ran is "info"; a claim must hold.
  const Verdict expected = check->role == CheckRole::observation ? Verdict::info : Verdict::held;
  EXPECT_EQ(outcome.verdict, expected) << outcome_text(outcome);
  EXPECT_GT(outcome.cases, 0);
  // Readers find statistics by key: two under one key would make a lookup ambiguous.
  for (std::size_t i = 0; i < outcome.statistics.size(); ++i) {
    for (std::size_t j = i + 1; j < outcome.statistics.size(); ++j) {
      EXPECT_FALSE(outcome.statistics[i].key == outcome.statistics[j].key)
          << id << " files \"" << outcome.statistics[i].name << "\" and \"" << outcome.statistics[j].name
          << "\" under one key " << to_string(outcome.statistics[i].key);
    }
  }
}

}  // namespace pecheck::properties
