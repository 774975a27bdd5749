#include "pecheck/page_buffer.hpp"

#include <sys/mman.h>

namespace pecheck {

namespace {

// Buffers start on a cache line: the kernels store whole lines, and AVX-512
// loads of a row never straddle one.
constexpr std::size_t line_bytes = 64;
constexpr std::size_t huge_page_bytes = std::size_t{1} << 21;
// From here on a whole huge page is cheaper than the faults of its small
// pages (256 of them at 1 MiB): see page_buffer.hpp.
constexpr std::size_t huge_page_threshold = std::size_t{1} << 20;

bool is_huge(std::size_t bytes) { return bytes >= huge_page_threshold; }

}  // namespace

void detail::AlignedDelete::operator()(std::byte* p) const { ::operator delete[](p, std::align_val_t{alignment}); }

std::size_t page_buffer_alignment(std::size_t bytes) { return is_huge(bytes) ? huge_page_bytes : line_bytes; }

PageBuffer allocate_page_buffer(std::size_t bytes) {
  const bool huge = is_huge(bytes);
  const std::size_t alignment = page_buffer_alignment(bytes);
  const std::size_t allocated = huge ? (bytes + huge_page_bytes - 1) / huge_page_bytes * huge_page_bytes : bytes;
  auto* p = static_cast<std::byte*>(::operator new[](allocated == 0 ? 1 : allocated, std::align_val_t{alignment}));
  if (huge) ::madvise(p, allocated, MADV_HUGEPAGE);
  return PageBuffer(p, detail::AlignedDelete{alignment});
}

}  // namespace pecheck
