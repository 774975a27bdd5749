#include "pecheck/process_limits.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>

namespace pecheck {

namespace {

void write_peak_memory() {
  const char* path = std::getenv("PECHECK_PEAK_RSS_FILE");
  if (path == nullptr) return;
  FILE* status = std::fopen("/proc/self/status", "r");
  if (status == nullptr) return;
  char line[256];
  long long kib = -1;
  while (std::fgets(line, sizeof line, status) != nullptr) {
    if (std::strncmp(line, "VmHWM:", 6) == 0) kib = std::atoll(line + 6);
  }
  std::fclose(status);
  if (kib < 0) return;
  if (FILE* out = std::fopen(path, "w")) {
    std::fprintf(out, "%lld\n", kib * 1024);
    std::fclose(out);
  }
}

// Memory set aside at start for the destructors that run after an
// allocation failed. Unwinding std::bad_alloc runs destructors that allocate
// and must not throw (nlohmann's json takes a container apart through a heap
// stack of its elements, up to 1 MiB within json_input.hpp's limits); when
// those fail too, std::terminate aborts with two lines instead of the one
// error line below. So the first failure gives the reserve back and fails as
// usual, and a failure during the unwinding that follows is retried in the
// memory given back.
void* memory_reserve = nullptr;
constexpr std::size_t memory_reserve_bytes = std::size_t{8} << 20;

void on_failed_allocation() {
  const bool unwinding = std::uncaught_exceptions() > 0;
  if (memory_reserve != nullptr) {
    std::free(memory_reserve);
    memory_reserve = nullptr;
    if (unwinding) return;  // operator new tries again, in the memory given back
  }
  throw std::bad_alloc();
}

}  // namespace

void report_peak_memory_at_exit_if_asked() {
  if (std::getenv("PECHECK_PEAK_RSS_FILE") != nullptr) std::atexit(write_peak_memory);
}

void reserve_memory_for_unwinding() {
  memory_reserve = std::malloc(memory_reserve_bytes);
  std::set_new_handler(on_failed_allocation);
}

}  // namespace pecheck
