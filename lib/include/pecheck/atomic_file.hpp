// A file that appears whole or not at all.
//
// The bytes go to a temporary file beside the destination (a rename is
// atomic only within one file system), which is flushed to disk and renamed
// over the destination on commit(); a reader sees the old file or the new
// one, never half of one. Destroyed without commit() (an exception, an early
// return), the temporary is removed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pecheck {

// A file that cannot be written: the message names the path and the OS reason.
class FileWriteError : public std::runtime_error {
 public:
  FileWriteError(const std::filesystem::path& path, std::string_view what, int error_number);
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path destination);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(std::span<const std::byte> bytes);
  void write(std::string_view text) { write(std::as_bytes(std::span(text.data(), text.size()))); }
  // Writes bytes at `offset` from the file's start, leaving the file position
  // alone: safe to call from several threads at once for different ranges.
  void write_at(std::uint64_t offset, std::span<const std::byte> bytes);
  // Flushes, closes and renames over the destination.
  void commit();

 private:
  [[noreturn]] void fail(std::string_view what, int error_number);

  std::filesystem::path destination_;
  std::filesystem::path temporary_;
  int fd_ = -1;
};

// The whole file in one AtomicFile.
void write_file_atomically(const std::filesystem::path& path, std::span<const std::byte> bytes);

}  // namespace pecheck
