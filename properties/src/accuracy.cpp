#include "pecheck/properties/accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "check_support.hpp"
#include "pecheck/ulp.hpp"

namespace pecheck::properties {

namespace {

AbsoluteBoundCheck empty_check(std::string name, std::string source) {
  AbsoluteBoundCheck check;
  check.name = std::move(name);
  check.source = std::move(source);
  return check;
}

std::string number_text(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", x);
  return buffer;
}

}  // namespace

// Bin edges in ULP: fine below 1/2 (where correctly rounded values live),
// one bin for the fast path's 0.5 + 2^-20, then octaves.
std::vector<double> ulp_histogram_edges() {
  return {0.0625, 0.125, 0.25, 0.375, 0.5, 0.5 + 0x1.0p-20, 0.75, 1.0, 2.0, 4.0, 16.0, 256.0, 65536.0,
          std::numeric_limits<double>::infinity()};
}

void count_in_histogram(Histogram& histogram, double ulps) {
  const auto bin = std::lower_bound(histogram.upper_edges.begin(), histogram.upper_edges.end(), ulps);
  const auto index = static_cast<std::size_t>(std::min<std::ptrdiff_t>(
      bin - histogram.upper_edges.begin(), static_cast<std::ptrdiff_t>(histogram.upper_edges.size()) - 1));
  ++histogram.counts[index];
}

AbsoluteBoundCheck float64_angle_bound_check() {
  return empty_check("the float64-angle bound", std::string(float64_angle_allowance_source));
}

WorstInput worst_input(const Convention& convention, std::int64_t row, std::int64_t column, double value,
                       DoubleDouble exact, const Format& format) {
  WorstInput input;
  input.row = row;
  input.position = position_of_row(convention, row);
  input.column = column;
  input.value = value;
  input.value_hex = hex_bits(value, format);
  input.exact = exact;
  input.exact_text = support::decimal_text(exact, 21);
  input.abs_error = absolute_error(value, exact);
  input.ulps = ulp_error(value, exact, format).ulps;
  return input;
}

std::string abs_bound_text(const AbsoluteBoundCheck& check) {
  std::string text = std::to_string(check.beyond_ulp) + (check.beyond_ulp == 1 ? " entry" : " entries") +
                     " beyond the ULP budget, ";
  text += check.beyond_bound == 0 ? "all within " + check.name
                                  : std::to_string(check.beyond_bound) + " of them beyond " + check.name + " too";
  const WorstInput& w = check.worst;
  text += " (largest |error| / bound " + number_text(check.worst_ratio) + " at row " + std::to_string(w.row) +
          " (position " + std::to_string(w.position) + "), column " + std::to_string(w.column) + ": " + w.value_hex +
          " against exact " + w.exact_text + ", " + number_text(check.worst_ulp) + " ULP, abs error " +
          number_text(w.abs_error) + ", bound " + number_text(check.worst_bound) + ")";
  return text;
}

Measurement measure_accuracy(const TableView& computed, const std::vector<DoubleDouble>& exact, const Convention& convention,
                             const TableRequest& request, double budget_ulp, std::string budget_source,
                             const Float64AngleAllowance* allowance) {
  const auto entries = static_cast<std::size_t>(computed.rows() * computed.cols());
  if (entries != exact.size()) {
    throw std::invalid_argument("measure_accuracy: the table has " + std::to_string(entries) +
                                " entries but " + std::to_string(exact.size()) + " exact values were given");
  }
  const Format& format = format_of(computed.format());
  Measurement m;
  m.format = computed.format();
  m.budget_ulp = budget_ulp;
  m.budget_source = std::move(budget_source);
  m.ulp_histogram.upper_edges = ulp_histogram_edges();
  m.ulp_histogram.counts.assign(m.ulp_histogram.upper_edges.size(), 0);
  if (allowance != nullptr) {
    m.abs_bound = float64_angle_bound_check();
  }
  double sum_squares = 0.0;
  std::int64_t worst_index = -1;
  std::int64_t worst_bound_index = -1;
  std::int64_t nearest_zero_index = -1;
  double nearest_zero_magnitude = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < exact.size(); ++k) {
    const auto index = static_cast<std::int64_t>(k);
    const double value = computed.at(index / computed.cols(), index % computed.cols());
    const UlpError error = ulp_error(value, exact[k], format);
    const double abs_error = absolute_error(value, exact[k]);
    ++m.entries;
    m.max_abs_error = std::max(m.max_abs_error, abs_error);
    if (error.mismatch != Mismatch::none) {
      ++m.mismatches;
      continue;
    }
    sum_squares += error.ulps * error.ulps;
    count_in_histogram(m.ulp_histogram, error.ulps);
    if (worst_index < 0 || error.ulps > m.max_ulp) {
      m.max_ulp = error.ulps;
      worst_index = index;
    }
    // Exact zeros (sin 0, zero columns) are stored exactly or are mismatches:
    // the nearest case to a zero is the smallest nonzero magnitude.
    const double magnitude = std::fabs(exact[k].hi);
    if (magnitude > 0.0 && magnitude < nearest_zero_magnitude) {
      nearest_zero_magnitude = magnitude;
      nearest_zero_index = index;
    }
    if (allowance != nullptr && error.ulps > budget_ulp) {
      const double bound = allowance->bound(request.row_offset + index / computed.cols(), index % computed.cols(), exact[k]);
      // A bound of 0 (an entry computed exactly) admits nothing but the exact value.
      const double ratio = bound > 0.0 ? abs_error / bound : std::numeric_limits<double>::infinity();
      AbsoluteBoundCheck& check = *m.abs_bound;
      ++check.beyond_ulp;
      if (!(abs_error <= bound)) ++check.beyond_bound;
      if (worst_bound_index < 0 || ratio > check.worst_ratio) {
        check.worst_ratio = ratio;
        check.worst_ulp = error.ulps;
        check.worst_bound = bound;
        worst_bound_index = index;
      }
    }
  }
  const std::int64_t measured = m.entries - m.mismatches;
  m.rms_ulp = measured > 0 ? std::sqrt(sum_squares / static_cast<double>(measured)) : 0.0;
  const auto input_at = [&](std::int64_t index) {
    return worst_input(convention, request.row_offset + index / computed.cols(), index % computed.cols(),
                       computed.at(index / computed.cols(), index % computed.cols()),
                       exact[static_cast<std::size_t>(index)], format);
  };
  if (worst_index >= 0 && computed.cols() > 0) m.worst = input_at(worst_index);
  if (nearest_zero_index >= 0) m.nearest_zero = input_at(nearest_zero_index);
  if (worst_bound_index >= 0) m.abs_bound->worst = input_at(worst_bound_index);
  return m;
}

