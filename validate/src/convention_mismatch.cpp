#include "convention_mismatch.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>

#include "encoding_rows.hpp"
#include "preset_match.hpp"
#include "timestep_reading.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::validate {

namespace {

// Rows spread over the table on which the two readings are compared (the
// fast float64 rows cost about a microsecond per entry), and how many of the
// table's zero rows are added to them.
constexpr std::int64_t fit_rows = 256;
constexpr std::size_t zero_rows_checked = 64;

// One reading of the table: a convention and the convention row file row 0 holds.
struct Reading {
  Convention convention;
  std::int64_t row_offset = 0;
  bool settled = true;  // false when no row offset fits the convention
};

// One field in which the readings differ, each side in words, and the
// CONVENTIONS.md fault it is.
struct FieldDifference {
  std::string field;
  std::string found;
  std::string given;
  int fault = 3;
};

std::string layout_words(Layout layout) {
  switch (layout) {
    case Layout::interleaved:
      return "interleaved";
    case Layout::sin_cos_halves:
      return "sin-cos halves";
    case Layout::cos_sin_halves:
      return "cos-sin halves";
  }
  return "?";
}

std::string rule_words(const FrequencyRule& rule) {
  if (rule.kind == FrequencyRuleKind::paper) return "paper rule, base " + significant(rule.base, 6);
  if (rule.kind == FrequencyRuleKind::timestep) {
    return "timestep rule, max_period " + significant(rule.max_period, 6) + ", downscale_freq_shift " +
           std::to_string(rule.downscale_freq_shift) + ", scale " + significant(rule.scale, 6);
  }
  return "timescale rule, timescales " + significant(rule.min_timescale, 6) + " to " + significant(rule.max_timescale, 6);
}

std::string odd_words(OddDimPolicy policy) {
  switch (policy) {
    case OddDimPolicy::reject:
      return "odd width rejected";
    case OddDimPolicy::extra_sin:
      return "odd width: sin gets the extra column";
    case OddDimPolicy::zero_column:
      return "odd width: one zero column appended";
  }
  return "?";
}

// The file rows a reading holds as all zeros.
std::vector<std::int64_t> zero_file_rows(const Reading& reading, std::int64_t rows) {
  std::vector<std::int64_t> file_rows;
  for (std::int64_t row : reading.convention.zero_rows) {
    const std::int64_t file_row = row - reading.row_offset;
    if (file_row >= 0 && file_row < rows) file_rows.push_back(file_row);
  }
  std::sort(file_rows.begin(), file_rows.end());
  file_rows.erase(std::unique(file_rows.begin(), file_rows.end()), file_rows.end());
  return file_rows;
}

std::string zero_words(const std::vector<std::int64_t>& file_rows) {
  if (file_rows.empty()) return "no zero row";
  std::string words = file_rows.size() == 1 ? "file row" : "file rows";
  for (std::size_t k = 0; k < file_rows.size() && k < 8; ++k)
    words += (k == 0 ? " " : ", ") + std::to_string(file_rows[k]);
  if (file_rows.size() > 8) words += ", ...";
  return words + " all zeros";
}

std::string offset_words(const Reading& reading) {
  if (!reading.settled) return "no row offset fits";
  const std::int64_t first = position_of_row(reading.convention, reading.row_offset);
  return "file row 0 holds position " + std::to_string(first) +
         (reading.convention.position_step < 0 ? " and the positions run down" : "");
}

// The same rule in its own fields (an odd width's policy may still change
// how many frequencies it spans: that difference is the policy's).
bool same_rule_fields(const FrequencyRule& a, const FrequencyRule& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case FrequencyRuleKind::paper: return a.base == b.base;
    case FrequencyRuleKind::timescale: return a.min_timescale == b.min_timescale && a.max_timescale == b.max_timescale;
    case FrequencyRuleKind::timestep:
      return a.max_period == b.max_period && a.downscale_freq_shift == b.downscale_freq_shift && a.scale == b.scale;
  }
  return false;
}

// Against a timestep convention, a table that is one too differs in the
// arguments of get_timestep_embedding: named by them, as the faults real
// code had (downscale_freq_shift 1 for 0: kohya-ss/sd-scripts PR 1187; the
// sin and cos halves swapped: flashinfer PR 3819).
bool timestep_differences(const Convention& f, const Convention& g, std::int64_t cols,
                          std::vector<FieldDifference>& list) {
  const std::optional<TimestepEmbedding> given = timestep_fields(g);
  if (!given) return false;
  const std::optional<TimestepEmbedding> found = timestep_reading(f, cols);
  if (!found) return false;
  const auto differ = [&](const char* field, bool different) {
    if (different) list.push_back({field, timestep_field_words(field, *found), timestep_field_words(field, *given), 3});
  };
  differ("flip_sin_to_cos", found->flip_sin_to_cos != given->flip_sin_to_cos);
  differ("downscale_freq_shift", found->downscale_freq_shift != given->downscale_freq_shift);
  differ("scale", found->scale != given->scale);
  differ("max_period", found->max_period != given->max_period);
  return true;
}

