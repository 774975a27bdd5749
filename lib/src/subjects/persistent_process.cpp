#include "persistent_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "run_process.hpp"

namespace pecheck {

namespace {

using Clock = std::chrono::steady_clock;

// How often the loop asks whether the command exited while waiting for a reply.
constexpr int exit_poll_ms = 10;
// How long a command may take to exit once its stdin is closed.
constexpr std::chrono::milliseconds shutdown_grace{5000};

int milliseconds_left(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(std::min<long long>(left, 1'000'000));
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

// Appends what can be read now, until `into` holds `limit` bytes (a command
// that writes without pause cannot keep this loop reading); false at end of
// file.
bool read_available(int fd, std::string& into, std::size_t limit) {
  char buffer[4096];
  while (into.size() < limit) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got > 0) {
      into.append(buffer, static_cast<std::size_t>(got));
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    return got < 0;
  }
  return true;
}

// The same into a reply buffer: never more than it has room for.
bool read_available(int fd, ReplyLines& into) {
  char buffer[4096];
  while (into.room() > 0) {
    const ssize_t got = ::read(fd, buffer, std::min(sizeof buffer, into.room()));
    if (got > 0) {
      into.append(std::string_view(buffer, static_cast<std::size_t>(got)));
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    return got < 0;
  }
  return true;
}

// Writes all of `bytes`; false when the reader is gone. SIGPIPE is blocked
// around the write and a pending one consumed, so a command that exited
// cannot kill pecheck.
bool write_without_sigpipe(int fd, const std::string& bytes) {
  sigset_t pipe_only;
  sigset_t previous;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);
  bool ok = true;
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t wrote = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) {
      ok = false;
      if (errno == EPIPE) {
        const timespec now{0, 0};
        ::sigtimedwait(&pipe_only, nullptr, &now);
      }
      break;
    }
    done += static_cast<std::size_t>(wrote);
  }
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return ok;
}

}  // namespace

PersistentProcess::PersistentProcess(const std::string& command, std::size_t kept_stderr) : kept_stderr_(kept_stderr) {
  int in[2];
  int out[2];
  int err[2];
  if (::pipe2(in, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  if (::pipe2(err, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid_ == 0) {
    // Only async-signal-safe calls between fork and exec.
    ::setpgid(0, 0);
    ::dup2(in[0], STDIN_FILENO);
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(err[1], STDERR_FILENO);
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    ::signal(SIGPIPE, SIG_DFL);
    ::signal(SIGXFSZ, SIG_DFL);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::setpgid(pid_, pid_);
  tracked_ = std::make_unique<TrackedProcessGroup>(pid_);
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  stdin_ = in[1];
  stdout_ = out[0];
  stderr_fd_ = err[0];
  set_nonblocking(stdout_);
  set_nonblocking(stderr_fd_);
}

PersistentProcess::~PersistentProcess() {
  ::close(stdin_);  // end of requests: the command exits
  // A command that broke off (timed out, or flooded stdout) gets no grace:
  // it is past answering, and waiting would only delay the error.
  const Clock::time_point deadline = Clock::now() + (usable_ ? shutdown_grace : std::chrono::milliseconds(0));
  while (!exited_ && interrupt_signal() == 0 && milliseconds_left(deadline) > 0) {
    if (::waitpid(pid_, &status_, WNOHANG) == pid_) {
      exited_ = true;
      break;
    }
    drain_stderr();
    ::poll(nullptr, 0, exit_poll_ms);
  }
  ::kill(-pid_, SIGKILL);
  if (!exited_) {
    while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
    }
  }
  ::close(stdout_);
  ::close(stderr_fd_);
}

void PersistentProcess::drain_stderr() {
  if (stderr_open_) stderr_open_ = read_available(stderr_fd_, stderr_, 2 * kept_stderr_ + 4096);
  if (stderr_.size() > 2 * kept_stderr_) stderr_.erase(0, stderr_.size() - kept_stderr_);
}

PersistentProcess::Exchange PersistentProcess::exchange(const std::string& line, std::chrono::milliseconds timeout) {
  throw_if_interrupted();
  Exchange result;
  const bool sent = write_without_sigpipe(stdin_, line + "\n");
  const Clock::time_point deadline = Clock::now() + timeout;
  for (;;) {
    drain_stderr();
    if (stdout_open_) stdout_open_ = read_available(stdout_, pending_);
    if (sent) {
      if (std::optional<std::string> line = pending_.take_line()) {
        result.reply = std::move(*line);
        return result;
      }
    }
    if (pending_.overflowed()) {
      usable_ = false;
      result.outcome = Outcome::reply_too_long;
      result.reply = pending_.start();  // for the message
      return result;
    }
    if (!exited_ && ::waitpid(pid_, &status_, WNOHANG) == pid_) exited_ = true;
    if (exited_) {
      drain_stderr();
      if (stderr_.size() > kept_stderr_) stderr_.erase(0, stderr_.size() - kept_stderr_);
      usable_ = false;
      result.outcome = Outcome::exited;
      ProcessResult ended;
      if (WIFEXITED(status_)) ended.exit_status = WEXITSTATUS(status_);
      if (WIFSIGNALED(status_)) ended.signal = WTERMSIG(status_);
      result.exit_text = describe_exit(ended);
      return result;
    }
    throw_if_interrupted();
    const int left = milliseconds_left(deadline);
    if (left == 0) {
      usable_ = false;
      result.outcome = Outcome::timed_out;
      if (stderr_.size() > kept_stderr_) stderr_.erase(0, stderr_.size() - kept_stderr_);
      return result;
    }
    pollfd fds[2] = {{stdout_open_ ? stdout_ : -1, POLLIN, 0}, {stderr_open_ ? stderr_fd_ : -1, POLLIN, 0}};
    ::poll(fds, 2, std::min(left, exit_poll_ms));
  }
}

}  // namespace pecheck
