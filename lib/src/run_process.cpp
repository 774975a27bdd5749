#include "run_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace pecheck {

namespace {

using Clock = std::chrono::steady_clock;

int milliseconds_left(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(std::min<long long>(left, 1'000'000));
}

void keep_tail(std::string& output, std::size_t kept) {
  if (output.size() > 2 * kept) output.erase(0, output.size() - kept);
}

}  // namespace

ProcessResult run_shell(const std::string& command, std::chrono::milliseconds timeout, std::size_t kept_output) {
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
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::setpgid(child, child);  // also here: whichever runs first, the group exists before a kill
  ::close(fds[1]);
  ProcessResult result;
  const Clock::time_point deadline = Clock::now() + timeout;
  char buffer[4096];
  bool open = true;
  while (open) {
    pollfd fd{fds[0], POLLIN, 0};
    const int ready = ::poll(&fd, 1, milliseconds_left(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      result.timed_out = true;
      break;
    }
    const ssize_t got = ::read(fds[0], buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      open = false;
    } else {
      result.output.append(buffer, static_cast<std::size_t>(got));
      keep_tail(result.output, kept_output);
    }
  }
  ::close(fds[0]);
  int status = 0;
  if (result.timed_out) {
    ::kill(-child, SIGKILL);
    ::waitpid(child, &status, 0);
  }
  while (!result.timed_out) {  // the output is closed; the command may still be running
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child || (done < 0 && errno != EINTR)) break;
    if (milliseconds_left(deadline) == 0) {
      result.timed_out = true;
      ::kill(-child, SIGKILL);
      ::waitpid(child, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (result.timed_out) ::kill(-child, SIGKILL);  // children that outlived the shell
  if (WIFEXITED(status)) result.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  if (result.output.size() > kept_output) result.output.erase(0, result.output.size() - kept_output);
  return result;
}

}  // namespace pecheck
