// Memory for large buffers, placed so the kernel can back it with
// transparent huge pages.
//
// A page fault costs the same for a 4 KiB page as for a 2 MiB one, and on a
// virtual machine it costs more than the work done on the page: touching a
// fresh 4 MiB buffer in small pages measured 16 ms (1024 faults), filling a
// fresh 32 MiB table 80 ms of faults for a 1.4 ms kernel. From 1 MiB on, a
// buffer is placed in whole 2 MiB pages and advised as huge (advice only: a
// kernel without transparent huge pages ignores it); zeroing a 2 MiB page
// takes about a tenth of a millisecond.
#pragma once

#include <cstddef>
#include <memory>
#include <new>

namespace pecheck {

namespace detail {

// Frees a buffer with the alignment it was allocated with.
struct AlignedDelete {
  std::size_t alignment = 64;
  void operator()(std::byte* p) const;
};

}  // namespace detail

using PageBuffer = std::unique_ptr<std::byte[], detail::AlignedDelete>;

// At least `bytes` bytes (one when bytes is 0), aligned to a 64-byte cache
// line, or from 1 MiB on to 2 MiB in whole huge pages. Throws std::bad_alloc.
PageBuffer allocate_page_buffer(std::size_t bytes);

// The same placement for a standard container's storage.
template <class T>
struct PageAllocator {
  using value_type = T;
  PageAllocator() = default;
  template <class U>
  PageAllocator(const PageAllocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor): rebinding
  T* allocate(std::size_t n) { return reinterpret_cast<T*>(allocate_page_buffer(n * sizeof(T)).release()); }
  void deallocate(T* p, std::size_t n) noexcept;
  template <class U>
  bool operator==(const PageAllocator<U>&) const noexcept {
    return true;
  }
};

// The alignment allocate_page_buffer gives `bytes`.
std::size_t page_buffer_alignment(std::size_t bytes);

template <class T>
void PageAllocator<T>::deallocate(T* p, std::size_t n) noexcept {
  detail::AlignedDelete{page_buffer_alignment(n * sizeof(T))}(reinterpret_cast<std::byte*>(p));
}

}  // namespace pecheck
