#include "pecheck/interrupts.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

namespace pecheck {

namespace {

constexpr int max_groups = 64;
// Lock-free atomics only: the handler reads them.
std::atomic<pid_t> groups[max_groups];
std::atomic<int> received{0};
static_assert(std::atomic<pid_t>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

extern "C" void on_interrupt(int signal) {
  int none = 0;
  received.compare_exchange_strong(none, signal);
  for (std::atomic<pid_t>& group : groups) {
    const pid_t id = group.load();
    if (id > 0) ::kill(-id, SIGKILL);
  }
}

}  // namespace

Interrupted::Interrupted(int signal)
    : std::runtime_error(std::string("interrupted by signal ") + std::to_string(signal) + " (" + ::strsignal(signal) +
                         ")"),
      signal_(signal) {}

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  // No SA_RESTART: a blocking poll() or read() returns EINTR and the caller
  // notices at once. SA_RESETHAND: a second signal takes the default action.
  action.sa_flags = SA_RESETHAND;
  for (const int signal : {SIGINT, SIGTERM}) {
    // A signal ignored from the start stays ignored: a shell starts a
    // background command with SIGINT ignored so that Ctrl-C spares it.
    struct sigaction previous {};
    ::sigaction(signal, nullptr, &previous);
    if (previous.sa_handler != SIG_IGN) ::sigaction(signal, &action, nullptr);
  }
}

int interrupt_signal() { return received.load(); }

void throw_if_interrupted() {
  if (const int signal = interrupt_signal()) throw Interrupted(signal);
}

TrackedProcessGroup::TrackedProcessGroup(pid_t group) {
  for (int k = 0; k < max_groups; ++k) {
    pid_t empty = 0;
    if (groups[k].compare_exchange_strong(empty, group)) {
      slot_ = k;
      break;
    }
  }
  // A signal that arrived before the group was tracked must still reach it.
  if (interrupt_signal() != 0) ::kill(-group, SIGKILL);
}

TrackedProcessGroup::~TrackedProcessGroup() {
  if (slot_ >= 0) groups[slot_].store(0);
}

void die_of_signal(int signal) {
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  ::sigaction(signal, &action, nullptr);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, signal);
  ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
  ::raise(signal);
  std::_Exit(128 + signal);  // not reached unless the signal is ignored by the parent's mask
}

}  // namespace pecheck
