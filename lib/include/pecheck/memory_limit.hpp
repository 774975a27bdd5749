// Refusing an allocation the machine cannot hold before making it.
//
// Linux overcommits: a huge operator new succeeds and the process is killed
// later, when the pages are touched. So a size read from a file or a flag is
// compared up front with what the machine has: the physical memory and the
// process's address-space and data limits (ulimit -v, ulimit -d).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace pecheck {

class MemoryLimitError : public std::runtime_error {
 public:
  MemoryLimitError(std::uint64_t needed, std::uint64_t available, const std::string& what);
  std::uint64_t needed() const { return needed_; }
  std::uint64_t available() const { return available_; }

 private:
  std::uint64_t needed_;
  std::uint64_t available_;
};

// The most bytes one allocation may take: the smallest of physical memory and
// the RLIMIT_AS / RLIMIT_DATA soft limits.
std::uint64_t allocation_limit();

// Throws MemoryLimitError, naming `what` and the size in bytes and GiB, when
// `bytes` is more than allocation_limit().
void check_memory_available(std::uint64_t bytes, const std::string& what);

// "1.50 GiB (1610612736 bytes)".
std::string byte_count_text(std::uint64_t bytes);

}  // namespace pecheck
