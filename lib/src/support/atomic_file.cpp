#include "pecheck/atomic_file.hpp"

#include <fcntl.h>
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

AtomicFile::AtomicFile(std::filesystem::path destination) : destination_(std::move(destination)) {
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
