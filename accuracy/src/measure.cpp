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
  const auto refine = [&exact_of](WorstInput& w) {
    w.exact = exact_of(w);
    w.exact_text = decimal_text(w.exact, 21);
  };
  refine(m.worst);
  if (m.abs_bound) refine(m.abs_bound->worst);
  if (m.nearest_zero) refine(*m.nearest_zero);
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
