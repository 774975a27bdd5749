// The two-buffer overlap behind writing produced tables: every block is
// written once, in order, holding what was filled for it; a failure on
// either side stops the other and reaches the caller.
#include "fill_while_writing.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

namespace pecheck::detail {
namespace {

// A 1 x 1 float64 block holding its own index.
void fill_with_index(std::int64_t k, Table& block) {
  if (block.rows != 1) block = make_uninitialized_table(1, 1, FormatId::float64);
  block.set(0, 0, static_cast<double>(k));
}

double value_of(const Table& block) { return block.at(0, 0); }

// Uneven pauses on both sides, so that either may run ahead of the other.
void pause_for(std::int64_t k, int side) {
  std::this_thread::sleep_for(std::chrono::microseconds((k * 7 + side * 3) % 5 * 100));
}

TEST(FillWhileWriting, writesEveryBlockOnceInOrderWithWhatWasFilledForIt) {
  constexpr std::int64_t blocks = 40;
  std::vector<double> written;
  fill_while_writing(
      blocks,
      [](std::int64_t k, Table& block) {
        pause_for(k, 0);
        fill_with_index(k, block);
      },
      [&](std::int64_t k, const Table& block) {
        pause_for(k, 1);
        EXPECT_EQ(value_of(block), static_cast<double>(k)) << "block " << k << " was overwritten before it was written";
        written.push_back(value_of(block));
      });
  ASSERT_EQ(written.size(), static_cast<std::size_t>(blocks));
  for (std::int64_t k = 0; k < blocks; ++k) EXPECT_EQ(written[static_cast<std::size_t>(k)], static_cast<double>(k));
}

TEST(FillWhileWriting, noBlocksCallsNeitherSide) {
  int calls = 0;
  fill_while_writing(
      0, [&](std::int64_t, Table&) { ++calls; }, [&](std::int64_t, const Table&) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(FillWhileWriting, aFailedWriteStopsTheFillingAndReachesTheCaller) {
  std::atomic<std::int64_t> filled{0};
  EXPECT_THROW(fill_while_writing(
                   1000,
                   [&](std::int64_t k, Table& block) {
                     fill_with_index(k, block);
                     ++filled;
                   },
                   [](std::int64_t k, const Table&) {
                     if (k == 3) throw std::runtime_error("disk full");
                   }),
               std::runtime_error);
  // Blocks 4 and 5 may have been filled while block 3 was being written; no more.
  EXPECT_LE(filled.load(), 6);
}

TEST(FillWhileWriting, aFailedFillIsNeverWrittenAndReachesTheCaller) {
  std::vector<std::int64_t> written;
  EXPECT_THROW(fill_while_writing(
                   10,
                   [](std::int64_t k, Table& block) {
                     if (k == 2) throw std::invalid_argument("kernel failed");
                     fill_with_index(k, block);
                   },
                   [&](std::int64_t k, const Table&) { written.push_back(k); }),
               std::invalid_argument);
  // The writer stops at the failure too, so it may not have reached block 1.
  ASSERT_LE(written.size(), 2u);
  for (std::size_t k = 0; k < written.size(); ++k) EXPECT_EQ(written[k], static_cast<std::int64_t>(k));
}

}  // namespace
}  // namespace pecheck::detail
