#include "pecheck/reference/reference.hpp"

#include <cmath>
#include <limits>

#include "enclosure_decision.hpp"
#include "entry_evaluator.hpp"
#include "reference_kernels.hpp"
#include "table_builder.hpp"
#include "turn_constants.hpp"

namespace pecheck::reference {

void prepare_constants() { turn_constants(); }

DoubleDouble exact_value(const Convention& convention, std::int64_t dim, std::int64_t row, std::int64_t col) {
  EntryEvaluator evaluator(convention, dim);
  return evaluator.entry(row, col, EntryQuery{nullptr, true}).exact;
}

double correctly_rounded(const Convention& convention, std::int64_t dim, std::int64_t row, std::int64_t col,
                         const Format& format) {
  EntryEvaluator evaluator(convention, dim);
  return evaluator.entry(row, col, EntryQuery{&format, false}).rounded;
}

ReferenceTable reference_table(const Convention& convention, const TableRequest& request, FormatId format, int threads,
                               ExactValues exact) {
  return reference_kernels().build_table(convention, request, format_of(format), threads, default_first_precision,
                                         FirstStep::double_word, exact);
}

ReferenceCounts reference_rows(const Convention& convention, const TableRequest& request, FormatId format, int threads,
                               ExactValues exact, RoundedValues rounded, const ReferenceRowVisitor& visit) {
  return reference_kernels().visit_rows(convention, request, format_of(format), threads, default_first_precision,
                                        FirstStep::double_word, exact, rounded, visit);
}

double exact_tolerance(ExactValues exact, FormatId format) {
  switch (exact) {
    case ExactValues::full:
      return exact_relative_accuracy;
    case ExactValues::for_format:
      return std::ldexp(1.0, -(format_of(format).precision + 20));
    case ExactValues::none:
      break;
  }
  return std::numeric_limits<double>::infinity();
}

}  // namespace pecheck::reference
