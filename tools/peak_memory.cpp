#include "peak_memory.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace pecheck::tools {

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

}  // namespace

void report_peak_memory_at_exit_if_asked() {
  if (std::getenv("PECHECK_PEAK_RSS_FILE") != nullptr) std::atexit(write_peak_memory);
}

}  // namespace pecheck::tools