void merge_measurement(Measurement& total, const Measurement& part) {
  if (total.entries == 0) {
    total = part;
    return;
  }
  const auto measured = [](const Measurement& m) { return static_cast<double>(m.entries - m.mismatches); };
  const double squares = total.rms_ulp * total.rms_ulp * measured(total) + part.rms_ulp * part.rms_ulp * measured(part);
  // A part with measured entries is worse when its max is larger, or when the
  // total has none measured yet (only typed mismatches): its worst is real.
  const bool part_is_worse = measured(part) > 0 && (measured(total) == 0 || part.max_ulp > total.max_ulp);
  if (part_is_worse) {
    total.max_ulp = part.max_ulp;
    total.worst = part.worst;
  }
  if (part.abs_bound) {
    if (!total.abs_bound) total.abs_bound = empty_check(part.abs_bound->name, part.abs_bound->source);
    AbsoluteBoundCheck& sum = *total.abs_bound;
    const AbsoluteBoundCheck& add = *part.abs_bound;
    if (add.beyond_ulp > 0 && (sum.beyond_ulp == 0 || add.worst_ratio > sum.worst_ratio)) {
      sum.worst_ratio = add.worst_ratio;
      sum.worst = add.worst;
      sum.worst_ulp = add.worst_ulp;
      sum.worst_bound = add.worst_bound;
    }
    sum.beyond_ulp += add.beyond_ulp;
    sum.beyond_bound += add.beyond_bound;
  }
  if (part.nearest_zero &&
      (!total.nearest_zero || std::fabs(part.nearest_zero->exact.hi) < std::fabs(total.nearest_zero->exact.hi))) {
    total.nearest_zero = part.nearest_zero;
  }
  total.entries += part.entries;
  total.mismatches += part.mismatches;
  total.reference_escalations += part.reference_escalations;
  total.max_abs_error = std::max(total.max_abs_error, part.max_abs_error);
  total.rms_ulp = measured(total) > 0 ? std::sqrt(squares / measured(total)) : 0.0;
  for (std::size_t k = 0; k < total.ulp_histogram.counts.size() && k < part.ulp_histogram.counts.size(); ++k) {
    total.ulp_histogram.counts[k] += part.ulp_histogram.counts[k];
  }
}

bool within_budget(const Measurement& measurement) {
  if (measurement.mismatches != 0) return false;
  if (measurement.max_ulp <= measurement.budget_ulp) return true;
  return measurement.abs_bound && measurement.abs_bound->beyond_bound == 0;
}

std::string summary(const Measurement& m) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer,
                "%s: max %.4g ULP (budget %.6g), RMS %.3g ULP, max abs error %.3g, %lld entries, %lld typed mismatches",
                std::string(format_of(m.format).name).c_str(), m.max_ulp, m.budget_ulp, m.rms_ulp, m.max_abs_error,
                static_cast<long long>(m.entries), static_cast<long long>(m.mismatches));
  std::string text = buffer;
  if (m.entries > m.mismatches) {
    text += "; worst at row " + std::to_string(m.worst.row) + " (position " + std::to_string(m.worst.position) +
            "), column " + std::to_string(m.worst.column) + ": " + m.worst.value_hex + " against exact " +
            m.worst.exact_text + ", abs error " + number_text(m.worst.abs_error);
  }
  if (m.abs_bound && m.abs_bound->beyond_ulp > 0) text += "; " + abs_bound_text(*m.abs_bound);
  return text;
}

std::vector<TableRequest> sweep_blocks(std::int64_t dim, std::int64_t rows_per_block, bool full) {
  rows_per_block = std::clamp<std::int64_t>(rows_per_block, 1, max_exact_position / 4);
  std::vector<std::int64_t> starts = {0};
  // Blocks straddling 2^k: where the angle p w crosses into a new binade and
  // a float32 position would start to lose its last bits.
  const int step = full ? 1 : 2;
  for (int k = full ? 1 : 3; k < 24; k += step) {
    const std::int64_t power = std::int64_t{1} << k;
    starts.push_back(power - rows_per_block / 2);
    if (full && k >= 2) starts.push_back(power + power / 2 - rows_per_block / 2);  // between two powers
  }
  starts.push_back(max_exact_position - rows_per_block);  // the last rows below 2^24
  std::sort(starts.begin(), starts.end());
  std::vector<TableRequest> blocks;
  std::int64_t covered = 0;  // rows below this are already in a block
  for (std::int64_t start : starts) {
    start = std::max(start, covered);  // blocks never overlap
    if (start + rows_per_block > max_exact_position) continue;
    blocks.push_back(TableRequest{rows_per_block, dim, start});
    covered = start + rows_per_block;
  }
  return blocks;
}

}  // namespace pecheck::properties
