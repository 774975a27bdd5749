// What validating an additive table finds beyond what every kind has
// (validation.hpp): the table's shape and formats, the convention and offset
// detection settled, and how its comparison was judged.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pecheck/format.hpp"
#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/validate/detection.hpp"

namespace pecheck::validate {

// The comparison at the other offset detection found about as close, when
// the table deviates at the one it chose.
struct RivalOffset {
  std::int64_t row_offset = 0;
  accuracy::Measurement measurement;
};

struct TableFindings {
  std::int64_t rows = 0;
  std::int64_t dim = 0;
  FormatId stored_format = FormatId::float32;
  FormatId compared_format = FormatId::float32;
  std::string format_note;  // why compared_format differs from stored_format, if it does
  Detection detection;      // its notes are the validation's notes
  bool compared = false;    // a convention was settled and the reference compared (comparisons[0])
  std::optional<double> max_abs_error_budget;
  bool ulp_criterion = true;    // false when --max-abs-error alone replaced it
  bool angle_allowance = false;  // the ULP criterion admits entries within the float64-angle bound
  std::int64_t rows_compared = 0;
  bool sampled = false;                    // fewer rows than the table's were compared
  std::optional<RivalOffset> rival;        // compared when detection.offset_ambiguous and the table deviates
  std::int64_t reference_escalations = 0;  // compared entries the reference's first step left to MPFR
};

}  // namespace pecheck::validate