std::vector<FieldDifference> differences(const Reading& found, const Reading& given, std::int64_t cols,
                                         std::int64_t rows, bool offset_given) {
  const Convention& f = found.convention;
  const Convention& g = given.convention;
  std::vector<FieldDifference> list;
  if (!timestep_differences(f, g, cols, list)) {
    if (f.layout != g.layout) list.push_back({"layout", layout_words(f.layout), layout_words(g.layout), 3});
    if (!same_rule_fields(f.frequency, g.frequency) && !same_frequencies(f, g, cols)) {
      list.push_back({"frequency rule", rule_words(f.frequency), rule_words(g.frequency), 3});
    }
  }
  if (cols % 2 == 1 && f.odd_dim != g.odd_dim)
    list.push_back({"odd-width policy", odd_words(f.odd_dim), odd_words(g.odd_dim), 5});
  // An offset searched under the wrong layout or rule means nothing: it is a
  // difference only when the user gave it, or when nothing else differs.
  const bool offset_differs = !given.settled ||
                              position_of_row(f, found.row_offset) != position_of_row(g, given.row_offset) ||
                              f.position_step != g.position_step;
  if (offset_differs && (offset_given || list.empty())) {
    list.push_back({"row offset", offset_words(found), offset_words(given), 4});
  }
  const std::vector<std::int64_t> found_zeros = zero_file_rows(found, rows);
  const std::vector<std::int64_t> given_zeros = zero_file_rows(given, rows);
  if (given.settled && found_zeros != given_zeros)
    list.push_back({"zero rows", zero_words(found_zeros), zero_words(given_zeros), 4});
  return list;
}

// Layout and rule, then every other field in which the readings differ.
std::string summary(const Reading& reading, const std::vector<FieldDifference>& diffs, bool found_side) {
  std::string text = layout_words(reading.convention.layout) + ", " + rule_words(reading.convention.frequency);
  const bool timestep_rule = reading.convention.frequency.kind == FrequencyRuleKind::timestep;
  for (const FieldDifference& d : diffs) {
    if (d.field == "layout" || d.field == "frequency rule") continue;
    // A timestep rule's words name its arguments already.
    if (timestep_rule && (d.field == "downscale_freq_shift" || d.field == "scale" || d.field == "max_period")) continue;
    text += ", " + (found_side ? d.found : d.given);
  }
  return text;
}

// Rows spread evenly over the table, with the zero rows of the table and of
// both readings: a padding row zeroed, or not zeroed, is what tells fairseq
// from tensor2tensor.
std::vector<std::int64_t> rows_to_fit(std::int64_t rows, const Detection& found, const Reading& a, const Reading& b) {
  std::vector<std::int64_t> chosen;
  const std::int64_t count = std::min(rows, fit_rows);
  for (std::int64_t k = 0; k < count; ++k) chosen.push_back(count == 1 ? 0 : k * (rows - 1) / (count - 1));
  for (std::size_t k = 0; k < found.zero_rows.size() && k < zero_rows_checked; ++k)
    chosen.push_back(found.zero_rows[k]);
  for (const Reading* reading : {&a, &b}) {
    const std::vector<std::int64_t> zeros = zero_file_rows(*reading, rows);
    chosen.insert(chosen.end(), zeros.begin(),
                  zeros.begin() + static_cast<std::ptrdiff_t>(std::min(zeros.size(), zero_rows_checked)));
  }
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  return chosen;
}

double fit_error(const Table& table, const Reading& reading, const std::vector<std::int64_t>& rows) {
  if (!reading.settled) return std::numeric_limits<double>::infinity();
  return max_abs_difference(table, rows,
                            encoding_rows(reading.convention, table.cols, shifted(rows, reading.row_offset)));
}

// How much worse than the detected reading the given one may fit and still
// not be called a mismatch, beyond twice the detected one's error.
double fit_noise(FormatId format) { return std::ldexp(1.0, 3 - format_of(format).precision); }

std::string found_name(const Detection& found) { return found.preset ? *found.preset : "a custom convention"; }

// Presets that hold the same table at this width (tf-tutorial and marian-hf at even d).
std::string identical_presets(const Detection& found) {
  std::string text;
  for (const std::string& other : found.also_matches) text += "; " + other + " is identical at this width";
  return text;
}

std::string given_name(const Detection& given, const DetectionOptions& options) {
  std::string name = options.convention ? options.convention->name
                                        : (given.preset ? *given.preset : std::string("a custom convention"));
  if (options.row_offset) name += " at --offset " + std::to_string(*options.row_offset);
  return name;
}

