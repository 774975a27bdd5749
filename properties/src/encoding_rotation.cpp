// Checks on the angles the encoding stores: a shift of position is one
// rotation per frequency pair whatever the position (relative-position), and
// the frequencies recovered from the table are the convention's geometric
// ladder (frequency-ladder).
#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

#include "check_support.hpp"
#include "encoding_checks.hpp"
#include "pecheck/properties/generators.hpp"
#include "pecheck/properties/property_runner.hpp"

namespace pecheck::properties::encoding {

namespace {

using support::fail_case;

constexpr double bound_rounding = 1.0 + 0x1.0p-40;
constexpr double two_pi = 2.0 * std::numbers::pi;

std::string case_text(const EncodingCase& c) {
  std::ostringstream out;
  showValue(c, out);
  return out.str();
}

// The largest angle between a point x on the unit circle and a measured
// m = x + e with |e| <= sqrt(2) delta (each coordinate within delta) is
// asin(sqrt(2) delta); past |e| >= 1 the angle is unbounded (pi).
double angle_error_bound(double delta) {
  const double radius = std::numbers::sqrt2 * delta;
  return radius < 1.0 ? std::asin(radius) * bound_rounding : std::numbers::pi;
}

// One row of the subject's table (table row `row`, at width c.request.dim).
std::vector<double> fetch_row(const Subject& subject, const SubjectCapabilities& capabilities, const EncodingCase& c,
                              std::int64_t row) {
  const Table table = support::fetch_table(subject, capabilities, c.convention, TableRequest{1, c.request.dim, row}, c.format);
  return table_doubles(table);
}

// The first row at or after `row` (or before, if none fits) such that row
// and row + k are both rows the convention does not zero, within [begin, end - k).
std::int64_t avoid_zero_rows(const Convention& convention, std::int64_t row, std::int64_t k, support::RowRange range) {
  const auto usable = [&](std::int64_t r) {
    return r >= range.begin && r + k < range.end && !is_zero_row(convention, r) && !is_zero_row(convention, r + k);
  };
  for (std::int64_t step = 0; step < 64; ++step) {
    if (usable(row + step)) return row + step;
    if (usable(row - step)) return row - step;
  }
  return row;
}

// A row in [begin, end - k): the first rows, the last ones, or anywhere.
rc::Gen<std::int64_t> row_for_shift(support::RowRange range, std::int64_t k) {
  const std::int64_t last = range.end - k - 1;
  return rc::gen::weightedOneOf<std::int64_t>(
      {{1, rc::gen::map(rc::gen::inRange<std::int64_t>(0, 64),
                        [=](std::int64_t j) { return std::min(range.begin + j, last); })},
       {1, rc::gen::map(rc::gen::inRange<std::int64_t>(0, 64),
                        [=](std::int64_t j) { return std::max(last - j, range.begin); })},
       {3, gen::uniform_in<std::int64_t>(range.begin, last + 1)}});
}

// A shift k in [1, span): small, a power of two, or anywhere.
rc::Gen<std::int64_t> shift_within(std::int64_t span) {
  const auto clamp = [span](std::int64_t k) { return std::clamp<std::int64_t>(k, 1, span - 1); };
  return rc::gen::weightedOneOf<std::int64_t>(
      {{2, rc::gen::map(rc::gen::inRange<std::int64_t>(1, 65), clamp)},
       {1, rc::gen::map(rc::gen::inRange(0, 24), [=](int j) { return clamp(std::int64_t{1} << j); })},
       {2, rc::gen::map(gen::uniform_in<std::int64_t>(1, std::max<std::int64_t>(span, 2)), clamp)}});
}

}  // namespace

Outcome relative_position(const Subject& subject, const RunConfig& config) {
  const SubjectCapabilities capabilities = subject.capabilities();
  double closest = 0.0;
  std::string closest_where;
  Outcome outcome = run_property(std::string(relative_position_id), config, [&] {
    EncodingCase c = *gen::case_for(capabilities, CaseLimits{4096, 1, 4096, false}).as("case");
    const support::RowRange range = support::servable_rows(capabilities, c.convention);
    if (range.end - range.begin < 2) return;  // no two rows to compare
    const std::int64_t k = *shift_within(range.end - range.begin).as("shift k");
    const std::int64_t p = avoid_zero_rows(c.convention, *row_for_shift(range, k).as("row p"), k, range);
    const std::int64_t q = avoid_zero_rows(c.convention, *row_for_shift(range, k).as("row q"), k, range);
    RC_TAG(std::string(format_of(c.format).name));
    RC_CLASSIFY(std::max(p, q) + k >= (std::int64_t{1} << 23), "rows past 2^23");
    RC_CLASSIFY(k >= 65536, "shift past 2^16");
    const std::vector<double> at_p = fetch_row(subject, capabilities, c, p);
    const std::vector<double> at_pk = fetch_row(subject, capabilities, c, p + k);
    const std::vector<double> at_q = fetch_row(subject, capabilities, c, q);
    const std::vector<double> at_qk = fetch_row(subject, capabilities, c, q + k);

    const double delta =
        support::EntryErrorBound(subject, c.convention, c.request.dim, c.format).up_to_row(std::max(p, q) + k);
    // Rotation: with theta estimated from (p, p+k), R(theta) applied to the
    // stored pair at q must land on the stored pair at q + k. Each stored
    // point is within sqrt(2) delta of the exact one, so the estimated angle
    // is within 2 asin(sqrt(2) delta) of k w, and
    //   |R(theta') m_q - m_(q+k)| <= |m_q - x_q| + |theta' - k w| + |m_(q+k) - x_(q+k)|
    //                            <= 2 sqrt(2) delta + 2 asin(sqrt(2) delta).
    // Evaluating atan2, the difference, sin, cos and the rotation in double
    // adds well under 2^-47.
    const double rotation_bound =
        (2.0 * std::numbers::sqrt2 * delta + 2.0 * angle_error_bound(delta) + 0x1.0p-47) * bound_rounding;
    // Dot products: (x + e).(y + f) - x.y = e.y + x.f + e.f per pair, at most
    // 2 sqrt(2) delta + 2 delta^2; two such sums differ by twice that per pair.
    const std::vector<FrequencyColumns> pairs = paired_frequencies(c.convention, c.request.dim);
    const double dot_bound = (2.0 * static_cast<double>(pairs.size()) *
                                  (2.0 * std::numbers::sqrt2 * delta + 2.0 * delta * delta) +
                              0x1.0p-90) *
                             bound_rounding;
    const auto where = [&](std::int64_t row) { return support::position_text(c.convention, row); };
    support::ExactSum dot_p;
    support::ExactSum dot_q;
    for (const FrequencyColumns& pair : pairs) {
      const auto sin_c = static_cast<std::size_t>(pair.sin_column);
      const auto cos_c = static_cast<std::size_t>(pair.cos_column);
      const double theta = std::atan2(at_pk[sin_c], at_pk[cos_c]) - std::atan2(at_p[sin_c], at_p[cos_c]);
      const double predicted_sin = at_q[sin_c] * std::cos(theta) + at_q[cos_c] * std::sin(theta);
      const double predicted_cos = at_q[cos_c] * std::cos(theta) - at_q[sin_c] * std::sin(theta);
      const double miss = std::hypot(predicted_sin - at_qk[sin_c], predicted_cos - at_qk[cos_c]);
      if (miss / rotation_bound > closest) {
        closest = miss / rotation_bound;
        closest_where = "frequency " + std::to_string(pair.frequency_index) + ", k = " + std::to_string(k) + ", " +
                        where(q) + " of " + case_text(c);
      }
      if (!(miss <= rotation_bound)) {
        std::ostringstream message;
        message << "frequency " << pair.frequency_index << ": the rotation from " << where(p) << " to "
                << where(p + k) << " (angle " << theta << ") moves " << where(q) << " to (" << predicted_sin << ", "
                << predicted_cos << "), but " << where(q + k) << " holds (" << at_qk[sin_c] << ", " << at_qk[cos_c]
                << "): off by " << miss << ", beyond the bound " << rotation_bound << " (" << case_text(c) << ")";
        fail_case(message.str());
      }
      dot_p.add_product(at_p[sin_c], at_pk[sin_c]);
      dot_p.add_product(at_p[cos_c], at_pk[cos_c]);
      dot_q.add_product(at_q[sin_c], at_qk[sin_c]);
      dot_q.add_product(at_q[cos_c], at_qk[cos_c]);
    }
    const double dot_gap = std::fabs(support::difference(dot_p.value(), dot_q.value()));
    if (!(dot_gap <= dot_bound)) {
      std::ostringstream message;
      message << "PE(p).PE(p+k) depends on p: k = " << k << ", " << where(p) << " gives " << dot_p.approx() << ", "
              << where(q) << " gives " << dot_q.approx() << ": they differ by " << dot_gap << ", beyond the bound "
              << dot_bound << " (" << case_text(c) << ")";
      fail_case(message.str());
    }
  });
  outcome.statistics.push_back({"largest rotation miss / bound", closest, std::nullopt, 1.0,
                                closest_where.empty() ? "" : "closest at " + closest_where,
                                key_of(Quantity::rotation_miss_ratio)});
  return outcome;
}

const CheckDefinition relative_position_check{
    .id = check_ids::relative_position,
    .family = Family::encoding_bounds,
    .short_claim = "shiftingIsARotationIndependentOfPosition",
    .claim =
        "PE(p+k) = R(k) PE(p) for a rotation R(k) of each frequency pair that does not depend on p, and "
        "PE(p).PE(p+k) depends on k alone, within bounds derived from the ULP budget (a third-party subject: or the "
        "float64-angle bound).",
    .source =
        "Vaswani et al. 2017, section 3.5 (PE(pos+k) is a linear function of PE(pos)); CONVENTIONS.md fault 2 "
        "(angles in low precision: gpt-neox issue 1003, Megatron-LM issue 535)",
    .kind = CheckKind::property,
    .catches = {faults::wrong_layout, faults::float32_angles, faults::offset_by_one, faults::bfloat16_positions,
                faults::float16_positions, faults::float16_storage, faults::corrupted_row, faults::random_init},
    .run = relative_position,
};

Outcome frequency_ladder(const Subject& subject, const RunConfig& config) {
  const SubjectCapabilities capabilities = subject.capabilities();
  double worst_relative = 0.0;
  std::string worst_where;
  Outcome outcome = run_property(std::string(frequency_ladder_id), config, [&] {
    const EncodingCase c = *gen::case_for(capabilities, CaseLimits{4096, 1, 4096, false}).as("case");
    const std::vector<FrequencyColumns> pairs = paired_frequencies(c.convention, c.request.dim);
    RC_CLASSIFY(pairs.empty(), "no frequency pair");
    if (pairs.empty()) return;
    RC_TAG(std::string(format_of(c.format).name));
    RC_TAG(std::string(to_string(c.convention.frequency.kind)));
    // Rows base + s for s = 1, 16, 256, ... and the largest power of two in
    // range. Each step multiplies the distance by at most 16, so the previous
    // estimate times the new distance is within 16 x 2 asin(sqrt(2) delta)
    // (0.36 rad for a bfloat16 budget of 1 ULP) of the true angle: well within
    // pi, which unwraps the measured angle. The last, longest step fixes the
    // frequency to (angle error) / distance. Zero rows are skipped.
    const support::RowRange range = support::servable_rows(capabilities, c.convention);
    std::int64_t base = range.begin;
    while (base < range.end && is_zero_row(c.convention, base)) ++base;
    std::vector<std::int64_t> distances;
    std::int64_t first = 1;
    while (base + first < range.end && is_zero_row(c.convention, base + first)) ++first;
    for (std::int64_t step = first; base + step < range.end; step *= 16) {
      if (!is_zero_row(c.convention, base + step)) distances.push_back(step);
    }
    std::int64_t longest_power = 1;
    while (base + 2 * longest_power < range.end) longest_power *= 2;
    if (!distances.empty() && longest_power > distances.back() && !is_zero_row(c.convention, base + longest_power)) {
      distances.push_back(longest_power);
    }
    if (distances.empty()) return;
    const std::vector<double> at_base = fetch_row(subject, capabilities, c, base);
    std::vector<std::vector<double>> at_step;
    for (std::int64_t distance : distances) at_step.push_back(fetch_row(subject, capabilities, c, base + distance));

    const double delta = support::EntryErrorBound(subject, c.convention, c.request.dim, c.format)
                             .up_to_row(base + distances.back());
    // Each measured angle is within asin(sqrt(2) delta) of the exact one (a
    // difference of two: twice that), plus atan2 and the unwrapping sum in
    // double (a few ulps of the total angle, at most 2^-49 max(1, |angle|)).
    const double angle_bound = 2.0 * angle_error_bound(delta);
    std::vector<double> recovered;
    for (const FrequencyColumns& pair : pairs) {
      const auto sin_c = static_cast<std::size_t>(pair.sin_column);
      const auto cos_c = static_cast<std::size_t>(pair.cos_column);
      const double start = std::atan2(at_base[sin_c], at_base[cos_c]);
      // The first unwrapping is around the convention's own frequency: any
      // frequency within pi of it (every rule here has w <= 2) is recovered.
      double estimate = frequency_value(c.convention, c.request.dim, pair.frequency_index);
      double total = 0.0;
      for (std::size_t j = 0; j < distances.size(); ++j) {
        const auto distance = static_cast<double>(distances[j]);
        const double measured =
            std::remainder(std::atan2(at_step[j][sin_c], at_step[j][cos_c]) - start, two_pi);
        const double predicted = distance * estimate;
        total = measured + two_pi * std::nearbyint((predicted - measured) / two_pi);
        estimate = total / distance;
      }
      recovered.push_back(estimate);
      const auto longest = static_cast<double>(distances.back());
      const double expected = frequency_value(c.convention, c.request.dim, pair.frequency_index);
      // frequency_value evaluates multiplier exp(E) / divisor with
      // E = -(k/m) ln(ratio): E carries at most (3|E| + 2) 2^-53 absolute
      // error, exp, the division and the multiplier add 3 2^-53 relative;
      // twice that is the budget for the rule.
      const FrequencyTerm term = frequency_term(c.convention, c.request.dim, pair.frequency_index);
      const double exponent = std::fabs(static_cast<double>(term.k) / static_cast<double>(term.m) *
                                        std::log(term.log_numerator / term.log_denominator));
      const double rule_bound = 2.0 * (3.0 * exponent + 5.0) * 0x1.0p-53 * expected;
      const double bound =
          ((angle_bound + 0x1.0p-49 * std::max(1.0, std::fabs(total))) / longest + rule_bound) * bound_rounding;
      const double relative = std::fabs(estimate / expected - 1.0);
      if (relative > worst_relative) {
        worst_relative = relative;
        worst_where = "frequency " + std::to_string(pair.frequency_index) + " of " + case_text(c);
      }
      if (!(std::fabs(estimate - expected) <= bound)) {
        std::ostringstream message;
        message.precision(17);
        message << "frequency " << pair.frequency_index << " (columns " << pair.sin_column << ", " << pair.cos_column
                << ") recovered from rows " << base << " and " << base + distances.back() << " is " << estimate
                << " rad per position, but the convention's " << to_string(c.convention.frequency.kind)
                << " rule gives " << expected << " (difference " << estimate - expected << ", bound " << bound
                << "; " << case_text(c) << ")";
        fail_case(message.str());
      }
    }
    for (std::size_t i = 1; i < recovered.size(); ++i) {
      if (!(recovered[i] < recovered[i - 1])) {
        std::ostringstream message;
        message.precision(17);
        message << "the ladder is not strictly decreasing: frequency " << pairs[i].frequency_index << " is "
                << recovered[i] << ", frequency " << pairs[i - 1].frequency_index << " is " << recovered[i - 1]
                << " (" << case_text(c) << ")";
        fail_case(message.str());
      }
    }
  });
  outcome.statistics.push_back({"largest |recovered / rule - 1| over every frequency", worst_relative, std::nullopt,
                                std::nullopt, worst_where.empty() ? "" : "at " + worst_where,
                                key_of(Quantity::frequency_recovery_error)});
  return outcome;
}

const CheckDefinition frequency_ladder_check{
    .id = check_ids::frequency_ladder,
    .family = Family::encoding_bounds,
    .short_claim = "frequenciesFormTheConventionsGeometricLadder",
    .claim =
        "The frequencies recovered from the table form a strictly decreasing geometric ladder that matches the "
        "convention's rule from the first frequency to the last.",
    .source =
        "Vaswani et al. 2017, section 3.5 (wavelengths in a geometric progression from 2 pi to 10000 2 pi); "
        "CONVENTIONS.md fault 3 (tensor2tensor PR 177, fairseq issue 4648)",
    .kind = CheckKind::property,
    .catches = {faults::sin_cos_swapped, faults::one_pair_swapped, faults::wrong_layout, faults::float32_angles,
                faults::timescale_rule, faults::bfloat16_positions, faults::float16_positions, faults::float16_storage,
                faults::corrupted_row, faults::random_init},
    .run = frequency_ladder,
};

}  // namespace pecheck::properties::encoding
