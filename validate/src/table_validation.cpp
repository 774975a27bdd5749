#include "pecheck/validate/table_validation.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <sstream>
#include <utility>

#include "angle_growth.hpp"
#include "comparison.hpp"
#include "convention_mismatch.hpp"
#include "drift.hpp"
#include "faults.hpp"
#include "narrow_format.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/accuracy/measurement.hpp"
#include "pecheck/accuracy/budgets.hpp"
#include "pecheck/accuracy/close_allowance.hpp"
#include "scaled.hpp"
#include "share_text.hpp"
#include "subject_hints.hpp"
#include "table_rows.hpp"
#include "table_width.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::validate {

namespace {

// The rows the fast scan found worst go first into a sampled comparison, so
// the reported maximum is the table's, not the sample's.
constexpr std::size_t priority_rows = 256;

void check_shape(const Table& table) {
  const std::string shape = std::to_string(table.rows) + " x " + std::to_string(table.cols);
  if (table.rows < 1 || table.cols < 1) {
    throw ValidationInputError("shape: the table is " + shape + " (expected at least one row and one column)");
  }
  if (table.cols > max_dim) {
    throw ValidationInputError("shape: the table is " + shape + ", " + std::to_string(table.cols) +
                               " columns wide (expected a width d of at most " + std::to_string(max_dim) + ")");
  }
  if (table.rows > max_exact_position) {
    throw ValidationInputError("shape: the table is " + shape + " (expected at most 2^24 = " +
                               std::to_string(max_exact_position) + " rows, one per position float32 holds exactly)");
  }
}

double largest_frequency(const Convention& convention, std::int64_t dim) {
  double largest = 0.0;
  for (std::int64_t i = 0; i < frequency_count(convention, dim); ++i) {
    largest = std::max(largest, frequency_value(convention, dim, i));
  }
  return largest;
}

std::vector<std::int64_t> worst_rows(const RowErrors& scan) {
  std::vector<std::size_t> order(scan.rows.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const std::size_t kept = std::min(order.size(), priority_rows);
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(kept), order.end(),
                    [&](std::size_t a, std::size_t b) { return scan.errors[a] > scan.errors[b]; });
  std::vector<std::int64_t> rows;
  for (std::size_t k = 0; k < kept; ++k) rows.push_back(scan.rows[order[k]]);
  return rows;
}

// What detection finds in a table a given convention cannot produce, as the
// end of that error's message.
std::string what_it_is(const Table& table, FormatId value_format) {
  const Detection found = detect_convention(table, DetectionOptions{std::nullopt, std::nullopt, value_format});
  if (!found.sinusoidal || !found.convention) return "";
  if (!found.preset) return "; detection finds a custom convention: validate with --convention auto";
  return "; detection finds " + *found.preset + ": validate with --convention " + *found.preset + " or auto";
}

void decide(Validation& result) {
  const auto has = [&](HazardKind kind) { return result.has(kind); };
  TableFindings& table = result.table();
  if (has(HazardKind::not_sinusoidal)) {
    result.verdict = ValidationVerdict::deviates;
    result.reasons.push_back("the table is not a sinusoidal encoding");
    return;
  }
  // Their reasons are in already; the comparison's figures follow them.
  const bool mismatched = has(HazardKind::convention_mismatch) || has(HazardKind::drifted) || has(HazardKind::scaled);
  if (!table.compared) {
    result.verdict = mismatched ? ValidationVerdict::deviates : ValidationVerdict::unknown;
    return;
  }
  const accuracy::Measurement& m = result.comparisons.front().measurement;
  if (has(HazardKind::non_finite)) result.reasons.push_back("the table holds NaN or infinity");
  if (has(HazardKind::out_of_range)) result.reasons.push_back("the table holds values outside [-1, 1]");
  if (m.mismatches > 0) {
    result.reasons.push_back((m.mismatches == 1 ? std::string("1 entry is a typed mismatch")
                                                : std::to_string(m.mismatches) + " entries are typed mismatches") +
                             " (NaN, infinity or signed zero)");
  }
  if (table.ulp_criterion && m.max_ulp > m.budget_ulp) {
    if (!m.abs_bound) {
      result.reasons.push_back("max " + significant(m.max_ulp, 4) + " ULP exceeds the budget of " + significant(m.budget_ulp, 4) +
                               " ULP");
    } else if (m.abs_bound->beyond_bound > 0) {
      const accuracy::WorstInput& w = m.abs_bound->worst;
      const std::int64_t count = m.abs_bound->beyond_bound;
      result.reasons.push_back(std::to_string(count) + (count == 1 ? " entry " : " entries ") +
                               percent_text(count, m.entries) + (count == 1 ? " exceeds" : " exceed") +
                               " both the budget of " + significant(m.budget_ulp, 4) + " ULP and " + m.abs_bound->name +
                               " (largest |error| / bound " + significant(m.abs_bound->worst_ratio, 4) + " at row " +
                               std::to_string(w.row) + ", column " + std::to_string(w.column) + ")");
    }
  }
  if (table.max_abs_error_budget && m.max_abs_error > *table.max_abs_error_budget) {
    result.reasons.push_back("max abs error " + significant(m.max_abs_error, 4) + " exceeds the budget of " +
                             significant(*table.max_abs_error_budget, 4));
  }
  result.verdict = result.reasons.empty() ? ValidationVerdict::conforms : ValidationVerdict::deviates;
  if (result.verdict == ValidationVerdict::deviates && table.rival && !mismatched) {
    // It deviates at the offset chosen, and another fits about as well: the
    // verdict stands only if the table deviates there too.
    const std::string rival = "row offset " + std::to_string(table.rival->row_offset) +
                              ", which fits the table about as well as " + std::to_string(table.detection.row_offset) +
                              ",";
    if (accuracy::within_budget(table.rival->measurement)) {
      result.verdict = ValidationVerdict::unknown;
      result.reasons.push_back("at " + rival + " every entry is within the budget: give --offset");
    } else if (table.detection.offset_within_rounding) {
      // Both fit within the table's rounding, and so may others, where it may conform.
      result.verdict = ValidationVerdict::unknown;
      result.reasons.push_back("at " + rival +
                               " it deviates too, but the table fits other offsets within its "
                               "rounding as well, where it may not: give --offset");
    } else {
      result.reasons.push_back("at " + rival + " it deviates too (max " + significant(table.rival->measurement.max_ulp, 4) +
                               " ULP, max abs error " + significant(table.rival->measurement.max_abs_error, 4) + ")");
    }
  }
}

// The comparison (made or not: its budget is reported either way) joins the
// result, detection's notes become the validation's, and the verdict is decided.
void finish(Validation& result, accuracy::Measurement measurement) {
  TableFindings& table = result.table();
  const bool within = table.compared && accuracy::within_budget(measurement);
  const std::int64_t beyond = accuracy::failing_entries(measurement);
  result.comparisons.push_back({"the exact encoding", std::move(measurement), table.compared ? beyond : 0, within});
  result.notes = std::move(table.detection.notes);
  table.detection.notes.clear();
  decide(result);
}

}  // namespace

