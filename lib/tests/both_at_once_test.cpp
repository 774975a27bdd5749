// Two jobs at once (parallel_for.hpp): both run to the end, and the first
// job's error is the one thrown when both fail, whichever failed first.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "pecheck/parallel_for.hpp"

namespace pecheck {
namespace {

TEST(BothAtOnce, runsBothJobs) {
  int first = 0, second = 0;
  both_at_once([&] { first = 1; }, [&] { second = 2; });
  EXPECT_EQ(first, 1);
  EXPECT_EQ(second, 2);
}

TEST(BothAtOnce, theFirstJobsErrorWinsWhicheverFailedFirst) {
  for (const bool first_fails_late : {false, true}) {
    std::atomic<bool> second_done{false};
    try {
      both_at_once(
          [&] {
            if (first_fails_late) std::this_thread::sleep_for(std::chrono::milliseconds(20));
            throw std::runtime_error("first");
          },
          [&] {
            second_done = true;
            throw std::runtime_error("second");
          });
      FAIL() << "nothing thrown";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "first");
    }
    EXPECT_TRUE(second_done);  // the second ran to its end
  }
}

TEST(BothAtOnce, theSecondJobsErrorWhenTheFirstSucceeds) {
  bool first_done = false;
  EXPECT_THROW(both_at_once([&] { first_done = true; }, [] { throw std::invalid_argument("second"); }),
               std::invalid_argument);
  EXPECT_TRUE(first_done);
}

}  // namespace
}  // namespace pecheck
