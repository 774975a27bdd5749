#include "pecheck/validate/rotary_read_pass.hpp"

#include "rotary_cache_scan.hpp"

namespace pecheck::validate {

namespace {

// Sizes the table's scanner from its first block, then scans the chunks
// whose rows are in place.
RowsInPlace feeding(std::unique_ptr<TableScanner>& scanner, bool successive) {
  return [&scanner, successive](const Table& table, std::int64_t rows) {
    if (!scanner) scanner = std::make_unique<TableScanner>(table.rows, table.cols, table.format, successive);
    while (scanner->scan_next(table, rows)) {
    }
  };
}

}  // namespace

RotaryReadPass::RotaryReadPass() = default;
RotaryReadPass::~RotaryReadPass() = default;

RowsInPlace RotaryReadPass::cos_rows() { return feeding(cos_, true); }
RowsInPlace RotaryReadPass::sin_rows() { return feeding(sin_, false); }

}  // namespace pecheck::validate
