// A minimal parallel loop for the report's sweeps: items are claimed one at
// a time from a shared counter, and each writes only its own result slot,
// so the results do not depend on the number of threads or their timing.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace pecheck::reports {

// Calls body(i) for every i in [0, count) on up to `threads` threads (0: the
// hardware's concurrency). The first exception is rethrown after all threads stop.
template <typename Body>
void parallel_for(std::size_t count, int threads, Body body) {
  std::size_t workers = threads > 0 ? static_cast<std::size_t>(threads) : std::thread::hardware_concurrency();
  workers = std::clamp<std::size_t>(workers, 1, std::max<std::size_t>(count, 1));
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto work = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      try {
        body(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = count;  // stop claiming new items
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < workers; ++t) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace pecheck::reports
