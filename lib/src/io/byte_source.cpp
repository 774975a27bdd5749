#include "byte_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "pecheck/table_file.hpp"

namespace pecheck::detail {

namespace {

std::string os_reason(int error_number) { return std::generic_category().message(error_number); }

}  // namespace

std::vector<std::byte> ByteSource::read_vector(std::uint64_t offset, std::size_t count) const {
  std::vector<std::byte> bytes(count);
  read(offset, bytes);
  return bytes;
}

void MemorySource::read(std::uint64_t offset, std::span<std::byte> out) const {
  if (!out.empty()) std::memcpy(out.data(), bytes_.data() + offset, out.size());
}

FileSource::FileSource(const std::filesystem::path& path) : name_(path.string()) {
  // O_NONBLOCK: opening a FIFO must not hang waiting for a writer; it is
  // refused below as not a regular file.
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) throw TableFileError(name_, "file", "cannot open: " + os_reason(errno), "a readable file");
  struct stat status {};
  if (::fstat(fd_, &status) != 0) {
    const int error = errno;
    ::close(fd_);
    throw TableFileError(name_, "file", "cannot stat: " + os_reason(error), "a readable file");
  }
  if (!S_ISREG(status.st_mode)) {
    ::close(fd_);
    throw TableFileError(name_, "file", "not a regular file", "a regular file");
  }
  size_ = static_cast<std::uint64_t>(status.st_size);
}

FileSource::~FileSource() {
  if (fd_ >= 0) ::close(fd_);
}

void FileSource::read(std::uint64_t offset, std::span<std::byte> out) const {
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t got = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw TableFileError(name_, "file", "cannot read: " + os_reason(errno), "a readable file");
    if (got == 0) {
      throw TableFileError(name_, "file",
                           "ended at byte " + std::to_string(offset + done) + " of the " + std::to_string(size_) +
                               " it had when opened",
                           "a file that does not change while it is read");
    }
    done += static_cast<std::size_t>(got);
  }
}

}  // namespace pecheck::detail
