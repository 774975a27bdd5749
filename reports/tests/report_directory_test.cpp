// A report directory is replaced as a whole (issue 14): never a mixed set of
// files from two runs, whatever stops a run; stale staging directories of
// killed runs are cleaned; a second run into the same directory is refused
// while the first holds it; a user's own directory is never wiped.
#include "pecheck/reports/report_directory.hpp"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "pecheck/reports/report_files.hpp"
#include "pecheck/testing/temp_dir.hpp"

namespace pecheck::reports {
namespace {

namespace fs = std::filesystem;

class ReportDirectoryTest : public ::testing::Test {
 protected:
  static std::string read(const fs::path& path) { return pecheck::testing::file_contents(path); }
  // A complete report of one run, as a previous run left it.
  void write_previous_run(const std::string& tag) {
    fs::create_directories(out_ / "figures");
    for (std::string_view name : {json_file_name, html_file_name, markdown_file_name, junit_file_name}) {
      write_file_atomically(out_ / name, tag);
    }
    write_file_atomically(out_ / "figures" / "f.svg", tag);
  }
  std::vector<fs::path> entries_beside() const {
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(temp_.path())) found.push_back(entry.path().filename());
    return found;
  }

  pecheck::testing::TempDir temp_;
  const fs::path out_ = temp_.path() / "report";
};

TEST_F(ReportDirectoryTest, aCommittedRunReplacesThePreviousReportAsAWhole) {
  write_previous_run("old");
  {
    ReportDirectory directory(out_);
    write_file_atomically(directory.staging() / json_file_name, "new");  // this run writes only the JSON
    directory.commit();
  }
  EXPECT_EQ(read(out_ / json_file_name), "new");
  EXPECT_FALSE(fs::exists(out_ / html_file_name)) << "the old run's HTML stayed beside the new JSON";
  EXPECT_FALSE(fs::exists(out_ / "figures"));
}

TEST_F(ReportDirectoryTest, aRunStoppedBeforeCommitLeavesThePreviousReportWhole) {
  write_previous_run("old");
  {
    ReportDirectory directory(out_);
    write_file_atomically(directory.staging() / json_file_name, "new");
  }  // stopped: an exception, a full disk
  for (std::string_view name : {json_file_name, html_file_name, markdown_file_name, junit_file_name}) {
    EXPECT_EQ(read(out_ / name), "old") << name;
  }
  EXPECT_EQ(entries_beside().size(), 2u) << "the staging directory was left (besides the report and its lock)";
}

TEST_F(ReportDirectoryTest, staleStagingOfAKilledRunIsRemoved) {
  write_previous_run("old");
  fs::create_directories(temp_.path() / ".report.tmp-Killed" / "figures");  // kill -9 left it
  write_file_atomically(out_ / ".report.json.tmp-AbCdEf", "half");          // a per-file temporary
  ReportDirectory directory(out_);
  EXPECT_FALSE(fs::exists(temp_.path() / ".report.tmp-Killed"));
  directory.commit();
  EXPECT_FALSE(fs::exists(out_ / ".report.json.tmp-AbCdEf"));
}

TEST_F(ReportDirectoryTest, aSecondRunIntoTheSameDirectoryIsRefusedWhileTheFirstHoldsIt) {
  {
    ReportDirectory first(out_);
    try {
      ReportDirectory second(out_);
      FAIL() << "two runs hold " << out_;
    } catch (const ReportWriteError& e) {
      EXPECT_NE(std::string(e.what()).find("another pecheck run is writing it"), std::string::npos) << e.what();
    }
    first.commit();
  }
  EXPECT_NO_THROW(ReportDirectory again(out_));  // released when the first ended
}

TEST_F(ReportDirectoryTest, anUnwritableDestinationFailsAtOnce) {
  write_file_atomically(temp_.path() / "a-file", "x");
  EXPECT_THROW(ReportDirectory(temp_.path() / "a-file" / "report"), ReportWriteError);
  EXPECT_THROW(ReportDirectory(temp_.path() / "a-file"), ReportWriteError);
}

TEST_F(ReportDirectoryTest, aDirectoryHoldingFilesPecheckDidNotWriteIsRefusedNotWiped) {
  fs::create_directories(out_);
  write_file_atomically(out_ / "notes.txt", "mine");
  try {
    ReportDirectory directory(out_);
    FAIL() << "a user's directory was accepted for replacement";
  } catch (const ReportWriteError& e) {
    EXPECT_NE(std::string(e.what()).find("notes.txt"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read(out_ / "notes.txt"), "mine");
}

}  // namespace
}  // namespace pecheck::reports
