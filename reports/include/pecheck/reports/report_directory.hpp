// A report directory replaced as a whole. A run writes every file into a
// sibling staging directory (.NAME.tmp-XXXXXX beside NAME) and, once all are
// written, swaps it into place with one rename (renameat2 RENAME_EXCHANGE;
// two renames where the filesystem lacks it), so a reader never finds
// report.json of one run beside report.html of another, and a run killed
// midway leaves the previous report whole.
//
// Opened before any check runs: it takes the lock, cleans staging directories
// that killed runs left, and makes the staging directory, so an unwritable
// --output-dir fails at once. The lock is an flock on .NAME.lock beside the
// directory: a second run into the same directory exits with an error naming
// it rather than waiting (a CI job should fail visibly, not hang).
//
// An existing directory is replaced only when it holds nothing but what
// pecheck writes (report.*, figures/, validation.*, input_layer.*): a
// --output-dir that is a user's own directory is refused, never wiped.
#pragma once

#include <filesystem>
#include <optional>

#include "pecheck/temporary_directory.hpp"

namespace pecheck::reports {

class ReportDirectory {
 public:
  // Throws ReportWriteError (naming the directory and why) when the directory
  // cannot be written, is locked by another run, or holds foreign files.
  explicit ReportDirectory(const std::filesystem::path& destination);
  // Without commit(), removes the staging directory: the old report stays.
  ~ReportDirectory();
  ReportDirectory(const ReportDirectory&) = delete;
  ReportDirectory& operator=(const ReportDirectory&) = delete;

  // Where this run writes its files.
  const std::filesystem::path& staging() const { return staging_->path(); }
  const std::filesystem::path& destination() const { return destination_; }
  // Swaps the staging directory into place and removes the old report.
  void commit();

 private:
  std::filesystem::path destination_;
  std::optional<TemporaryDirectory> staging_;
  int lock_ = -1;
};

}  // namespace pecheck::reports
