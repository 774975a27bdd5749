// The readings detection makes of one table in one validation, each made at
// most once and only when a stage asks for it, so that detection runs in one
// place: the reading the options ask for (the validation's own detection),
// the reading with nothing given (what a table is when a given convention or
// offset does not fit it), and the nearest encoding at bfloat16's tolerance
// (what a table moved by training or noise was). A scaled table's own
// detection (scaled.cpp) reads another table, the one divided by its scale.
#pragma once

#include <optional>

#include "pecheck/table.hpp"
#include "pecheck/validate/detection.hpp"

namespace pecheck::validate {

class TableReadings {
 public:
  // `table` must outlive this.
  TableReadings(const Table& table, DetectionOptions options);

  const Detection& given();
  const Detection& nothing_given();
  const Detection& coarse();
  const DetectionOptions& options() const { return options_; }

 private:
  const Table& table_;
  DetectionOptions options_;
  std::optional<Detection> given_, nothing_given_, coarse_;
};

}  // namespace pecheck::validate
