// The one decision of how many workers a run gets (parallel_for.hpp).
#include <gtest/gtest.h>

#include <thread>

#include "pecheck/parallel_for.hpp"

namespace pecheck {
namespace {

TEST(WorkerCount, aRequestIsHonouredUpToTheTasks) {
  EXPECT_EQ(worker_count(3, 100), 3);
  EXPECT_EQ(worker_count(8, 5), 5);  // a worker with nothing to do costs a thread
  EXPECT_EQ(worker_count(4, 0), 1);  // no task still needs the calling thread
}

TEST(WorkerCount, noRequestMeansOnePerMachineThread) {
  EXPECT_GE(machine_threads(), 1);
  EXPECT_EQ(machine_threads(), static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  EXPECT_EQ(worker_count(0, 1'000'000), machine_threads());
  EXPECT_EQ(worker_count(0, 1), 1);
  EXPECT_EQ(worker_count(-2, 10), machine_threads());  // not positive: the default
}

}  // namespace
}  // namespace pecheck
