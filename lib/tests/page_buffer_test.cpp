// Where large buffers are placed: on a cache line below 1 MiB, on a 2 MiB
// huge page boundary from 1 MiB on (page_buffer.hpp says why), for tables
// and for containers alike.
#include "pecheck/page_buffer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "pecheck/table.hpp"

namespace pecheck {
namespace {

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

constexpr std::size_t mib = std::size_t{1} << 20;

TEST(PageBuffer, smallBuffersStartOnACacheLineAndLargeOnesOnAHugePage) {
  for (const std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{4096}, mib - 1}) {
    const PageBuffer buffer = allocate_page_buffer(bytes);
    ASSERT_NE(buffer.get(), nullptr) << bytes << " bytes";
    EXPECT_EQ(address(buffer.get()) % 64, 0u) << bytes << " bytes";
    EXPECT_EQ(page_buffer_alignment(bytes), 64u) << bytes << " bytes";
  }
  for (const std::size_t bytes : {mib, 2 * mib, 3 * mib + 5}) {
    const PageBuffer buffer = allocate_page_buffer(bytes);
    EXPECT_EQ(address(buffer.get()) % (2 * mib), 0u) << bytes << " bytes";
    EXPECT_EQ(page_buffer_alignment(bytes), 2 * mib) << bytes << " bytes";
    // Every byte asked for is usable (the allocation is rounded up, never down).
    buffer.get()[bytes - 1] = std::byte{1};
  }
}

TEST(PageBuffer, aContainerAndATableGetTheSamePlacement) {
  std::vector<double, PageAllocator<double>> large(mib / sizeof(double), 1.0);
  EXPECT_EQ(address(large.data()) % (2 * mib), 0u);
  std::vector<double, PageAllocator<double>> small(16, 1.0);
  EXPECT_EQ(address(small.data()) % 64, 0u);
  // Growing frees the old storage with the alignment it was allocated with.
  for (int k = 0; k < 4; ++k) large.resize(large.size() * 2, 2.0);
  EXPECT_EQ(large.front(), 1.0);
  EXPECT_EQ(large.back(), 2.0);
  const Table table = make_uninitialized_table(256, 1024, FormatId::float32);  // exactly 1 MiB
  EXPECT_EQ(address(table.bytes().data()) % (2 * mib), 0u);
}

}  // namespace
}  // namespace pecheck
