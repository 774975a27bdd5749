#include "pecheck/validate/detection.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <sstream>
#include <thread>

#include "candidate_choice.hpp"
#include "column_pairs.hpp"
#include "encoding_rows.hpp"
#include "frequency_fit.hpp"
#include "pecheck/parallel_for.hpp"
#include "position_search.hpp"
#include "position_steps.hpp"
#include "preset_match.hpp"
#include "table_rows.hpp"
#include "table_width.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::validate {

namespace {

// Rows for pairing and offset scoring, rows for choosing among candidates,
// and the longest stretch of successive rows read for frequencies: enough to
// decide, few enough to keep detection within milliseconds on any table.
constexpr std::size_t pairing_rows = 2048;
// The rows the offset search compares with the encoding: its largest
// difference at the offset it finds is a candidate's error (see `usable`).
constexpr std::size_t scoring_rows = likelihood_rows;
constexpr std::size_t frequency_rows = 2048;
// Below this fraction of sin^2 + cos^2 = 1 entries no pairing is an encoding.
constexpr double sinusoidal_fraction = 0.5;

std::string percent(double fraction) {
  std::ostringstream out;
  out.precision(3);
  out << 100.0 * fraction << "%";
  return out.str();
}

std::vector<std::int64_t> zero_columns(const Table& table, const std::vector<std::int64_t>& rows) {
  std::vector<std::int64_t> columns;
  for (std::int64_t c = 0; c < table.cols; ++c) {
    if (std::all_of(rows.begin(), rows.end(), [&](std::int64_t r) { return table.at(r, c) == 0.0; }))
      columns.push_back(c);
  }
  return columns;
}

// At the rounded positions when the rows step as positions held in `held`.
double candidate_error(const Table& table, const Convention& convention, std::int64_t row_offset,
                       const std::vector<std::int64_t>& rows, std::optional<FormatId> held) {
  return max_abs_difference(table, rows, convention, held_convention_rows(rows, row_offset, convention, held));
}

// The steps fit for a convention's position offset: P0 ranges over the
// positions of row 0 that keep every row in (-2^24, 2^24).
std::optional<PositionSteps> steps_for(const SuccessiveRows& successive, const Table& table,
                                       const Convention& convention) {
  const std::int64_t shift = convention.position_offset;
  return fit_position_steps(successive, std::max<std::int64_t>(shift, 1 - max_exact_position),
                            max_exact_position - table.rows);
}

// After the offset is settled: the steps count only when they allow it (the
// steps are fitted to positions that run up: a given convention whose
// positions run down is compared at its exact positions).
void record_steps(Detection& detection, const SuccessiveRows& successive, const std::optional<PositionSteps>& steps,
                  const Convention& convention) {
  detection.identical_pairs = successive.identical_pairs;
  detection.first_identical = successive.first_identical;
  const std::int64_t p0 = position_of_row(convention, detection.row_offset);
  if (steps && convention.position_step == 1 &&
      std::binary_search(steps->first_positions.begin(), steps->first_positions.end(), p0)) {
    detection.positions_held_in = steps->format;
    detection.notes.push_back(std::to_string(steps->identical_pairs) +
                              " pairs of successive rows are identical, in the steps of positions rounded to " +
                              std::string(format_of(steps->format).name) + ": the row offset is one those steps allow");
  }
}

void record_offset(Detection& detection, const OffsetFit& fit) {
  detection.row_offset = fit.row_offset;
  detection.offset_ambiguous = fit.ambiguous;
  detection.rival_offset = fit.ambiguous ? fit.rival : std::nullopt;
  detection.offset_within_rounding = fit.ambiguous && fit.within_rounding;
}

void name_the_convention(Detection& detection, const Table& table, Convention found) {
  const std::vector<Convention> matches = matching_presets(found, table.cols, detection.row_offset, table.rows);
  if (matches.empty()) {
    found.name = "custom";
    detection.convention = found;
    detection.notes.push_back("no preset matches: " + describe(found));
    return;
  }
  detection.preset = matches.front().name;
  detection.convention = matches.front();
  for (std::size_t k = 1; k < matches.size(); ++k) detection.also_matches.push_back(matches[k].name);
}

Detection with_given_convention(const Table& table, const Convention& convention, const DetectionOptions& options,
                                const RowSplit& split, const SuccessiveRows& successive, Detection detection) {
  const FormatId format = options.value_format.value_or(table.format);
  if (const auto problem = width_problem(convention, table.cols)) throw ConventionError(*problem);
  check_dim(convention, table.cols);  // widths past max_dim
  const Structure structure = structure_of(convention, table.cols);
  const std::vector<std::int64_t> sample = spread_sample(split.live, pairing_rows);
  detection.convention = convention;
  if (find_preset(convention.name)) detection.preset = convention.name;
  detection.pair_fraction = pair_fraction(table, structure, sample, format);
  detection.sinusoidal = structure.pairs.empty() || detection.pair_fraction >= sinusoidal_fraction;
  const std::optional<PositionSteps> steps = steps_for(successive, table, convention);
  if (options.row_offset) {
    detection.row_offset = *options.row_offset;
  } else if (!detection.sinusoidal) {
    detection.notes.push_back("the row offset was not searched: the columns do not pair as " +
                              std::string(to_string(convention.layout)));
    return detection;
  } else if (const auto fit = find_row_offset(table, convention, structure, split.live, format, std::nullopt,
                                              steps ? &*steps : nullptr)) {
    record_offset(detection, *fit);
  } else {
    detection.notes.push_back("the row offset cannot be found without a sin/cos pair: give --offset");
    detection.convention.reset();  // nothing to compare with: the verdict is unknown
    return detection;
  }
  record_steps(detection, successive, steps, convention);
  detection.candidate_error = candidate_error(table, convention, detection.row_offset,
                                              spread_sample(split.live, scoring_rows), detection.positions_held_in);
  return detection;
}

// The automatic search over readings whose row 0 may hold any position from
// `lowest_position` (0, or -(2^24 - 1) for a reversed table) with positions
// running up.
Detection detect_running_up(const Table& table, const DetectionOptions& options, std::int64_t lowest_position) {
  const FormatId format = options.value_format.value_or(table.format);
  Detection detection;
  const RowSplit split = split_rows(table);
  detection.zero_rows = split.zero;
  if (split.live.empty()) {
    detection.notes.push_back("every row is zero");
    return detection;
  }
  const std::vector<std::int64_t> sample = spread_sample(split.live, pairing_rows);
  if (split.live.size() > 1) detection.zero_columns = zero_columns(table, sample);
  const SuccessiveRows successive = successive_rows(table.view());
  if (options.convention)
    return with_given_convention(table, *options.convention, options, split, successive, detection);

  const std::vector<Structure> structures = candidate_structures(table, sample, format);
  if (table.cols < 2) {
    detection.sinusoidal = true;
    detection.notes.push_back("a table of width 1 has no sin/cos pair to read: give --convention and --offset");
    return detection;
  }
  detection.pair_fraction = structures.empty() ? 0.0 : structures.front().pair_fraction;
  if (detection.pair_fraction < sinusoidal_fraction) {
    detection.notes.push_back("no layout pairs the columns: sin^2 + cos^2 is within " +
                              significant(pair_tolerance(format), 2) + " of 1 in at most " +
                              percent(detection.pair_fraction) + " of the pairs");
    return detection;
  }
  detection.sinusoidal = true;

  const std::vector<std::int64_t> run = longest_consecutive_run(split.live, frequency_rows);
  const std::vector<std::int64_t> scoring = spread_sample(split.live, scoring_rows);
  std::vector<Candidate> candidates;
  // Detected conventions start at lowest_position: one fit of the steps serves every candidate.
  Convention start;
  start.position_offset = lowest_position;
  const std::optional<PositionSteps> steps = steps_for(successive, table, start);
  const PositionSteps* pinned = steps && !steps->first_positions.empty() ? &*steps : nullptr;
  // The search's differences are those candidate_error takes (the same rows
  // and positions) unless a zero row of the table is one a held position
  // lands on, encoded as zero there only.
  const bool usable = !pinned || split.zero.empty();
  const auto place = [&](const Candidate& c, const ErrorLimit& give_up_above) {
    std::optional<Candidate> result;
    const auto offset = find_row_offset(table, c.convention, structures[c.structure_rank], split.live, format,
                                        options.row_offset, pinned, give_up_above);
    if (!offset) return result;
    result = c;
    result->offset = *offset;
    for (std::int64_t row : split.zero) result->convention.zero_rows.push_back(row + offset->row_offset);
    // The search's largest difference at the offset found is the error
    // candidate_error would take again on the same entries.
    result->error = usable ? offset->error
                           : candidate_error(table, result->convention, offset->row_offset, scoring,
                                             pinned ? std::optional<FormatId>(pinned->format) : std::nullopt);
    return result;
  };
  // Each layout's rules, most preferred first; then each is placed and
  // scored on its own (the costly part), two at a time. Every layout's
  // rules start with the same standard rule (candidate_rules), and the best
  // pairing's needs no estimate to be placed: it is placed while that
  // pairing's frequencies are estimated, on a thread the estimates would
  // otherwise share, and counts if that pairing is a candidate at all.
  std::vector<Candidate> to_try;
  std::optional<std::optional<Candidate>> placed_first;
  for (std::size_t s = 0; s < structures.size(); ++s) {
    const Structure& structure = structures[s];
    if (structure.pair_fraction < detection.pair_fraction - 0.05) continue;
    Convention shape = start;
    shape.layout = structure.layout;
    shape.odd_dim = structure.odd_dim;
    const std::int64_t frequencies = frequency_count(shape, table.cols);
    Convention standard = shape;
    standard.frequency = candidate_rules(std::nullopt, table.cols, frequencies).front();
    const std::function<void()> place_standard = [&] {
      placed_first = place(Candidate{standard, OffsetFit{}, 0.0, 0, s}, {});
    };
    const std::vector<FrequencyEstimate> estimates =
        estimate_frequencies(table, run, structure.pairs, format, s == 0 ? place_standard : std::function<void()>{});
    if (orientation(estimates) < 0) continue;  // sin and cos the other way round: its mirror layout is a candidate
    const std::vector<FrequencyRule> rules = candidate_rules(fit_ladder(estimates), table.cols, frequencies);
    for (std::size_t k = 0; k < rules.size(); ++k) {
      Convention convention = shape;
      convention.frequency = rules[k];
      to_try.push_back({convention, OffsetFit{}, 0.0, k, s});
    }
  }
  // Most preferred first: standard rules before fitted ones, then the
  // better pairing.
  std::stable_sort(to_try.begin(), to_try.end(), [](const Candidate& a, const Candidate& b) {
    return a.rule_rank != b.rule_rank ? a.rule_rank < b.rule_rank : a.structure_rank < b.structure_rank;
  });
  // A candidate that cannot be chosen (see below) is no candidate: its
  // search gives up once it is sure to end beyond the limit the candidates
  // placed so far set, and none is placed once the choice is settled. The
  // one placed beside the estimates was placed with no limit: had it given
  // up, it could not have been chosen, nor could its error have been the
  // closest, so the choice is the same.
  LowestError lowest;
  Placements placements(to_try.size(), format);
  std::size_t placed_already = 0;
  if (placed_first && !to_try.empty() && to_try.front().structure_rank == 0 && to_try.front().rule_rank == 0) {
    if (*placed_first) lowest.lower_to((*placed_first)->error);
    placements.record(0, std::move(*placed_first));
    placed_already = 1;
  }
  const ErrorLimit give_up_above = choice_limit(lowest, placements, format, usable);
  const std::vector<std::optional<Candidate>> placed =
      for_each_candidate(to_try, placed_already, placements, [&](const Candidate& c) {
        std::optional<Candidate> result = place(c, give_up_above);
        if (result) lowest.lower_to(result->error);
        return result;
      });
  for (const std::optional<Candidate>& c : placed) {
    if (c) candidates.push_back(*c);  // most preferred first, whichever thread placed it
  }
  if (candidates.empty()) {
    detection.notes.push_back("the columns pair up, but no frequency rule and row offset fit them");
    return detection;
  }
  // The most preferred candidate (standard rules first) among those as close
  // to the table as the best one, up to half its error or half an ULP of 1:
  // a fitted rule may beat the true one by the noise it was fitted to, never
  // by more than the format's rounding.
  double best_error = candidates.front().error;
  for (const Candidate& c : candidates) best_error = std::min(best_error, c.error);
  const double slack = choice_slack(best_error, format);
  const auto chosen = std::find_if(candidates.begin(), candidates.end(),
                                   [&](const Candidate& c) { return c.error <= best_error + slack; });
  record_offset(detection, chosen->offset);
  detection.candidate_error = chosen->error;
  detection.notes.push_back("columns pair as " + std::string(to_string(chosen->convention.layout)) +
                            ": sin^2 + cos^2 within " + significant(pair_tolerance(format), 2) + " of 1 in " +
                            percent(detection.pair_fraction) + " of the pairs");
  record_steps(detection, successive, steps, chosen->convention);
  detection.notes.push_back("file row 0 holds row " + std::to_string(detection.row_offset) + " of the convention " +
                            (detection.positions_held_in
                                 ? "(from the steps of the identical rows, the encoding at the rounded positions "
                                   "choosing among the offsets they allow)"
                                 : "(from the angles of the slowest to the fastest frequency)"));
  name_the_convention(detection, table, chosen->convention);
  return detection;
}

// The table's rows in reverse order: each row's stored bits copied whole
// (a copy of the table then a rounding store of every entry before: the same
// values, NaN payloads as they were).
Table reversed_rows(const Table& table) {
  Table out = make_uninitialized_table(table.rows, table.cols, table.format);
  const auto row_bytes = static_cast<std::size_t>(table.cols * storage_bytes(table.format));
  const std::span<const std::byte> from = table.bytes();
  const std::span<std::byte> to = out.mutable_bytes();
  for (std::int64_t r = 0; r < table.rows; ++r) {
    const auto source = static_cast<std::size_t>(table.rows - 1 - r) * row_bytes;
    std::memcpy(to.data() + static_cast<std::size_t>(r) * row_bytes, from.data() + source, row_bytes);
  }
  return out;
}

// A detection of the reversed table, read back on the table itself: reversed
// row j holds position P + j, so file row r holds P + (rows - 1) - r, a
// convention whose positions run down from there (row offset 0).
Detection running_down(Detection reversed, const Table& table) {
  const std::int64_t rows = table.rows;
  Convention convention = *reversed.convention;
  const std::int64_t last_position = position_of_row(convention, reversed.row_offset);  // file row rows - 1
  convention.position_offset = last_position + (rows - 1);
  convention.position_step = -1;
  std::vector<std::int64_t> zero_rows;
  for (std::int64_t row : convention.zero_rows) zero_rows.push_back(rows - 1 - (row - reversed.row_offset));
  std::sort(zero_rows.begin(), zero_rows.end());
  convention.zero_rows = zero_rows;
  Detection detection = reversed;
  detection.row_offset = 0;
  // An offset's rival is a rival first position here; the comparison at
  // the first position found stands alone.
  detection.offset_ambiguous = false;
  detection.rival_offset.reset();
  detection.offset_within_rounding = false;
  for (std::int64_t& row : detection.zero_rows) row = rows - 1 - row;
  std::sort(detection.zero_rows.begin(), detection.zero_rows.end());
  const SuccessiveRows successive = successive_rows(table.view());
  detection.identical_pairs = successive.identical_pairs;
  detection.first_identical = successive.first_identical;
  detection.notes.push_back("the rows run down: file row 0 holds position " +
                            std::to_string(convention.position_offset) + ", row r position " +
                            std::to_string(convention.position_offset) +
                            " - r (a relative encoding; found on the rows read in reverse)");
  detection.preset.reset();
  detection.also_matches.clear();
  // The reversed reading's row numbers mean nothing here: its notes on them go.
  std::erase_if(detection.notes, [](const std::string& note) {
    return note.starts_with("no preset matches") || note.starts_with("file row 0 holds row");
  });
  name_the_convention(detection, table, convention);
  return detection;
}

}  // namespace

