// `pecheck validate FILE`: a third-party table against the correctly rounded
// reference of the convention it holds, with the numeric faults of
// CONVENTIONS.md ("Numeric faults seen in real code") diagnosed from the
// table itself.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/format.hpp"
#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/detection.hpp"

namespace pecheck::validate {

// A table that cannot be an encoding table at all: no rows or columns, wider
// than max_dim, or more rows than there are positions below 2^24. The message
// names the shape and what was expected; the caller prefixes the file.
class ValidationInputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

enum class ValidationVerdict {
  conforms,  // every compared entry is within the budget (or the float64-angle bound), and nothing is
             // non-finite or out of range
  deviates,  // a compared entry is outside the budget, the table is not an encoding at all, or it is
             // another convention or offset than the one given
  unknown,   // the table looks sinusoidal but no convention or offset could be settled
};

enum class HazardKind {
  position_precision,   // fault 1
  angle_precision,      // fault 2
  out_of_range,         // fault 8
  non_finite,           // fault 8
  not_sinusoidal,       // fault 6, when nothing sinusoidal is left
  convention_mismatch,  // faults 3, 4, 5: the given --convention or --offset is not what the table holds
  drifted,              // fault 6: a sinusoidal table moved by training or small noise
  scaled,               // a correctly shaped sinusoid times a constant (NeMo xscale, sockeye, x-transformers)
};

struct Hazard {
  HazardKind kind;
  std::string evidence;  // one or two sentences with the figures that show it
};

struct ValidationOptions {
  // Given, the table is compared with them; when they do not fit, detection
  // runs all the same and a convention_mismatch hazard says what the table is.
  std::optional<Convention> convention;     // skip detection of the convention
  std::optional<std::int64_t> row_offset;   // skip detection of the offset
  std::optional<double> max_ulp;            // default: the third-party budget of the format
  std::optional<double> max_abs_error;      // alone: replaces the ULP criterion; with max_ulp: both hold
  // The table is an estimate whose entries may be off by this much without
  // any fault of the encoding (the PE recovered from an input layer's output,
  // input_layer.cpp): a row within it of the encoding at some position is no
  // evidence of positions or angles held in a low precision, so the fault
  // diagnoses (faults.hpp) count only deviations past it. Verdicts are not
  // affected: the budgets above decide them.
  std::optional<double> estimate_abs_error;
  // Entries beyond the ULP budget pass when within the float64-angle bound
  // (accuracy/angle_allowance.hpp) unless this is set.
  bool ulp_only = false;
  // Default: the narrowest format holding every value. Detection's
  // tolerances come from that narrowest format all the same (or from this
  // one when it is coarser): bfloat16 values compared as float32 are still
  // paired and placed with bfloat16's tolerance.
  std::optional<FormatId> compare_as;
  // 0 (the default): every entry is compared with the reference. N > 0:
  // only N rows, chosen deterministically (the rows the fast scan found
  // worst first, the table's edges, positions at powers of two, then blocks
  // spread evenly); the result then says it was sampled.
  std::int64_t sample_rows = 0;
  int threads = 0;  // reference threads, 0: hardware concurrency
  // Called as rows are compared with the reference (done, total).
  std::function<void(std::int64_t, std::int64_t)> progress;
};

// The comparison at the other offset detection found about as close, when
// the table deviates at the one it chose.
struct RivalOffset {
  std::int64_t row_offset = 0;
  accuracy::Measurement measurement;
};

struct ValidationResult {
  ValidationVerdict verdict = ValidationVerdict::unknown;
  std::int64_t rows = 0;
  std::int64_t dim = 0;
  FormatId stored_format = FormatId::float32;
  FormatId compared_format = FormatId::float32;
  std::string format_note;  // why compared_format differs from stored_format, if it does
  Detection detection;
  bool compared = false;                 // a convention was settled and the reference compared
  accuracy::Measurement measurement;   // worst.row is the file row, worst.position its position
  std::optional<double> max_abs_error_budget;
  bool ulp_criterion = true;             // false when --max-abs-error alone replaced it
  bool angle_allowance = false;          // the ULP criterion admits entries within the float64-angle bound
                                         // (measurement.abs_bound holds what it admitted)
  std::int64_t rows_compared = 0;
  bool sampled = false;                  // fewer rows than the table's were compared
  std::optional<RivalOffset> rival;       // compared when detection.offset_ambiguous and the table deviates
  std::int64_t reference_escalations = 0;  // compared entries the reference's first step left to MPFR
  std::vector<Hazard> hazards;
  std::vector<std::string> reasons;      // why the verdict is not `conforms`
};

// Throws ValidationInputError for a table that cannot be an encoding table,
// and ConventionError for options the table contradicts (an offset that puts
// a position at or past 2^24, a width the given convention rejects).
ValidationResult validate_table(const Table& table, const ValidationOptions& options = {});

std::string_view to_string(ValidationVerdict verdict);
std::string_view to_string(HazardKind kind);

}  // namespace pecheck::validate
