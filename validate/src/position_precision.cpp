// CONVENTIONS.md fault 1, integer positions held in bfloat16 or float16:
// from the steps of identical rows first (position_steps.hpp), which hold
// whatever the angles did after, then as a hypothesis on the values.
#include <cmath>
#include <sstream>

#include "faults.hpp"
#include "position_steps.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::validate {

namespace {

// The scanned rows whose position `format` cannot hold, with the position it becomes.
struct Rounded {
  std::vector<std::size_t> affected;  // indices into RowErrors
  std::vector<std::int64_t> rows;
  std::vector<std::int64_t> held;
};

Rounded rounded_rows(const RowErrors& errors, const Convention& convention, FormatId format) {
  Rounded rounded;
  for (std::size_t k = 0; k < errors.rows.size(); ++k) {
    const std::int64_t p = errors.positions[k];
    const std::int64_t held = held_position(p, format);
    if (held == p || held >= max_exact_position || held <= -max_exact_position ||
        row_of_position(convention, held) < 0) {
      continue;
    }
    rounded.affected.push_back(k);
    rounded.rows.push_back(errors.rows[k]);
    rounded.held.push_back(held);
  }
  return rounded;
}

// From here on the rows are compared at the positions they hold, so the
// angle fit sees only what the angles did.
void move_to_held_positions(RowErrors& errors, const Rounded& rounded, const std::vector<double>& at_held) {
  for (std::size_t k = 0; k < rounded.affected.size(); ++k) {
    errors.positions[rounded.affected[k]] = rounded.held[k];
    errors.errors[rounded.affected[k]] = at_held[k];
  }
}

std::string identical_words(const Detection& detection) {
  return std::to_string(detection.identical_pairs) + (detection.identical_pairs == 1 ? " pair" : " pairs") +
         " of successive rows " + (detection.identical_pairs == 1 ? "is" : "are") + " identical (the first: rows " +
         std::to_string(detection.first_identical) + " and " + std::to_string(detection.first_identical + 1) + ")";
}

std::string exact_limit_words(const Format& format) {
  return "integers past " + std::to_string(std::int64_t{1} << format.precision) + " held to " +
         std::to_string(format.precision) + " significant bits";
}

// The steps found by detection: every pair of successive rows is identical
// exactly where the format rounds their positions to one value.
Hazard from_steps(const Table& table, const Convention& convention, const Detection& detection, RowErrors& errors,
                  double tolerance) {
  const Format& format = format_of(*detection.positions_held_in);
  const Rounded rounded = rounded_rows(errors, convention, *detection.positions_held_in);
  const std::vector<double> at_held = errors_at(table, convention, rounded.rows, rounded.held);
  std::int64_t explained = 0;
  for (double e : at_held) explained += e <= tolerance;
  std::ostringstream evidence;
  evidence << identical_words(detection) << ", and successive rows are identical exactly where " << format.name
           << " rounds their positions to one value (" << exact_limit_words(format) << "), at row offset "
           << detection.row_offset << ", as a row computed from its rounded position is";
  if (!rounded.affected.empty()) {
    const std::size_t k = rounded.affected.size() / 2;  // an example from the middle of the affected rows
    evidence << "; e.g. row " << rounded.rows[k] << " (position " << errors.positions[rounded.affected[k]]
             << ") holds position " << rounded.held[k];
    if (explained * 2 >= static_cast<std::int64_t>(rounded.affected.size())) {
      evidence << " (" << explained << " of the " << rounded.affected.size()
               << " rows with a rounded position match the encoding there within " << significant(tolerance, 3) << ")";
    } else {
      evidence << " (the values themselves are off by more: see the angles)";
    }
  }
  evidence << ". Positions were held in " << format.name << " (CONVENTIONS.md fault 1).";
  move_to_held_positions(errors, rounded, at_held);
  return Hazard{HazardKind::position_precision, evidence.str()};
}

// No steps: the rows whose position a format cannot hold match the encoding
// at the rounded position within `tolerance`, and not at their own.
std::optional<Hazard> from_values(const Table& table, const Convention& convention, const Detection& detection,
                                  RowErrors& errors, double tolerance) {
  for (FormatId id : {FormatId::bfloat16, FormatId::float16}) {
    const Format& format = format_of(id);
    const Rounded rounded = rounded_rows(errors, convention, id);
    if (rounded.affected.empty()) continue;
    const std::vector<double> at_held = errors_at(table, convention, rounded.rows, rounded.held);
    std::int64_t explained = 0;
    std::size_t example = rounded.affected.size();
    for (std::size_t k = 0; k < rounded.affected.size(); ++k) {
      if (at_held[k] <= tolerance && errors.errors[rounded.affected[k]] > tolerance) {
        if (explained++ == 0) example = k;
      }
    }
    if (2 * explained < static_cast<std::int64_t>(rounded.affected.size())) continue;
    std::ostringstream evidence;
    evidence << explained << " of the " << rounded.affected.size() << (rounded.affected.size() == 1 ? " row" : " rows")
             << " whose position " << format.name << " cannot hold (" << exact_limit_words(format)
             << ") match the encoding at their position rounded to " << format.name << " and not their own: row "
             << rounded.rows[example] << " (position " << errors.positions[rounded.affected[example]]
             << ") holds position " << rounded.held[example] << " within " << significant(at_held[example], 3) << ", and is "
             << significant(errors.errors[rounded.affected[example]], 3) << " from its own";
    if (detection.identical_pairs > 0) evidence << "; " << identical_words(detection);
    evidence << ". Positions were held in " << format.name << " (CONVENTIONS.md fault 1).";
    move_to_held_positions(errors, rounded, at_held);
    return Hazard{HazardKind::position_precision, evidence.str()};
  }
  return std::nullopt;
}

}  // namespace

std::optional<Hazard> position_precision(const Table& table, const Convention& convention, const Detection& detection,
                                         RowErrors& errors, double tolerance) {
  if (detection.positions_held_in) return from_steps(table, convention, detection, errors, tolerance);
  if (auto hazard = from_values(table, convention, detection, errors, tolerance)) return hazard;
  if (detection.identical_pairs == 0) return std::nullopt;
  // Identical rows in no format's steps at this offset: positions collided
  // all the same, which a correct table never does.
  return Hazard{HazardKind::position_precision,
                identical_words(detection) +
                    ": a correct table has none, its fastest pair moving by 2 sin(1/2) ~ 0.96 from one position to "
                    "the next; their steps are not those of positions rounded to bfloat16 or float16 at row offset " +
                    std::to_string(detection.row_offset) +
                    ". Successive positions were made equal (CONVENTIONS.md fault 1)."};
}

}  // namespace pecheck::validate
