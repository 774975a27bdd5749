// Ctrl-C and SIGTERM while pecheck runs other programs: the programs' process
// groups are killed at once (from the handler: kill() is async-signal-safe),
// and pecheck unwinds by an exception so that every temporary directory is
// removed by its destructor, then dies of the same signal, as a shell expects
// (status 128 + N). A second signal during the unwinding kills pecheck at once.
#pragma once

#include <stdexcept>
#include <sys/types.h>

namespace pecheck {

// Thrown by code that notices an interrupt (run_shell, the persistent command).
class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(int signal);
  int signal() const { return signal_; }

 private:
  int signal_;
};

// Installs the SIGINT and SIGTERM handlers (idempotent); a signal ignored
// when pecheck started (a shell's background job) stays ignored.
void install_interrupt_handlers();

// The signal received since install_interrupt_handlers(), or 0.
int interrupt_signal();

// Throws Interrupted when a signal was received.
void throw_if_interrupted();

// A process group the handler kills (SIGKILL) on an interrupt, for as long as
// this object lives. Up to 64 groups at once; more are not tracked (and are
// still killed by their owner's destructor).
class TrackedProcessGroup {
 public:
  explicit TrackedProcessGroup(pid_t group);
  ~TrackedProcessGroup();
  TrackedProcessGroup(const TrackedProcessGroup&) = delete;
  TrackedProcessGroup& operator=(const TrackedProcessGroup&) = delete;

 private:
  int slot_ = -1;
};

// Restores the default action of `signal` and raises it: the process ends
// as if the handler had never been installed.
[[noreturn]] void die_of_signal(int signal);

}  // namespace pecheck
