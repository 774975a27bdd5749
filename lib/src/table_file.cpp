#include "pecheck/table_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <string>
#include <system_error>

#include "byte_io.hpp"
#include "pecheck/one_line_text.hpp"
#include "utf8_sequence.hpp"
#include "pecheck/npy.hpp"
#include "pecheck/safetensors.hpp"

namespace pecheck {

namespace {

std::string hex_escape(unsigned char byte) {
  char buffer[5];
  std::snprintf(buffer, sizeof buffer, "\\x%02X", byte);
  return buffer;
}

// Keeps printable ASCII and well-formed UTF-8; escapes control bytes and
// stray bytes, so the message stays one line whatever the path holds.
std::string one_line(std::string_view text) { return escape_control_characters(text); }

std::string os_reason(int error_number) { return std::generic_category().message(error_number); }

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Files past this size are refused before reading: the largest table pecheck
// holds (2^31 float64 values, see make_table) plus a generous 4 GiB header.
constexpr std::uint64_t max_file_bytes = (std::uint64_t{1} << 34) + (std::uint64_t{1} << 32);

}  // namespace

namespace detail {

std::optional<std::size_t> first_invalid_utf8(std::string_view text) {
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t length = utf8_sequence_length(text, pos);
    if (length == 0) return pos;
    pos += length;
  }
  return std::nullopt;
}

std::string quoted_excerpt(std::string_view text, std::size_t max_chars) {
  // Python's repr rule: double quotes when the text holds a single quote and no double quote.
  const std::string_view shown = text.substr(0, max_chars);
  const bool double_quoted = shown.find('\'') != std::string_view::npos && shown.find('"') == std::string_view::npos;
  const char quote = double_quoted ? '"' : '\'';
  std::string out(1, quote);
  for (const char c : shown) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7F || c == quote || c == '\\') {
      out += hex_escape(byte);
    } else {
      out += c;
    }
  }
  out += quote;
  if (text.size() > max_chars) out += "...";
  return out;
}

}  // namespace detail

TableFileError::TableFileError(std::string_view path, std::string_view field, std::string_view problem,
                               std::string_view expected)
    : std::runtime_error(one_line(path) + ": " + one_line(field) + ": " + one_line(problem) + " (expected " +
                         one_line(expected) + ")") {}

std::optional<TableFileKind> table_file_kind(const std::filesystem::path& path) {
  const std::string extension = lowercase(path.extension().string());
  if (extension == ".npy") return TableFileKind::npy;
  if (extension == ".safetensors") return TableFileKind::safetensors;
  return std::nullopt;
}

namespace {

TableFileKind kind_or_throw(const std::filesystem::path& path) {
  const auto kind = table_file_kind(path);
  if (!kind) {
    throw TableFileError(path.string(), "file name",
                         "the extension " + detail::quoted_excerpt(path.extension().string()) +
                             " names no table format",
                         "'.npy' or '.safetensors'");
  }
  return *kind;
}

}  // namespace

TableFile read_table_file(const std::filesystem::path& path, const std::optional<std::string>& tensor_name) {
  switch (kind_or_throw(path)) {
    case TableFileKind::npy: return read_npy(path);
    case TableFileKind::safetensors: return read_safetensors(path, tensor_name);
  }
  return read_npy(path);
}

void write_table_file(const std::filesystem::path& path, const Table& table) {
  switch (kind_or_throw(path)) {
    case TableFileKind::npy: write_npy(path, table); return;
    case TableFileKind::safetensors: write_safetensors(path, table); return;
  }
}

std::vector<std::byte> read_file_bytes(const std::filesystem::path& path) {
  const std::string name = path.string();
  // O_NONBLOCK: opening a FIFO must not hang waiting for a writer; it is
  // refused below as not a regular file.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw TableFileError(name, "file", "cannot open: " + os_reason(errno), "a readable file");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat status {};
  if (::fstat(fd, &status) != 0) throw TableFileError(name, "file", "cannot stat: " + os_reason(errno), "a readable file");
  if (!S_ISREG(status.st_mode)) throw TableFileError(name, "file", "not a regular file", "a regular file");
  const auto size = static_cast<std::uint64_t>(status.st_size);
  if (size > max_file_bytes) {
    throw TableFileError(name, "file", std::to_string(size) + " bytes is larger than any table pecheck holds",
                         "at most " + std::to_string(max_file_bytes) + " bytes");
  }
  std::vector<std::byte> bytes(static_cast<std::size_t>(size));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t got = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw TableFileError(name, "file", "cannot read: " + os_reason(errno), "a readable file");
    if (got == 0) {
      throw TableFileError(name, "file", "ended after " + std::to_string(done) + " of " + std::to_string(size) + " bytes",
                           "a file that does not change while it is read");
    }
    done += static_cast<std::size_t>(got);
  }
  return bytes;
}

void write_file_atomically(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  const std::string name = path.string();
  // The temporary sits beside the target so the rename stays within one file
  // system (rename is atomic only there); pid and counter keep concurrent
  // writers, in this process or another, from sharing a temporary.
  static std::atomic<unsigned> counter{0};
  std::filesystem::path temporary = path;
  temporary += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    throw TableFileError(name, "write", "cannot create a temporary file beside it: " + os_reason(errno),
                         "a writable directory");
  }
  const auto fail = [&](std::string_view what, int error_number, bool still_open) {
    if (still_open) ::close(fd);
    ::unlink(temporary.c_str());
    throw TableFileError(name, "write", std::string(what) + ": " + os_reason(error_number), "a writable file system");
  };
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t wrote = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) fail("cannot write the temporary file", errno, true);
    done += static_cast<std::size_t>(wrote);
  }
  if (::fsync(fd) != 0) fail("cannot flush the temporary file", errno, true);
  if (::close(fd) != 0) fail("cannot close the temporary file", errno, false);
  if (std::rename(temporary.c_str(), path.c_str()) != 0) fail("cannot rename the temporary file over it", errno, false);
}

}  // namespace pecheck
