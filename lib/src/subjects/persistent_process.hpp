// A command started once that answers request lines with reply lines: the
// process side of --exec's `lines` protocol (see external_subjects.hpp).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>

#include "pecheck/interrupts.hpp"
#include "pecheck/lines_protocol_reply.hpp"

namespace pecheck {

class PersistentProcess {
 public:
  // /bin/sh -c command in its own process group, stdin and stdout pipes to
  // pecheck, stderr kept (the last `kept_stderr` bytes) for error messages.
  explicit PersistentProcess(const std::string& command, std::size_t kept_stderr = 2000);
  // Closes the command's stdin, gives it `shutdown_grace` to exit, then kills its group.
  ~PersistentProcess();
  PersistentProcess(const PersistentProcess&) = delete;
  PersistentProcess& operator=(const PersistentProcess&) = delete;

  // The longest reply line read: a reply is "ok" or "error MESSAGE", and a
  // command that writes more on stdout without a newline (a stray print, a
  // binary dump, /dev/zero) is refused once it passes this, rather than
  // buffered without bound.
  static constexpr std::size_t max_reply_bytes = std::size_t{64} << 10;

  enum class Outcome { replied, exited, timed_out, reply_too_long };
  struct Exchange {
    Outcome outcome = Outcome::replied;
    std::string reply;        // the reply line, without its newline, when replied
    std::string exit_text;    // "exited with status N" or "was killed by signal N (NAME)", when exited
  };
  // Sends `line` and a newline, then waits for one line on stdout. Throws
  // Interrupted on SIGINT or SIGTERM (the destructor then kills the group).
  Exchange exchange(const std::string& line, std::chrono::milliseconds timeout);

  // Whether it can take a request (it has not exited, timed out or been refused).
  bool usable() const { return usable_; }
  const std::string& stderr_tail() const { return stderr_; }

 private:
  void drain_stderr();

  pid_t pid_ = -1;
  int stdin_ = -1;
  int stdout_ = -1;
  int stderr_fd_ = -1;
  std::unique_ptr<TrackedProcessGroup> tracked_;
  ReplyLines pending_{max_reply_bytes};  // stdout read past the last reply line
  std::string stderr_;
  std::size_t kept_stderr_;
  bool stdout_open_ = true;
  bool stderr_open_ = true;
  bool exited_ = false;
  int status_ = 0;
  bool usable_ = true;
};

}  // namespace pecheck
