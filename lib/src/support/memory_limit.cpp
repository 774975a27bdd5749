#include "pecheck/memory_limit.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace pecheck {

MemoryLimitError::MemoryLimitError(std::uint64_t needed, std::uint64_t available, const std::string& what)
    : std::runtime_error(what + " needs " + byte_count_text(needed) + ", more than this process can allocate (" +
                         byte_count_text(available) + ": physical memory and ulimit -v/-d)"),
      needed_(needed),
      available_(available) {}

std::uint64_t allocation_limit() {
  std::uint64_t limit = UINT64_MAX;
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0) limit = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
  for (const int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit rl{};
    if (getrlimit(resource, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
      limit = std::min<std::uint64_t>(limit, rl.rlim_cur);
    }
  }
  return limit;
}

void check_memory_available(std::uint64_t bytes, const std::string& what) {
  const std::uint64_t limit = allocation_limit();
  if (bytes > limit) throw MemoryLimitError(bytes, limit, what);
}

std::string byte_count_text(std::uint64_t bytes) {
  char text[64];
  std::snprintf(text, sizeof text, "%.2f GiB (%llu bytes)", static_cast<double>(bytes) / 1073741824.0,
                static_cast<unsigned long long>(bytes));
  return text;
}

}  // namespace pecheck
