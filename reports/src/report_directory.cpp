#include "pecheck/reports/report_directory.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include "pecheck/one_line_text.hpp"
#include "pecheck/reports/report_files.hpp"
#include "pecheck/temporary_directory.hpp"

namespace pecheck::reports {

namespace {

namespace fs = std::filesystem;

std::string shown(const fs::path& path) { return escape_control_characters(path.string()); }

[[noreturn]] void fail(const fs::path& path, const std::string& what) {
  throw ReportWriteError("cannot write the report directory " + shown(path) + ": " + what);
}

// The names pecheck writes into a report directory, and the per-file
// temporaries (.report.json.tmp-XXXXXX) an older or killed run left there.
bool written_by_pecheck(const std::string& name) {
  for (const char* prefix : {"report.", "validation.", "input_layer.", "figures"}) {
    if (name.rfind(prefix, 0) == 0) return true;
  }
  return name.front() == '.' && name.find(".tmp-") != std::string::npos;
}

void refuse_foreign_files(const fs::path& destination) {
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(destination, error)) {
    const std::string name = entry.path().filename().string();
    if (!written_by_pecheck(name)) {
      fail(destination, "it holds " + shown(name) +
                            ", which pecheck did not write; a report directory is replaced as a whole, so give a new "
                            "or empty directory, or one holding only a previous report");
    }
  }
  if (error) fail(destination, error.message());
}

// Staging directories of runs that were killed: only this run holds the lock,
// so any left is stale.
void remove_stale_staging(const fs::path& parent, const std::string& prefix) {
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(parent, error)) {
    if (entry.path().filename().string().rfind(prefix, 0) == 0) {
      std::error_code ignored;
      fs::remove_all(entry.path(), ignored);
    }
  }
}

// Two directories swapped in one step; false when the filesystem cannot.
bool exchange(const fs::path& a, const fs::path& b) {
#ifdef RENAME_EXCHANGE
  if (::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0) return true;
  if (errno != EINVAL && errno != ENOSYS)
    fail(b, std::string("cannot swap the new report in: ") + std::strerror(errno));
#endif
  return false;
}

}  // namespace

ReportDirectory::ReportDirectory(const fs::path& destination)
    : destination_(fs::absolute(destination).lexically_normal()) {
  if (destination_.filename().empty()) destination_ = destination_.parent_path();
  const fs::path parent = destination_.parent_path();
  const std::string name = destination_.filename().string();
  std::error_code error;
  fs::create_directories(parent, error);
  if (error) fail(destination_, "cannot create " + shown(parent) + ": " + error.message());
  if (fs::exists(destination_) && !fs::is_directory(destination_))
    fail(destination_, "it exists and is not a directory");

  const fs::path lock_path = parent / ("." + name + ".lock");
  // O_NOFOLLOW: a symbolic link planted at the lock's name would make
  // pecheck create (or truncate the mode of) whatever it points to.
  lock_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (lock_ < 0 && errno == ELOOP) {
    fail(destination_, "the lock " + shown(lock_path) + " is a symbolic link (expected a plain file or none; remove it)");
  }
  if (lock_ < 0) fail(destination_, "cannot create the lock " + shown(lock_path) + ": " + std::strerror(errno));
  if (::flock(lock_, LOCK_EX | LOCK_NB) != 0) {
    const int reason = errno;
    ::close(lock_);
    lock_ = -1;
    if (reason == EWOULDBLOCK) {
      fail(destination_, "another pecheck run is writing it (it holds the lock " + shown(lock_path) +
                             "); wait for that run or give another --output-dir");
    }
    fail(destination_, "cannot lock " + shown(lock_path) + ": " + std::strerror(reason));
  }
  if (fs::is_directory(destination_)) refuse_foreign_files(destination_);
  const std::string staging_prefix = "." + name + ".tmp-";
  remove_stale_staging(parent, staging_prefix);
  try {
    staging_.emplace(parent, staging_prefix);
  } catch (const TemporaryDirectoryError& e) {
    ::close(lock_);
    lock_ = -1;
    fail(destination_, e.what());
  }
  staging_->use_default_permissions();
}

ReportDirectory::~ReportDirectory() {
  // An uncommitted staging directory goes with staging_; the old report stays.
  staging_.reset();
  if (lock_ >= 0) ::close(lock_);
}

void ReportDirectory::commit() {
  const fs::path staged = staging_->path();
  if (fs::is_directory(destination_)) {
    fs::path previous = staged;  // after a swap, the staging name holds the previous report
    if (!exchange(staged, destination_)) {
      // No atomic swap here: the old report steps aside, then the new one
      // takes its name; a reader may briefly find no directory, never a mix.
      // Named like a staging directory, so a run killed right here leaves
      // it to the next run's clean-up.
      previous = destination_.parent_path() / ("." + destination_.filename().string() + ".tmp-old");
      if (::rename(destination_.c_str(), previous.c_str()) != 0) fail(destination_, std::strerror(errno));
      if (::rename(staged.c_str(), destination_.c_str()) != 0) fail(destination_, std::strerror(errno));
    }
    staging_->release();
    std::error_code ignored;
    fs::remove_all(previous, ignored);
  } else {
    if (::rename(staged.c_str(), destination_.c_str()) != 0) {
      fail(destination_, std::string("cannot rename the new report into place: ") + std::strerror(errno));
    }
    staging_->release();
  }
}

}  // namespace pecheck::reports
