// Tasks one thread runs with the help of a second that offers its time
// whenever it has any: the rotary validation's second thread scans the cache
// in chunks (rotary_detection_run.hpp) and takes groups of the frequency
// fits as soon as the first thread has started them. Two threads on the two cores,
// rather than a third started for the fits: with three, the scheduler let
// the first thread wait its turn for a millisecond or more mid-fit.
// Which thread runs a task changes nothing but when it is done: each task
// writes results of its own.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>

namespace pecheck::validate {

class SharedTasks {
 public:
  using Task = std::function<void(std::size_t task, int slot)>;

  // Runs task(k, slot) once for every k in [0, count): here (slot 0) and on
  // the helping thread, if it calls help() meanwhile (slot 1). Returns when
  // every task has finished; the first exception of a task is rethrown then.
  void run(std::size_t count, const Task& task);

  // Takes tasks of every run() until close(). Between runs, `background`
  // (when given) is called for one unit of other work at a time, until it
  // returns false (nothing left): a run's tasks come first as soon as the
  // unit in hand is done. Returns once closed with no background work left.
  // Called by the helping thread alone.
  void help(const std::function<bool()>& background = {});

  // No more runs: help() returns when its background work is done. Called by
  // the running thread after its last run, so that the helper ends as soon
  // as it can rather than when woken at the end.
  void close();
  // No more runs and no more background work: help() returns after the unit
  // in hand. Called by the running thread whatever happens, before it waits
  // for the helper (work nobody will read is not finished).
  void stop();

 private:
  // Takes the current run's tasks until none is left to take; `lock` held
  // on entry and on return, released while a task runs.
  void take_tasks(std::unique_lock<std::mutex>& lock, int slot);

  std::mutex mutex_;
  std::condition_variable changed_;
  const Task* task_ = nullptr;
  std::size_t count_ = 0;
  std::size_t next_ = 0;
  std::size_t finished_ = 0;
  std::exception_ptr failure_;
  bool closed_ = false;
  bool stopped_ = false;
};

// Stops `tasks` when it goes out of scope: the helper is released on every
// way out of the running thread's work, an exception's included.
class StopOnExit {
 public:
  explicit StopOnExit(SharedTasks& tasks) : tasks_(tasks) {}
  ~StopOnExit() { tasks_.stop(); }
  StopOnExit(const StopOnExit&) = delete;
  StopOnExit& operator=(const StopOnExit&) = delete;

 private:
  SharedTasks& tasks_;
};

}  // namespace pecheck::validate
