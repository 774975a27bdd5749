// Where a table reader's bytes come from: a file, read piece by piece at the
// offsets the header gives (so a file is judged by its first bytes before
// anything the size of its payload is allocated), or bytes already in memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pecheck::detail {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // The name errors give for the source: the path, or a caller's display name.
  virtual std::string_view name() const = 0;
  virtual std::uint64_t size() const = 0;
  // Copies the bytes [offset, offset + out.size()) into out; the range must lie
  // within size(). Throws TableFileError when the file cannot be read or has
  // changed under the reader.
  virtual void read(std::uint64_t offset, std::span<std::byte> out) const = 0;

  std::vector<std::byte> read_vector(std::uint64_t offset, std::size_t count) const;
};

class MemorySource final : public ByteSource {
 public:
  MemorySource(std::span<const std::byte> bytes, std::string_view name) : bytes_(bytes), name_(name) {}
  std::string_view name() const override { return name_; }
  std::uint64_t size() const override { return bytes_.size(); }
  void read(std::uint64_t offset, std::span<std::byte> out) const override;

 private:
  std::span<const std::byte> bytes_;
  std::string name_;
};

// A regular file opened for reading (a FIFO or device is refused: it cannot be
// read at offsets, and opening one must not hang).
class FileSource final : public ByteSource {
 public:
  explicit FileSource(const std::filesystem::path& path);
  ~FileSource() override;
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  std::string_view name() const override { return name_; }
  std::uint64_t size() const override { return size_; }
  void read(std::uint64_t offset, std::span<std::byte> out) const override;

 private:
  std::string name_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

}  // namespace pecheck::detail
