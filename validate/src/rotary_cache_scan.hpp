// The passes a rotary validation makes over every value of the cache, made
// as one: each table's extent (the value hazards, rotary_value_hazards.hpp)
// and cos's successive identical rows (the position steps,
// position_steps.hpp). cos is read a block of rows at a time, the extent
// first, so that the row comparisons find the block in cache: apart, they
// touched a new cache line per row from memory. Run beside detection
// (rotary_validation.cpp).
#pragma once

#include "pecheck/table.hpp"
#include "position_steps.hpp"
#include "rotary_value_hazards.hpp"

namespace pecheck::validate {

struct RotaryCacheScan {
  ValueExtent cos_extent;
  ValueExtent sin_extent;
  SuccessiveRows successive;  // of cos
};

RotaryCacheScan scan_rotary_cache(const Table& cos, const Table& sin);

}  // namespace pecheck::validate
