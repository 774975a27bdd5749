// Fault 6 of CONVENTIONS.md: a sinusoidal table that was trained, or
// re-initialised with small noise. Its pairs miss sin^2 + cos^2 = 1 by more
// than the format's rounding, so detection calls it no encoding; read again
// with a bfloat16 tolerance (|s^2 + c^2 - 1| <= 0.125, see pair_tolerance),
// such a table still pairs, its frequencies and offset are still found, and
// how far it is from the convention it drifted from can be measured.
#pragma once

#include <optional>
#include <string>

#include "pecheck/table.hpp"
#include "pecheck/validate/detection.hpp"
#include "pecheck/validate/validation.hpp"
#include "table_readings.hpp"

namespace pecheck::validate {

struct Drift {
  Hazard hazard;       // drifted: the convention it is closest to, RMS and max deviation
  std::string reason;  // one line for the verdict
};

// Empty when the values' format is already as coarse as bfloat16, or when
// the table does not pair even then (random values pass a pair with
// probability below 0.2, see pair_tolerance).
std::optional<Drift> drift_from_encoding(const Table& table, TableReadings& readings);

}  // namespace pecheck::validate
