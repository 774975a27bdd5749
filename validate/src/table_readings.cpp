#include "table_readings.hpp"

#include <utility>

namespace pecheck::validate {

TableReadings::TableReadings(const Table& table, DetectionOptions options)
    : table_(table), options_(std::move(options)) {}

const Detection& TableReadings::given() {
  if (!given_) given_ = detect_convention(table_, options_);
  return *given_;
}

const Detection& TableReadings::nothing_given() {
  if (!options_.convention && !options_.row_offset) return given();
  if (!nothing_given_) {
    DetectionOptions nothing;
    nothing.value_format = options_.value_format;
    nothing_given_ = detect_convention(table_, nothing);
  }
  return *nothing_given_;
}

const Detection& TableReadings::coarse() {
  if (!coarse_) {
    // Pairs and places as a bfloat16 table would be: a drifted table's
    // entries are off by far more than its own format's rounding.
    DetectionOptions coarse;
    coarse.value_format = FormatId::bfloat16;
    coarse_ = detect_convention(table_, coarse);
  }
  return *coarse_;
}

}  // namespace pecheck::validate
