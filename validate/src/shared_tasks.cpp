#include "shared_tasks.hpp"

namespace pecheck::validate {

void SharedTasks::take_tasks(std::unique_lock<std::mutex>& lock, int slot) {
  while (task_ != nullptr && next_ < count_) {
    const std::size_t k = next_++;
    const Task& task = *task_;
    lock.unlock();
    std::exception_ptr failure;
    try {
      task(k, slot);
    } catch (...) {
      failure = std::current_exception();
    }
    lock.lock();
    if (failure && !failure_) failure_ = failure;
    if (++finished_ == count_) changed_.notify_all();
  }
}

void SharedTasks::run(std::size_t count, const Task& task) {
  std::unique_lock<std::mutex> lock(mutex_);
  task_ = &task;
  count_ = count;
  next_ = 0;
  finished_ = 0;
  failure_ = nullptr;
  changed_.notify_all();
  take_tasks(lock, 0);
  // The helper's last task may still be running.
  changed_.wait(lock, [this] { return finished_ == count_; });
  task_ = nullptr;
  const std::exception_ptr failure = failure_;
  failure_ = nullptr;
  lock.unlock();
  if (failure) std::rethrow_exception(failure);
}

void SharedTasks::help(const std::function<bool()>& background) {
  bool more_background = static_cast<bool>(background);
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (task_ != nullptr && next_ < count_) {
      take_tasks(lock, 1);
    } else if (stopped_) {
      return;
    } else if (more_background) {
      lock.unlock();
      more_background = background();
      lock.lock();
    } else if (closed_) {
      return;
    } else {
      changed_.wait(lock, [this] { return closed_ || stopped_ || (task_ != nullptr && next_ < count_); });
    }
  }
}

void SharedTasks::close() {
  const std::lock_guard<std::mutex> lock(mutex_);
  closed_ = true;
  changed_.notify_all();
}

void SharedTasks::stop() {
  const std::lock_guard<std::mutex> lock(mutex_);
  closed_ = true;
  stopped_ = true;
  changed_.notify_all();
}

}  // namespace pecheck::validate
