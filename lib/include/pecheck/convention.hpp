// A sinusoidal positional-encoding convention, as data.
//
// Every part of pecheck takes a Convention; none switches on a preset's name.
// The fields cover every public implementation listed in CONVENTIONS.md:
// layout, frequency rule, which position a row holds, rows forced to zero,
// what happens to an odd width, and the smallest width the original accepts.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pecheck {

enum class Layout {
  interleaved,     // column 2i: sin(p w_i), column 2i+1: cos(p w_i)
  sin_cos_halves,  // sin block first, then cos block
  cos_sin_halves,  // cos block first, then sin block (HF Musicgen)
};

// w_i = exp(-(k_i / m) * ln(numerator / denominator)) / divisor, where
//   paper:     numerator = base, denominator = 1, k_i = 2i, m = d, divisor = 1
//   timescale: numerator = max_ts, denominator = min_ts, k_i = i,
//              m = max(n - 1, 1), divisor = min_ts
// Keeping the rule in this form lets the reference evaluate it exactly from
// the same data the fast path uses.
enum class FrequencyRuleKind { paper, timescale };

struct FrequencyRule {
  FrequencyRuleKind kind = FrequencyRuleKind::paper;
  double base = 10000.0;         // paper
  double min_timescale = 1.0;    // timescale
  double max_timescale = 1.0e4;  // timescale
};

enum class OddDimPolicy {
  reject,       // odd d is an error (TF tutorial, Whisper)
  extra_sin,    // sin gets ceil(d/2) frequencies, cos floor(d/2) (paper, HF Marian)
  zero_column,  // the d-1 even columns as usual, then one zero column (tensor2tensor, fairseq)
};

// How a relative encoding ties its rows' positions to the table's length L
// (CONVENTIONS.md, "Relative sinusoidal encodings"): Transformer-XL's rows
// hold L-1 down to 0; ESPnet's, NeMo's and SpeechBrain's 2L-1 rows hold L-1
// down to -(L-1). `fixed`: the positions do not depend on the length.
enum class PositionSpan {
  fixed,            // row r holds position_offset + position_step * r
  down_to_zero,     // the last row holds 0 (position_step -1): Transformer-XL
  centred_on_zero,  // an odd row count, the middle row holds 0 (position_step -1): Conformer families
};

struct Convention {
  std::string name;  // the preset name, or a description for a custom convention
  Layout layout = Layout::interleaved;
  FrequencyRule frequency;
  // Row r holds position position_offset + position_step * r: the first
  // position and the direction, +1 (absolute encodings) or -1 (relative ones,
  // whose positions run down and below zero). position_of_row is the one
  // place that applies it.
  std::int64_t position_offset = 0;
  std::int64_t position_step = 1;
  PositionSpan span = PositionSpan::fixed;  // not fixed: for_rows sets position_offset
  std::vector<std::int64_t> zero_rows;      // table rows that are all zeros (fairseq padding_idx)
  OddDimPolicy odd_dim = OddDimPolicy::extra_sin;
  std::int64_t min_dim = 1;  // fairseq divides by (d/2 - 1): d >= 4
  std::string source;        // a preset's origin in public code; empty for custom conventions
};

// The symbolic frequency w_i of one column (see FrequencyRule).
struct FrequencyTerm {
  double log_numerator = 1.0;    // ln(log_numerator / log_denominator)
  double log_denominator = 1.0;
  std::int64_t k = 0;            // exponent numerator
  std::int64_t m = 1;            // exponent denominator
  double divisor = 1.0;
};

enum class ColumnKind { sin, cos, zero };

struct ColumnSpec {
  ColumnKind kind = ColumnKind::zero;
  std::int64_t frequency_index = 0;  // i, meaningless for zero columns
};

// Thrown for a request the convention cannot satisfy; the message names the
// field and what was expected.
class ConventionError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Largest d the reference supports; also bounds the fast path.
inline constexpr std::int64_t max_dim = 16384;
// Positions of magnitude below this are held exactly in float32.
inline constexpr std::int64_t max_exact_position = std::int64_t{1} << 24;

// Throws ConventionError when the convention cannot produce width d.
void check_dim(const Convention& convention, std::int64_t d);

// Number of distinct frequencies for width d (n = d/2, or ceil(d/2) with extra_sin).
std::int64_t frequency_count(const Convention& convention, std::int64_t d);

// The frequency term of index i for width d.
FrequencyTerm frequency_term(const Convention& convention, std::int64_t d, std::int64_t i);

// w_i evaluated in double (about 1 ulp); for display and generators, not for tables.
double frequency_value(const Convention& convention, std::int64_t d, std::int64_t i);

// What each of the d columns holds.
std::vector<ColumnSpec> column_layout(const Convention& convention, std::int64_t d);

// Where frequency i's sin and cos sit in a row (-1: the row has no such column).
struct FrequencyColumns {
  std::int64_t frequency_index = 0;
  std::int64_t sin_column = -1;
  std::int64_t cos_column = -1;
  bool paired() const { return sin_column >= 0 && cos_column >= 0; }
};

// The inverse of a column layout: one entry per frequency, in frequency order
// (an extra sin column of an odd width has no cos column).
std::vector<FrequencyColumns> columns_by_frequency(const std::vector<ColumnSpec>& columns);

// The frequencies of width d that have both a sin and a cos column: the pairs
// on which sin^2 + cos^2 = 1 holds and from which angles are read.
std::vector<FrequencyColumns> paired_frequencies(const Convention& convention, std::int64_t d);

// Whether table row r (after --offset) is forced to zero.
bool is_zero_row(const Convention& convention, std::int64_t row);

// The position held by table row r: the one place rows become positions.
inline std::int64_t position_of_row(const Convention& convention, std::int64_t row) {
  return convention.position_offset + convention.position_step * row;
}

// The row holding position p (the inverse of position_of_row; the step is +1 or -1).
inline std::int64_t row_of_position(const Convention& convention, std::int64_t position) {
  return (position - convention.position_offset) * convention.position_step;
}

// The convention with its first position set for a table of `rows` rows
// (span fixed afterwards); a fixed convention is returned as it is. Throws
// ConventionError naming --rows when the span cannot have that many rows.
Convention for_rows(const Convention& convention, std::int64_t rows);

// The six presets of CONVENTIONS.md, in its order: absolute encodings,
// whose row r holds position r.
const std::vector<Convention>& presets();
// The relative ones (transformer-xl, espnet-rel, nemo-rel, speechbrain-rel):
// positions that run down and below zero, tied to the table's length.
const std::vector<Convention>& relative_presets();
// Both, absolute first; find_preset searches these.
const std::vector<Convention>& all_presets();
// Names match whatever their case (`--convention Vaswani` is vaswani): the
// presets' names differ by more than case.
std::optional<Convention> find_preset(std::string_view name);
// The preset named, or ConventionError listing the valid names.
Convention preset_by_name(std::string_view name);
// Every preset's name, comma-separated, as error messages and --help list them.
std::string preset_names();
// Whether two names are equal ignoring ASCII case.
bool same_name(std::string_view a, std::string_view b);

// The formula of a convention in one line of plain text, for `pecheck conventions`.
std::string describe(const Convention& convention);

std::string_view to_string(Layout layout);
std::string_view to_string(FrequencyRuleKind kind);
std::string_view to_string(OddDimPolicy policy);
std::string_view to_string(PositionSpan span);

}  // namespace pecheck
