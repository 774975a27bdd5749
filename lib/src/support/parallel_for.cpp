#include "pecheck/parallel_for.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace pecheck {

int machine_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

int worker_count(int requested, std::int64_t tasks) {
  const std::int64_t wanted = requested > 0 ? requested : machine_threads();
  return static_cast<int>(std::clamp<std::int64_t>(wanted, 1, std::max<std::int64_t>(tasks, 1)));
}

void parallel_for(int workers, const std::function<void(int worker)>& work) {
  if (workers <= 1) {
    work(0);
    return;
  }
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto run = [&](int w) {
    try {
      work(w);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> helpers;
  std::string start_error;
  try {
    helpers.reserve(static_cast<std::size_t>(workers - 1));
    for (int w = 1; w < workers; ++w) helpers.emplace_back(run, w);
  } catch (const std::system_error& error) {
    start_error = "could not start thread " + std::to_string(helpers.size() + 2) + " of " + std::to_string(workers) +
                  ": " + error.what() + " (a process or memory limit; ask for fewer threads)";
  } catch (const std::bad_alloc&) {
    start_error = "could not allocate " + std::to_string(workers) + " threads (ask for fewer threads)";
  }
  // Worker 0 runs only when every thread started: partial work is not a result.
  if (start_error.empty()) run(0);
  for (std::thread& helper : helpers) helper.join();
  if (!start_error.empty()) throw ThreadStartError(start_error);
  if (failure) std::rethrow_exception(failure);
}

void both_at_once(const std::function<void()>& first, const std::function<void()>& second) {
  std::exception_ptr failed[2];
  const int workers = worker_count(0, 2);
  parallel_for(workers, [&](int worker) {
    for (int k = worker; k < 2; k += workers) {
      try {
        (k == 0 ? first : second)();
      } catch (...) {
        failed[k] = std::current_exception();
      }
    }
  });
  for (const std::exception_ptr& e : failed) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace pecheck
