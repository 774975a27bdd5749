#include "pecheck/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <system_error>

namespace pecheck {

FileWriteError::FileWriteError(const std::filesystem::path& path, std::string_view what, int error_number)
    : std::runtime_error(path.string() + ": write: " + std::string(what) + ": " +
                         std::generic_category().message(error_number) + " (expected a writable file system)"),
      path_(path) {}

namespace {

// "NAME.tmp-" for the destination's file name: the prefix of its temporaries.
std::string temporary_prefix(const std::filesystem::path& destination) {
  return destination.filename().string() + ".tmp-";
}

// Removes the temporaries of `destination` left by runs that were killed
// (SIGKILL, a power cut) before they could: NAME.tmp-PID-N whose PID no
// longer runs. A live PID's (a concurrent writer's, or a reused PID's) is
// left alone; at worst a stale file waits for a later run.
void remove_stale_temporaries(const std::filesystem::path& destination) {
  const std::filesystem::path directory = destination.has_parent_path() ? destination.parent_path() : ".";
  const std::string prefix = temporary_prefix(destination);
  std::error_code error;
  std::filesystem::directory_iterator it(directory, error);
  for (; !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = name.substr(prefix.size());  // "PID-N"
    const std::size_t dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos || dash > 9 ||
        rest.find_first_not_of("0123456789-") != std::string::npos) {
      continue;
    }
    const long pid = std::stol(rest.substr(0, dash));
    if (pid <= 0 || pid == ::getpid()) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    std::error_code ignored;
    std::filesystem::remove(it->path(), ignored);
  }
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path destination) : destination_(std::move(destination)) {
  remove_stale_temporaries(destination_);
  // pid and counter keep concurrent writers, in this process or another, from
  // sharing a temporary.
  static std::atomic<unsigned> counter{0};
  temporary_ = destination_;
  temporary_ += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
  fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd_ < 0) throw FileWriteError(destination_, "cannot create a temporary file beside it", errno);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
}

void AtomicFile::fail(std::string_view what, int error_number) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  ::unlink(temporary_.c_str());
  temporary_.clear();
  throw FileWriteError(destination_, what, error_number);
}

void AtomicFile::write(std::span<const std::byte> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t wrote = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) fail("cannot write the temporary file", errno);
    done += static_cast<std::size_t>(wrote);
  }
}

void AtomicFile::write_at(std::uint64_t offset, std::span<const std::byte> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t wrote = ::pwrite(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (wrote < 0 && errno == EINTR) continue;
    // Not fail(): another thread may be writing; the destructor removes the temporary.
    if (wrote < 0) throw FileWriteError(destination_, "cannot write the temporary file", errno);
    done += static_cast<std::size_t>(wrote);
  }
}

void AtomicFile::commit() {
  if (::fsync(fd_) != 0) fail("cannot flush the temporary file", errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("cannot close the temporary file", errno);
  if (std::rename(temporary_.c_str(), destination_.c_str()) != 0) fail("cannot rename the temporary file over it", errno);
  temporary_.clear();
}

void write_file_atomically(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  AtomicFile file(path);
  file.write(bytes);
  file.commit();
}

}  // namespace pecheck
