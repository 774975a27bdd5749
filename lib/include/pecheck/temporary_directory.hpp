// A directory that lives for one job: made with mkdtemp (a fresh name no
// other process can take), removed with everything in it when the job ends,
// unless released to the caller (a report's staging directory, renamed into
// place once complete).
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pecheck {

// No temporary directory can be made (the parent missing, not writable,
// full): the message names where and why. Callers that make directories
// for a command under test report it as pecheck's environment at fault,
// never the command's.
class TemporaryDirectoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class TemporaryDirectory {
 public:
  // parent / (prefix + six random characters). `parent_named` is how
  // messages name the parent ("TMPDIR=/x"); the path itself when empty.
  TemporaryDirectory(const std::filesystem::path& parent, std::string_view prefix, std::string parent_named = {});
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // mkdtemp makes the directory 0700; this gives it the permissions of a
  // directory the user makes (0777 less the umask), for output others read.
  void use_default_permissions() const;

  // Hands the directory to the caller: it is no longer removed here.
  std::filesystem::path release();

 private:
  std::filesystem::path path_;
};

}  // namespace pecheck