// The flags that validate the table as what it is.
std::string advice(const Detection& found, const DetectionOptions& options) {
  std::vector<std::string> flags;
  if (options.convention) {
    if (!found.preset) {
      flags.push_back("--convention auto (no preset is it: " + describe(*found.convention) + ")");
    } else if (*found.preset != options.convention->name) {
      flags.push_back("--convention " + *found.preset);
    }
  }
  if (options.row_offset && *options.row_offset != found.row_offset) {
    flags.push_back(found.offset_ambiguous ? "--offset auto" : "--offset " + std::to_string(found.row_offset));
  }
  if (flags.empty()) return "Validate without --convention and --offset to check it as detected.";
  std::string text = "Validate with";
  for (std::size_t k = 0; k < flags.size(); ++k) text += (k == 0 ? " " : " and ") + flags[k];
  return text + ".";
}

}  // namespace

std::optional<ConventionMismatch> convention_mismatch(const Table& table, TableReadings& readings) {
  const DetectionOptions& options = readings.options();
  if (!options.convention && !options.row_offset) return std::nullopt;
  const Detection& given = readings.given();
  Detection found = readings.nothing_given();
  if (!found.sinusoidal || !found.convention) return std::nullopt;

  const Reading found_reading{*found.convention, found.row_offset, true};
  Reading given_reading;
  if (given.convention) {
    given_reading = {*given.convention, given.row_offset, true};
  } else if (options.convention) {
    given_reading = {*options.convention, options.row_offset.value_or(0), false};
  } else {
    return std::nullopt;  // an offset alone, and no convention fits it: nothing to set side by side
  }
  const std::vector<FieldDifference> diffs =
      differences(found_reading, given_reading, table.cols, table.rows, options.row_offset.has_value());
  if (diffs.empty()) return std::nullopt;

  const std::vector<std::int64_t> rows = rows_to_fit(table.rows, found, found_reading, given_reading);
  const double found_error = fit_error(table, found_reading, rows);
  const double given_error = fit_error(table, given_reading, rows);
  // The given reading fits as well, up to twice the detected one's error and
  // 8 ULP of 1 in the values' format: a coarse, narrow table can sit at two
  // offsets within its rounding, and then neither is wrong.
  const FormatId format = options.value_format.value_or(table.format);
  if (!(given_error > 2.0 * found_error + fit_noise(format))) return std::nullopt;

  const std::string found_text = found_name(found);
  const std::string given_text = given_name(given, options);
  std::set<int> faults;
  std::string fields;
  for (std::size_t k = 0; k < diffs.size(); ++k) {
    faults.insert(diffs[k].fault);
    fields += (k == 0 ? "" : k + 1 == diffs.size() ? " and " : ", ") + diffs[k].field;
  }
  std::ostringstream evidence;
  evidence << "the table is " << found_text << " (" << summary(found_reading, diffs, true) << identical_presets(found)
           << "), not " << given_text << " (" << summary(given_reading, diffs, false) << "): they differ in the "
           << fields << ". ";
  if (given_reading.settled) {
    evidence << "|table - " << given_text << "| reaches " << significant(given_error, 3) << " on " << rows.size()
             << " rows spread over the table, |table - " << found_text << "| " << significant(found_error, 3);
  } else {
    evidence << "|table - " << found_text << "| reaches " << significant(found_error, 3) << " on " << rows.size()
             << " rows spread over the table";
  }
  evidence << " (CONVENTIONS.md fault";
  if (faults.size() > 1) evidence << 's';
  std::size_t k = 0;
  for (int fault : faults) evidence << (k++ == 0 ? " " : ", ") << fault;
  evidence << "). " << advice(found, options);

  ConventionMismatch mismatch;
  mismatch.hazard = {HazardKind::convention_mismatch, evidence.str()};
  mismatch.reason = "the table is " + found_text + ", not " + given_text + " (they differ in the " + fields + ")";
  mismatch.found = std::move(found);
  return mismatch;
}

bool mismatch_ruled_out(double max_abs_error, FormatId format) {
  // convention_mismatch calls it a mismatch only when the given reading's
  // error on its rows exceeds 2 found_error + fit_noise >= fit_noise. That
  // error is |table - pecheck's fast float64 rows| on finite entries, and the
  // fast rows are within about one float64 ULP (2^-53 for |values| <= 1,
  // encoding_rows.hpp) of the exact values the full comparison measured
  // against: so it is at most max_abs_error + 2^-53. 2^-40 is taken for
  // that, 2^13 times the fast rows' error; a float64 table, whose fit_noise
  // is 2^-50, is then never ruled out this way and is always checked.
  constexpr double fast_rows_margin = 0x1p-40;
  return max_abs_error + fast_rows_margin <= fit_noise(format);
}

}  // namespace pecheck::validate
