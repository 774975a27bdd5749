#include "pecheck/reports/report_files.hpp"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "pecheck/testing/temp_dir.hpp"
#include "support/sample_report.hpp"

namespace pecheck::reports {
namespace {

namespace fs = std::filesystem;

class ReportFiles : public ::testing::Test {
 protected:
  static std::string read(const fs::path& path) { return pecheck::testing::file_contents(path); }

  pecheck::testing::TempDir temp_;
  const fs::path directory_ = temp_.path();
};

TEST_F(ReportFiles, writesEveryRenderingAndOneSvgPerFigure) {
  const Report report = testing::sample_report();
  const fs::path out = directory_ / "nested" / "report";
  const std::vector<fs::path> written = write_report_files(report, out);
  EXPECT_EQ(written.size(), 4 + report.figures.size());
  EXPECT_EQ(read(out / json_file_name), write_json(report));
  EXPECT_EQ(read(out / markdown_file_name), write_markdown(report));
  EXPECT_EQ(read(out / junit_file_name), write_junit(report));
  EXPECT_EQ(read(out / html_file_name), write_html(report));
  for (const Figure& figure : report.figures) EXPECT_TRUE(fs::exists(out / "figures" / (figure.id + ".svg")));
}

TEST_F(ReportFiles, leavesNoTemporaryFilesAndReplacesOldContent) {
  const fs::path path = directory_ / "file.txt";
  write_file_atomically(path, "old contents that are longer");
  write_file_atomically(path, "new");
  EXPECT_EQ(read(path), "new");
  int entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(directory_)) ++entries;
  EXPECT_EQ(entries, 1);
}

TEST_F(ReportFiles, filesAreReadableByOthersLikeAnyOutput) {
  const fs::path path = directory_ / "perm.txt";
  write_file_atomically(path, "x");
  const fs::perms perms = fs::status(path).permissions();
  EXPECT_NE(perms & fs::perms::owner_read, fs::perms::none);
  EXPECT_NE(perms & fs::perms::owner_write, fs::perms::none);
}

TEST_F(ReportFiles, anOutputPathThatIsAFileIsAnErrorNamingIt) {
  const fs::path blocker = directory_ / "blocker";
  write_file_atomically(blocker, "x");
  try {
    write_report_files(testing::sample_report(), blocker);
    FAIL() << "expected ReportWriteError";
  } catch (const ReportWriteError& e) {
    EXPECT_NE(std::string(e.what()).find(blocker.string()), std::string::npos) << e.what();
  }
}

TEST_F(ReportFiles, aFileInAMissingDirectoryIsAnErrorNamingIt) {
  const fs::path path = directory_ / "missing" / "file.txt";
  try {
    write_file_atomically(path, "x");
    FAIL() << "expected ReportWriteError";
  } catch (const ReportWriteError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
}

TEST_F(ReportFiles, figureIdsThatCouldLeaveTheDirectoryAreRefused) {
  Report report = testing::sample_report();
  report.figures[0].id = "../escape";
  EXPECT_THROW(write_report_files(report, directory_ / "r"), ReportWriteError);
  EXPECT_FALSE(fs::exists(directory_ / "escape.svg"));
}

}  // namespace
}  // namespace pecheck::reports
