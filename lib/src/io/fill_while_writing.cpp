#include "fill_while_writing.hpp"

#include <array>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

namespace pecheck::detail {

namespace {

// What the two sides know of each other: how far each has got, and whether
// either has failed (then the other stops at its next wait).
class Progress {
 public:
  // Waits until `ready` holds or a side has failed; returns false on failure.
  template <typename Ready>
  bool wait_until(Ready ready) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return failure_ != nullptr || ready(filled_, written_); });
    return failure_ == nullptr;
  }
  void filled(std::int64_t count) {
    update([&] { filled_ = count; });
  }
  void written(std::int64_t count) {
    update([&] { written_ = count; });
  }
  void fail(std::exception_ptr failure) {
    update([&] {
      if (failure_ == nullptr) failure_ = std::move(failure);
    });
  }
  std::exception_ptr failure() {
    std::lock_guard lock(mutex_);
    return failure_;
  }

 private:
  template <typename Change>
  void update(Change change) {
    {
      std::lock_guard lock(mutex_);
      change();
    }
    changed_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::int64_t filled_ = 0;   // blocks filled so far
  std::int64_t written_ = 0;  // blocks written so far
  std::exception_ptr failure_;
};

}  // namespace

void fill_while_writing(std::int64_t blocks, const std::function<void(std::int64_t block, Table& buffer)>& fill,
                        const std::function<void(std::int64_t block, const Table& buffer)>& write) {
  std::array<Table, 2> buffers;
  Progress progress;
  std::thread writer;
  try {
    writer = std::thread([&] {
      try {
        for (std::int64_t k = 0; k < blocks; ++k) {
          if (!progress.wait_until([k](std::int64_t filled, std::int64_t) { return filled > k; })) return;
          write(k, buffers[static_cast<std::size_t>(k % 2)]);
          progress.written(k + 1);
        }
      } catch (...) {
        progress.fail(std::current_exception());
      }
    });
  } catch (const std::system_error&) {
    // No second thread (a process limit): the same blocks, one after the other.
    for (std::int64_t k = 0; k < blocks; ++k) {
      fill(k, buffers[0]);
      write(k, buffers[0]);
    }
    return;
  }
  try {
    for (std::int64_t k = 0; k < blocks; ++k) {
      // Buffer k % 2 last held block k - 2, which must be written first.
      if (!progress.wait_until([k](std::int64_t, std::int64_t written) { return written >= k - 1; })) break;
      fill(k, buffers[static_cast<std::size_t>(k % 2)]);
      progress.filled(k + 1);
    }
  } catch (...) {
    progress.fail(std::current_exception());
  }
  writer.join();
  if (const std::exception_ptr failure = progress.failure()) std::rethrow_exception(failure);
}

}  // namespace pecheck::detail
