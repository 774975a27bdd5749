// A rotary validation's pass over every value of the cache (each table's
// extent, cos's successive identical rows: rotary_cache_scan.hpp), made while
// the files are read. The reader tells it each block of rows it has put in
// place (RowsInPlace, table_file.hpp) and the block is scanned then, still in
// the reading thread's cache; scanned after the read, every value came from
// memory a second time, on the detection's path (`pecheck validate` of a
// 65536 x 128 float32 pair: detection waited about 3 ms of some 70 for it).
//
//   RotaryReadPass pass;
//   both_at_once([&] { cos = read_table_file(cos_path, {}, limit, pass.cos_rows()).table; },
//                [&] { sin = read_table_file(sin_path, {}, limit, pass.sin_rows()).table; });
//   validate_rotary_cache(cos, sin, options, &pass);
//
// The tables validated must be the ones read through the hooks (a table of
// another shape or format is scanned afresh; the values are not compared).
#pragma once

#include <memory>

#include "pecheck/table_file.hpp"

namespace pecheck::validate {

class TableScanner;

class RotaryReadPass {
 public:
  RotaryReadPass();
  ~RotaryReadPass();
  RotaryReadPass(const RotaryReadPass&) = delete;
  RotaryReadPass& operator=(const RotaryReadPass&) = delete;

  // The hooks for the reader of each table: each used by one thread, alive
  // while this pass is.
  RowsInPlace cos_rows();
  RowsInPlace sin_rows();

  // What the hooks were fed (null before the first block of that table),
  // for the validation to finish scanning.
  TableScanner* cos_scanner() { return cos_.get(); }
  TableScanner* sin_scanner() { return sin_.get(); }

 private:
  std::unique_ptr<TableScanner> cos_;
  std::unique_ptr<TableScanner> sin_;
};

}  // namespace pecheck::validate