Detection detect_convention(const Table& table, const DetectionOptions& options) {
  Detection up = detect_running_up(table, options, 0);
  if (options.convention || options.row_offset || !up.sinusoidal || table.rows < 2) return up;
  // A table at one of its offsets within the rounding of its values is read
  // as it is. Otherwise its rows may run down (a relative encoding, whose
  // angles turn the other way): those read in reverse run up, from a
  // position that may be negative. The reading closer to the table wins; a
  // mirrored layout (sin and cos swapped) fits only as it is, and a relative
  // table only reversed, since each wrong reading puts the angles a quarter
  // turn off at every frequency, which no integer position fits.
  const FormatId format = options.value_format.value_or(table.format);
  const double rounding = 2.0 * std::ldexp(1.0, -format_of(format).precision);
  if (up.convention && up.candidate_error <= rounding) return up;
  Detection down = detect_running_up(reversed_rows(table), options, 1 - max_exact_position);
  // A reversed reading off by half the range of sin somewhere is no reading:
  // a table with sin and cos swapped in every pair fits reversed at its best
  // position with differences of 1.99, while ESPnet's float32 table at
  // L = 10000 is within 4e-4 (numpy_relative_test, measured).
  constexpr double no_fit = 1.0;
  if (!down.convention || !(down.candidate_error < no_fit)) return up;
  if (up.convention && up.candidate_error <= down.candidate_error) return up;
  return running_down(std::move(down), table);
}

}  // namespace pecheck::validate
