// The turns of a command and its baseline (bench/src/alternated_runs.hpp):
// each baseline run right after a command run, the turns ending at a failed
// command, and one turn at least.
#include <gtest/gtest.h>

#include <string>

#include "alternated_runs.hpp"

namespace pecheck::bench {
namespace {

std::string turns(int runs, int failing_run) {
  std::string order;
  alternated_runs(
      runs,
      [&](int run) {
        order += 'c';
        order += std::to_string(run);
        return run != failing_run;
      },
      [&](int run) {
        order += 'b';
        order += std::to_string(run);
      });
  return order;
}

TEST(AlternatedRuns, eachBaselineRunFollowsItsCommandRun) { EXPECT_EQ(turns(3, -1), "c0b0c1b1c2b2"); }

TEST(AlternatedRuns, aFailedCommandEndsTheTurnsWithoutItsBaseline) { EXPECT_EQ(turns(4, 1), "c0b0c1"); }

TEST(AlternatedRuns, fewerThanOneRunIsOneTurn) {
  EXPECT_EQ(turns(0, -1), "c0b0");
  EXPECT_EQ(turns(-2, -1), "c0b0");
}

}  // namespace
}  // namespace pecheck::bench
