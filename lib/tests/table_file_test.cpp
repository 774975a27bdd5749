#include "pecheck/table_file.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "pecheck/convention.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/npy.hpp"
#include "pecheck/safetensors.hpp"
#include "table_file_testing.hpp"
#include "pecheck/testing/table_values.hpp"

using namespace pecheck::testing;  // fill_table, flat_at, flat_set, table_of, values_of

namespace pecheck {
namespace {

using namespace pecheck::testing;

TEST(TableFileError, messageIsOneLineWhateverThePathAndFileHold) {
  const TableFileError error("dir/evil\nname.npy", "descr", "unsupported dtype '\x01'\r\n", "'<f4'");
  const std::string message = error.what();
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_EQ(message.find('\r'), std::string::npos) << message;
  EXPECT_EQ(message, "dir/evil\\x0Aname.npy: descr: unsupported dtype '\\x01'\\x0D\\x0A (expected '<f4')");
}

TEST(TableFileError, wellFormedUtf8InAPathIsKeptAndStrayBytesAreEscaped) {
  EXPECT_EQ(std::string(TableFileError("donn\xc3\xa9" "es.npy", "f", "p", "e").what()),
            "donn\xc3\xa9" "es.npy: f: p (expected e)");
  EXPECT_EQ(std::string(TableFileError("a\xc3.npy", "f", "p", "e").what()), "a\\xC3.npy: f: p (expected e)");
}

TEST(TableFileKind, isChosenByExtensionIgnoringCase) {
  EXPECT_EQ(table_file_kind("a/b.npy"), TableFileKind::npy);
  EXPECT_EQ(table_file_kind("B.NPY"), TableFileKind::npy);
  EXPECT_EQ(table_file_kind("model.safetensors"), TableFileKind::safetensors);
  EXPECT_EQ(table_file_kind("table.npz"), std::nullopt);
  EXPECT_EQ(table_file_kind("npy"), std::nullopt);
}

TEST(TableFile, readAndWriteDispatchOnTheExtension) {
  TempDir dir;
  Table table = make_table(2, 2, FormatId::bfloat16);
  table = table_of(table.rows, table.cols, table.format, {1.0, -0.5, 0x1p-133, 3.0});  // 2^-133 is bfloat16's smallest subnormal
  for (const char* name : {"t.npy", "t.safetensors"}) {
    SCOPED_TRACE(name);
    write_table_file(dir / name, table);
    const TableFile read = read_table_file(dir / name);
    EXPECT_EQ(values_of(read.table), values_of(table));
  }
  EXPECT_EQ(read_table_file(dir / "t.npy").table.format, FormatId::float32) << ".npy has no bfloat16";
  EXPECT_EQ(read_table_file(dir / "t.safetensors").table.format, FormatId::bfloat16);
  try {
    write_table_file(dir / "t.csv", table);
    FAIL() << "wrote a .csv";
  } catch (const TableFileError& error) {
    EXPECT_TRUE(is_good_error_message(error.what(), (dir / "t.csv").string(), "file name"));
  }
}

TEST(TableFile, rowsInPlaceReachTheReaderOfEitherKind) {
  TempDir dir;
  // 128-byte rows: blocks of 8192 rows (1 MiB), the last one short.
  Table table = make_table(20000, 64, FormatId::float16);
  for (std::int64_t r = 0; r < table.rows; ++r) {
    for (std::int64_t c = 0; c < table.cols; ++c) table.set(r, c, static_cast<double>((r * 7 + c) % 2048) / 64.0);
  }
  for (const char* name : {"t.npy", "t.safetensors"}) {
    SCOPED_TRACE(name);
    write_table_file(dir / name, table);
    std::vector<std::int64_t> told;
    const TableFile read = read_table_file(dir / name, std::nullopt, any_table_rows,
                                           [&](const Table&, std::int64_t rows) { told.push_back(rows); });
    EXPECT_EQ(told, (std::vector<std::int64_t>{8192, 16384, 20000}));
    EXPECT_EQ(values_of(read.table), values_of(table));
  }
}

TEST(TableFile, unreadableFilesAreErrorsNamingThePath) {
  TempDir dir;
  const auto missing = dir / "missing.npy";
  try {
    read_npy(missing);
    FAIL() << "read a missing file";
  } catch (const TableFileError& error) {
    EXPECT_TRUE(is_good_error_message(error.what(), missing.string(), "file"));
    EXPECT_NE(std::string(error.what()).find("No such file or directory"), std::string::npos) << error.what();
  }
  const auto directory = dir / "directory.safetensors";
  std::filesystem::create_directory(directory);
  EXPECT_THROW(read_safetensors(directory), TableFileError);
  // A FIFO with no writer: opening it must neither block nor succeed.
  const auto fifo = dir / "fifo.npy";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_THROW(read_npy(fifo), TableFileError);
}

// A table written a block of rows at a time is the same file, byte for byte,
// as the whole table written at once: in every format, in both file kinds,
// with a shorter last block (2500 rows of 1000 float64 are 5 blocks of 4 MiB
// for one writer thread, 15 of 4/3 MiB for three), and whichever of the
// writer's threads finishes its block first.
TEST(ProducedTable, isWrittenByteForByteAsTheWholeTable) {
  TempDir dir;
  const Convention convention = *find_preset("vaswani");  // a copy: the optional is a temporary
  const TableRequest request{2500, 1000, 7};
  for (const FormatId format : {FormatId::float64, FormatId::float32, FormatId::float16, FormatId::bfloat16}) {
    for (const int workers : {1, 3}) {
      ProducedTable produced = fast_row_blocks(convention, request, format);
      produced.workers = workers;
      ASSERT_GT(produced.rows % rows_per_block(produced, (std::int64_t{4} << 20) / workers), 0)
          << "no shorter last block";
      for (const char* extension : {".npy", ".safetensors"}) {
        SCOPED_TRACE(std::string(format_of(format).name) + extension + ", " + std::to_string(workers) +
                     " writer threads");
        const std::filesystem::path whole = dir / (std::string("whole") + extension);
        const std::filesystem::path blocks = dir / (std::string("blocks") + extension);
        write_table_file(whole, fast_table(convention, request, format));
        write_table_file(blocks, produced);
        EXPECT_EQ(read_file_bytes(blocks), read_file_bytes(whole));
      }
    }
  }
}

// A producer that fails part-way leaves no file behind, not half of one,
// whether one thread fills the blocks or several do.
TEST(ProducedTable, aFailedProducerLeavesNoFile) {
  for (const int workers : {1, 2}) {
    TempDir dir;
    ProducedTable failing;
    failing.rows = 4096;
    failing.cols = 1024;
    failing.workers = workers;
    failing.produce = [](std::int64_t first_row, Table&) {
      if (first_row > 0) throw std::runtime_error("the second block cannot be made");
    };
    EXPECT_THROW(write_table_file(dir / "t.npy", failing), std::runtime_error) << workers << " writer threads";
    EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "a temporary or partial file was left";
  }
}

// A file system that refuses a block part-way (here a file size limit, as a
// full disk would) is an error naming the file, and leaves no file behind,
// whether one writer thread or two were writing when it failed.
TEST(ProducedTable, aWriteRefusedPartWayIsAnErrorAndLeavesNoFile) {
  struct rlimit saved {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  // Past the limit write() fails with EFBIG once SIGXFSZ is ignored.
  const auto old_handler = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit limited = saved;
  limited.rlim_cur = 3u << 20;  // the 8 MiB table's first blocks fit, the rest do not
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  for (const int workers : {1, 2}) {
    TempDir dir;
    ProducedTable produced = fast_row_blocks(*find_preset("vaswani"), {2048, 1024, 0}, FormatId::float32);
    produced.workers = workers;
    const std::filesystem::path path = dir / "t.npy";
    try {
      write_table_file(path, produced);
      ADD_FAILURE() << "a write past the file size limit succeeded, " << workers << " writer threads";
    } catch (const TableFileError& error) {
      EXPECT_NE(std::string(error.what()).find(path.string()), std::string::npos) << error.what();
    }
    EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "a temporary or partial file was left";
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  ::signal(SIGXFSZ, old_handler);
}

}  // namespace
}  // namespace pecheck
