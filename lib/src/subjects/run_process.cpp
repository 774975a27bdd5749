#include "run_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "pecheck/interrupts.hpp"

namespace pecheck {

namespace {

using Clock = std::chrono::steady_clock;

// How often the loop asks whether the shell exited while its output is still
// open (held by a background child): the latency of noticing such an exit.
constexpr int exit_poll_ms = 10;

int milliseconds_left(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(std::min<long long>(left, 1'000'000));
}

void keep_tail(std::string& output, std::size_t kept) {
  if (output.size() > 2 * kept) output.erase(0, output.size() - kept);
}

// Reads what is there now (the descriptor is non-blocking); false at end of file.
bool read_available(int fd, std::string& output, std::size_t kept) {
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got > 0) {
      output.append(buffer, static_cast<std::size_t>(got));
      keep_tail(output, kept);
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    return got < 0;  // EAGAIN: open, nothing more now; 0: closed
  }
}

}  // namespace

void limit_address_space(std::uint64_t bytes) noexcept {
  if (bytes == 0) return;
  const rlimit limit{static_cast<rlim_t>(bytes), static_cast<rlim_t>(bytes)};
  ::setrlimit(RLIMIT_AS, &limit);
}

ProcessResult run_shell(const std::string& command, std::chrono::milliseconds timeout, std::size_t kept_output,
                        std::uint64_t memory_limit_bytes) {
  throw_if_interrupted();
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  }
  if (child == 0) {
    // Only async-signal-safe calls between fork and exec.
    ::setpgid(0, 0);
    limit_address_space(memory_limit_bytes);
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    ::signal(SIGPIPE, SIG_DFL);  // pecheck ignores it; the command gets the usual action
    ::signal(SIGXFSZ, SIG_DFL);  // likewise
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::setpgid(child, child);  // also here: whichever runs first, the group exists before a kill
  const TrackedProcessGroup tracked(child);
  ::close(fds[1]);
  ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  ProcessResult result;
  const Clock::time_point deadline = Clock::now() + timeout;
  bool open = true;
  bool exited = false;
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) exited = true;
    if (open) open = read_available(fds[0], result.output, kept_output);
    if (exited) break;
    if (interrupt_signal() != 0) break;
    const int left = milliseconds_left(deadline);
    if (left == 0) {
      result.timed_out = true;
      break;
    }
    const int wait_ms = std::min(left, exit_poll_ms);
    if (open) {
      pollfd fd{fds[0], POLLIN, 0};
      ::poll(&fd, 1, wait_ms);  // EINTR and timeouts alike: the loop looks again
    } else {
      ::poll(nullptr, 0, wait_ms);
    }
  }
  // Whatever is left of the group (a background child, or all of it on a
  // timeout or an interrupt) goes now.
  ::kill(-child, SIGKILL);
  if (!exited) {
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
  }
  ::close(fds[0]);
  throw_if_interrupted();
  if (!result.timed_out) {
    if (WIFEXITED(status)) result.exit_status = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  }
  if (result.output.size() > kept_output) result.output.erase(0, result.output.size() - kept_output);
  return result;
}

std::string describe_exit(const ProcessResult& result) {
  if (result.signal != 0) {
    return "was killed by signal " + std::to_string(result.signal) + " (" + ::strsignal(result.signal) + ")";
  }
  std::string text = "exited with status " + std::to_string(result.exit_status);
  // The status is reported as it is: `exit 130` is status 130. A shell gives
  // a command a signal killed 128 + the signal, so say what that would be.
  const int maybe = result.exit_status - 128;
  if (maybe > 0 && maybe < NSIG) {
    text += " (a shell's status for a command killed by signal " + std::to_string(maybe) + ", " + ::strsignal(maybe) +
            ", or the command's own exit status)";
  }
  return text;
}

}  // namespace pecheck
