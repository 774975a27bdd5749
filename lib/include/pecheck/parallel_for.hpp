// Work split over threads, with the two failures a thread pool can have made
// into errors a caller can report: a thread the system will not start (a
// process or memory limit: std::thread throws std::system_error, and a
// vector of joinable threads destroyed by that exception calls
// std::terminate), and an exception thrown by the work on another thread.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace pecheck {

// The system refused to start a thread. The message says how many were asked
// for and how many started; a command reports it with exit status 2.
class ThreadStartError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Calls work(w) for every w in [0, workers), worker 0 on the calling thread
// and each other on a thread of its own, and returns when all have finished.
// The first exception thrown by any work(w) is rethrown here after every
// thread has been joined. When a thread cannot be started, the work already
// started finishes, and ThreadStartError is thrown.
void parallel_for(int workers, const std::function<void(int worker)>& work);

// first() and second() at once (second() on a thread of its own when the
// machine runs more than one), returning when both have finished. An
// exception of first() is rethrown before one of second(), whichever came
// first: the error a caller doing them in turn would report (reading two
// files, the first file's).
void both_at_once(const std::function<void()>& first, const std::function<void()>& second);

// The threads this machine runs at once, at least 1: where every default
// number of workers starts, so that a run's split is decided one way.
int machine_threads();

// `requested` workers when it is positive, else one per machine thread; at
// most `tasks` (a worker with nothing to do costs a thread), at least 1.
int worker_count(int requested, std::int64_t tasks);

}  // namespace pecheck
