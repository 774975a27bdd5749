#include "pecheck/accuracy/measure.hpp"

#include <span>
#include <stdexcept>

#include "pecheck/accuracy/accumulator.hpp"
#include "pecheck/accuracy/exact_text.hpp"

namespace pecheck::accuracy {

WorstInput worst_input(const ComparedEntry& entry, std::int64_t position, const Format& format) {
  WorstInput input;
  input.row = entry.key.row;
  input.position = position;
  input.column = entry.key.column;
  input.value = entry.value;
  input.value_hex = hex_bits(entry.value, format);
  input.exact = entry.exact;
  input.exact_text = decimal_text(entry.exact, 21);
  input.abs_error = absolute_error(entry.value, entry.exact);
  input.ulps = ulp_error(entry.value, entry.exact, format).ulps;
  return input;
}

void refine_worst_exact(Measurement& m, const std::function<DoubleDouble(const WorstInput&)>& exact_of) {
  if (m.entries <= m.mismatches) return;
  const Format& format = format_of(m.format);
  // The errors printed beside the exact value are taken from it again: from
  // the comparison's exact value they were good to about 13 of their 17
  // digits, and the digits printed must agree with the exact value printed.
  const auto refine = [&exact_of](WorstInput& w) {
    w.exact = exact_of(w);
    w.exact_text = decimal_text(w.exact, 21);
  };
  const auto remeasure = [&format](WorstInput& w) {
    w.abs_error = absolute_error(w.value, w.exact);
    w.ulps = ulp_error(w.value, w.exact, format).ulps;
  };
  refine(m.worst);
  remeasure(m.worst);
  // The worst entry is the one with the largest ULP error: the maximum is its error.
  m.max_ulp = m.worst.ulps;
  if (m.abs_bound) {
    AbsoluteBoundCheck& check = *m.abs_bound;
    refine(check.worst);
    if (check.beyond_ulp > 0) {  // otherwise it names no entry
      remeasure(check.worst);
      check.worst_ulp = check.worst.ulps;
      if (check.worst_bound > 0.0) check.worst_ratio = check.worst.abs_error / check.worst_bound;
    }
  }
  if (m.nearest_zero) {
    refine(*m.nearest_zero);
    remeasure(*m.nearest_zero);
  }
}

Measurement measure_accuracy(const TableView& computed, const std::vector<DoubleDouble>& exact,
                             const Convention& convention, const TableRequest& request, double budget_ulp,
                             std::string budget_source, const Allowance* allowance) {
  const auto entries = static_cast<std::size_t>(computed.rows() * computed.cols());
  if (entries != exact.size()) {
    throw std::invalid_argument("measure_accuracy: the table has " + std::to_string(entries) + " entries but " +
                                std::to_string(exact.size()) + " exact values were given");
  }
  Accumulator accumulator(computed.format(), budget_ulp, allowance);
  const auto cols = static_cast<std::size_t>(computed.cols());
  const std::span<const DoubleDouble> all(exact);
  for (std::int64_t r = 0; r < computed.rows(); ++r) {
    accumulator.add_row(computed, r, request.row_offset + r, all.subspan(static_cast<std::size_t>(r) * cols, cols));
  }
  return accumulator.measurement(convention, std::move(budget_source), 0);
}

}  // namespace pecheck::accuracy
