// The two file helpers every command shares: a temporary directory that goes
// away with its contents unless released, and a file that appears whole or
// not at all.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "pecheck/atomic_file.hpp"
#include "pecheck/temporary_directory.hpp"
#include "pecheck/testing/temp_dir.hpp"

namespace pecheck {
namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& path) { return testing::file_contents(path); }

std::span<const std::byte> bytes(std::string_view text) { return std::as_bytes(std::span(text.data(), text.size())); }

int entries_in(const fs::path& directory) {
  int count = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(directory)) ++count;
  return count;
}

class FileInfrastructure : public ::testing::Test {
 protected:
  FileInfrastructure() : scratch_(fs::temp_directory_path(), "pecheck-infra-test-") {}
  const fs::path& scratch() const { return scratch_.path(); }

 private:
  TemporaryDirectory scratch_;
};

TEST_F(FileInfrastructure, TemporaryDirectoryIsRemovedWithItsContents) {
  fs::path made;
  {
    const TemporaryDirectory directory(scratch(), "job-");
    made = directory.path();
    EXPECT_EQ(made.parent_path(), scratch());
    EXPECT_EQ(made.filename().string().rfind("job-", 0), 0u);
    ASSERT_TRUE(fs::is_directory(made));
    fs::create_directories(made / "nested");
    std::ofstream(made / "nested" / "file") << "left by a command";
  }
  EXPECT_FALSE(fs::exists(made));
}

TEST_F(FileInfrastructure, TwoTemporaryDirectoriesNeverShareAName) {
  const TemporaryDirectory first(scratch(), "job-");
  const TemporaryDirectory second(scratch(), "job-");
  EXPECT_NE(first.path(), second.path());
}

TEST_F(FileInfrastructure, ReleasedTemporaryDirectoryStays) {
  fs::path kept;
  {
    TemporaryDirectory directory(scratch(), "staging-");
    kept = directory.release();
    EXPECT_TRUE(directory.path().empty());
  }
  EXPECT_TRUE(fs::is_directory(kept));
}

TEST_F(FileInfrastructure, DefaultPermissionsFollowTheUmask) {
  const mode_t previous = ::umask(022);
  const TemporaryDirectory directory(scratch(), "report-");
  struct stat status {};
  ASSERT_EQ(::stat(directory.path().c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0700u) << "mkdtemp makes it private";
  directory.use_default_permissions();
  ASSERT_EQ(::stat(directory.path().c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0755u);
  ::umask(previous);
}

TEST_F(FileInfrastructure, TemporaryDirectoryInAMissingParentNamesIt) {
  const fs::path missing = scratch() / "no-such-directory";
  try {
    const TemporaryDirectory directory(missing, "job-");
    FAIL() << "made a directory in a missing parent";
  } catch (const TemporaryDirectoryError& e) {
    EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
  }
  try {
    const TemporaryDirectory directory(missing, "job-", "TMPDIR=/elsewhere");
    FAIL() << "made a directory in a missing parent";
  } catch (const TemporaryDirectoryError& e) {
    EXPECT_NE(std::string(e.what()).find("TMPDIR=/elsewhere"), std::string::npos) << e.what();
  }
}

TEST_F(FileInfrastructure, AtomicFileReplacesTheDestinationOnCommitOnly) {
  const fs::path destination = scratch() / "table.npy";
  write_file_atomically(destination, bytes("old"));
  {
    AtomicFile file(destination);
    file.write(std::string_view("half of a new"));
    EXPECT_EQ(contents(destination), "old") << "a reader sees the old file until commit";
  }  // destroyed without commit, as when an exception unwinds
  EXPECT_EQ(contents(destination), "old");
  EXPECT_EQ(entries_in(scratch()), 1) << "the abandoned temporary is removed";
  AtomicFile file(destination);
  file.write(std::string_view("new"));
  file.commit();
  EXPECT_EQ(contents(destination), "new");
  EXPECT_EQ(entries_in(scratch()), 1);
}

TEST_F(FileInfrastructure, AtomicFileInAMissingDirectoryNamesTheDestination) {
  const fs::path destination = scratch() / "missing" / "out.npy";
  try {
    write_file_atomically(destination, bytes("x"));
    FAIL() << "wrote into a missing directory";
  } catch (const FileWriteError& e) {
    EXPECT_EQ(e.path(), destination);
    EXPECT_NE(std::string(e.what()).find(destination.string()), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pecheck