Validation validate_table(const Table& stored, const ValidationOptions& options) {
  check_shape(stored);
  if (options.row_offset && (*options.row_offset < 0 || *options.row_offset > max_exact_position - stored.rows)) {
    throw ConventionError("--offset " + std::to_string(*options.row_offset) + " with " + std::to_string(stored.rows) +
                          " rows puts a row at or past position 2^24 = " + std::to_string(max_exact_position) +
                          " (expected an offset in [0, " + std::to_string(max_exact_position - stored.rows) + "])");
  }
  // A NaN budget would compare false against every error and pass any table.
  for (const auto& [flag, budget] :
       {std::pair{"--max-ulp", options.max_ulp}, {"--max-abs-error", options.max_abs_error}}) {
    if (budget && !(std::isfinite(*budget) && *budget >= 0.0)) {
      throw ConventionError(std::string(flag) + " " + round_trip(*budget) + ": expected a finite number >= 0");
    }
  }
  Validation result;
  result.kind = SubjectKind::table;
  TableFindings& findings = result.findings.emplace<TableFindings>();
  findings.rows = stored.rows;
  findings.dim = stored.cols;
  findings.stored_format = stored.format;
  accuracy::Measurement measurement;
  // The precision the values carry, whatever they are compared as: the
  // tolerances of detection and of the fault diagnoses follow it.
  const FormatChoice values = narrowest_format(stored);
  const FormatId compared = options.compare_as.value_or(values.format);
  if (options.convention) {
    if (const auto problem = width_problem(*options.convention, stored.cols)) {
      throw ConventionError("--convention " + options.convention->name + ": " + *problem +
                            what_it_is(stored, values.format));
    }
  }
  if (options.compare_as) {
    if (const auto problem = not_representable(stored, *options.compare_as)) {
      throw ValidationInputError("--dtype " + std::string(format_of(*options.compare_as).name) + ": " + *problem +
                                 " (expected values of that format)");
    }
    if (format_of(values.format).precision < format_of(compared).precision) {
      findings.format_note = "every value is a " + std::string(format_of(values.format).name) + " value: compared as " +
                           std::string(format_of(compared).name) + " as --dtype asks, so " +
                           std::string(format_of(values.format).name) +
                           "'s own rounding counts as error (the convention is detected with " +
                           std::string(format_of(values.format).name) + "'s tolerances)";
    }
  } else {
    findings.format_note = values.note;
  }
  // Compared in the format's own storage: the file's table itself when it is
  // stored so (no copy), else its values converted (exactly: checked above, or
  // found by narrowest_format), which is at most the file's size again.
  std::optional<Table> converted;
  if (compared != stored.format) converted = convert_table(stored, compared);
  const Table& table = converted ? *converted : stored;
  findings.compared_format = table.format;
  // A comparison of every entry reads every value, and says whether all are
  // in [-1, 1]: the pass of the value hazards over the table then runs only
  // when some are not (or when no comparison runs), and its hazards go first
  // all the same.
  const bool every_row = options.sample_rows <= 0 || options.sample_rows >= table.rows;
  if (!every_row) result.hazards = value_hazards(table);
  const auto add_value_hazards = [&](bool values_in_unit_interval) {
    if (!every_row || values_in_unit_interval) return;
    const std::vector<Hazard> found = value_hazards(table);
    result.hazards.insert(result.hazards.begin(), found.begin(), found.end());
  };

  DetectionOptions detection_options{options.convention, options.row_offset, std::nullopt};
  if (options.convention && options.convention->span != PositionSpan::fixed) {
    // A relative preset's positions follow the length: the table is rows
    // [K, K + N) of its table of N + K rows, K = --offset or 0.
    const std::int64_t offset = options.row_offset.value_or(0);
    detection_options.convention = for_rows(*options.convention, stored.rows + offset);
    detection_options.row_offset = offset;
  }
  if (format_of(values.format).precision < format_of(table.format).precision)
    detection_options.value_format = values.format;
  const FormatId value_format = detection_options.value_format.value_or(table.format);
  TableReadings readings(table, detection_options);
  findings.detection = readings.given();
  const Detection& detection = findings.detection;
  // A given convention or offset that does not fit: what the table is
  // instead. Finding out runs detection again with nothing given; when every
  // entry is compared at the given reading anyway, that waits for the
  // comparison, whose errors may rule a mismatch out (mismatch_ruled_out).
  const bool defer_mismatch = every_row && detection.sinusoidal && detection.convention.has_value();
  std::optional<ConventionMismatch> mismatch;
  if (!defer_mismatch) mismatch = convention_mismatch(table, readings);
  if (mismatch) {
    result.hazards.push_back(mismatch->hazard);
    result.reasons.push_back(mismatch->reason);
  } else if (!detection.sinusoidal) {
    if (const std::optional<ScaledEncoding> scaled = scaled_encoding(table, detection_options)) {
      result.hazards.push_back(scaled->hazard);
      result.reasons.push_back(scaled->reason);
    } else if (const std::optional<Drift> drift = drift_from_encoding(table, readings)) {
      result.hazards.push_back(drift->hazard);
      result.reasons.push_back(drift->reason);
    } else {
      const std::string hint = additive_table_hint(table);
      result.hazards.push_back({HazardKind::not_sinusoidal,
                                (detection.notes.empty() ? std::string("no column pairing has sin^2 + cos^2 = 1")
                                                         : detection.notes.back()) +
                                    (hint.empty() ? "" : "; " + hint)});
    }
  }
  const accuracy::UlpBudget& budget = accuracy::ulp_budget(accuracy::BudgetKind::third_party, table.format);
  findings.max_abs_error_budget = options.max_abs_error;
  findings.ulp_criterion = options.max_ulp || !options.max_abs_error;
  const bool close = options.atol.has_value() || options.rtol.has_value();
  findings.angle_allowance = findings.ulp_criterion && !options.ulp_only && !close;
  // With --atol/--rtol, an entry passes by assert_close's bound (or within
  // --max-ulp when given): the ULP budget then admits only exact entries.
  measurement.budget_ulp = options.max_ulp.value_or(close ? 0.0 : budget.max_ulp);
  measurement.budget_source = options.max_ulp ? "--max-ulp"
                              : close         ? "--atol/--rtol alone: exact entries, or the assert_close bound"
                                              : "pecheck's third-party budget: " + std::string(budget.source);
  // An ambiguous offset is settled all the same (the smallest that fits):
  // the table is a slice of the convention at it, and the text says so.
  const bool settled = detection.convention.has_value();
  if (!settled || (!detection.sinusoidal && !options.convention)) {
    add_value_hazards(false);
    finish(result, std::move(measurement));
    return result;
  }

  const Convention& convention = *detection.convention;
  const std::int64_t offset = detection.row_offset;
  check_request(convention, TableRequest{table.rows, table.cols, offset});
  // Every row, zero or not: a row zeroed where the convention has values is
  // an error like any other.
  std::vector<std::int64_t> all_rows(static_cast<std::size_t>(table.rows));
  std::iota(all_rows.begin(), all_rows.end(), std::int64_t{0});
  ComparisonPlan plan{
      options.sample_rows, options.threads, options.progress,
      options.histograms ? accuracy::HistogramCounting::counted : accuracy::HistogramCounting::left_out};
  // The fast scan of every row (each row's largest error against pecheck's
  // float64 rows) serves two ends: the worst rows lead a sampled comparison,
  // and the fault diagnoses below read it. A comparison of every entry needs
  // no leads, so the scan runs only when a sample is drawn or a deviation is
  // there to explain: a conforming table is then read once, by the comparison.
  const bool sampled = plan.sample_rows > 0 && plan.sample_rows < table.rows;
  std::optional<RowErrors> scan;
  if (sampled) scan = scan_row_errors(table, convention, offset, all_rows);
  const std::vector<std::int64_t> rows =
      rows_to_compare(table.rows, table.cols, offset, scan ? worst_rows(*scan) : std::vector<std::int64_t>{}, plan);
  std::optional<accuracy::Float64AngleAllowance> allowance;
  if (findings.angle_allowance) allowance.emplace(convention, table.cols, table.format);
  std::optional<accuracy::CloseAllowance> close_bound;
  if (close) close_bound.emplace(options.atol.value_or(0.0), options.rtol.value_or(0.0));
  const accuracy::Allowance* judging = close_bound ? static_cast<const accuracy::Allowance*>(&*close_bound)
                                       : allowance ? &*allowance
                                                   : nullptr;
  ComparisonFacts facts;
  measurement = compare_with_reference(table, convention, offset, rows, measurement.budget_ulp,
                                              measurement.budget_source, judging, plan, facts);
  findings.reference_escalations = facts.escalations;
  findings.compared = true;
  findings.rows_compared = static_cast<std::int64_t>(rows.size());
  if (!accuracy::within_budget(measurement) && detection.offset_ambiguous && detection.rival_offset &&
      !options.row_offset) {
    // Another offset fits about as well: the table is compared there too, so
    // the verdict says whether it deviates at every offset that fits.
    const std::int64_t rival = *detection.rival_offset;
    ComparisonPlan quiet = plan;
    quiet.progress = nullptr;  // the progress shown is the comparison at the chosen offset
    const std::vector<std::int64_t> rival_rows = rows_to_compare(
        table.rows, table.cols, rival,
        sampled ? worst_rows(scan_row_errors(table, convention, rival, all_rows)) : std::vector<std::int64_t>{}, quiet);
    ComparisonFacts rival_facts;  // not the figures of the comparison reported
    findings.rival =
        RivalOffset{rival, compare_with_reference(table, convention, rival, rival_rows, measurement.budget_ulp,
                                                  measurement.budget_source, judging, quiet, rival_facts)};
  }
  findings.sampled = findings.rows_compared < table.rows;
  if (defer_mismatch &&
      !(measurement.mismatches == 0 && mismatch_ruled_out(measurement.max_abs_error, value_format))) {
    // Nothing has been added since the value hazards (or they are to come
    // first): the order is as if it ran first.
    mismatch = convention_mismatch(table, readings);
    if (mismatch) {
      result.hazards.push_back(mismatch->hazard);
      result.reasons.push_back(mismatch->reason);
    }
  }

  // Against the wrong convention or offset every row is wrong: the faults of
  // positions and angles would be read into the mismatch's errors.
  if (!accuracy::within_budget(measurement) && detection.sinusoidal && !mismatch) {
    if (!scan) scan = scan_row_errors(table, convention, offset, all_rows);
    // An entry may be off by the ULP budget at the value's own binade; near 1
    // that is budget * 2^(1-p) in absolute terms, the most a row may differ
    // (p of the values' own format: compared as a wider one, its rounding is
    // no fault of positions or angles).
    // An estimated table (options.estimate_abs_error) may be off by more
    // than that without any fault: its error floor is the tolerance then.
    const double tolerance =
        std::max(std::max(measurement.budget_ulp, 1.0) * std::ldexp(1.0, 1 - format_of(value_format).precision),
                 options.estimate_abs_error.value_or(0.0));
    if (auto hazard = position_precision(table, convention, detection, *scan, tolerance)) {
      result.hazards.push_back(*hazard);
    }
    if (allowance) {
      // Float64 angles are no fault: a row within the float64-angle bound is
      // no evidence of angles computed in a low precision.
      for (std::size_t k = 0; k < scan->rows.size(); ++k) {
        if (scan->errors[k] <= allowance->largest_bound(scan->rows[k] + offset)) scan->errors[k] = 0.0;
      }
    }
    if (auto hazard = angle_precision(*scan, largest_frequency(convention, table.cols), tolerance)) {
      result.hazards.push_back(*hazard);
    } else if (auto hidden = angle_precision_through_rounding(table, convention, *scan, value_format)) {
      // Each row's largest error is the values' own rounding: the angles show entry by entry.
      result.hazards.push_back(*hidden);
    }
  }
  add_value_hazards(facts.values_in_unit_interval);
  finish(result, std::move(measurement));
  return result;
}

}  // namespace pecheck::validate
