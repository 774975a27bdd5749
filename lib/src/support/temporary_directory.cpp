#include "pecheck/temporary_directory.hpp"

#include <stdlib.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

#include "pecheck/one_line_text.hpp"

namespace pecheck {

TemporaryDirectory::TemporaryDirectory(const std::filesystem::path& parent, std::string_view prefix,
                                       std::string parent_named) {
  std::string pattern = (parent / (std::string(prefix) + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    const int reason = errno;
    if (parent_named.empty()) parent_named = escape_control_characters(parent.string());
    throw TemporaryDirectoryError("cannot create a directory in " + parent_named + ": " + std::strerror(reason));
  }
  path_ = std::move(pattern);
}

TemporaryDirectory::~TemporaryDirectory() {
  if (path_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

void TemporaryDirectory::use_default_permissions() const {
  // umask can only be read by setting it; set it back at once.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::chmod(path_.c_str(), 0777 & ~mask);
}

std::filesystem::path TemporaryDirectory::release() { return std::exchange(path_, {}); }

}  // namespace pecheck
