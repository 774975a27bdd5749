// The reference table with its first working precision as a parameter, so
// tests can force escalations; reference_table() uses the default.
#pragma once

#include "entry_evaluator.hpp"
#include "pecheck/reference/reference.hpp"

namespace pecheck::reference {

ReferenceTable build_reference_table(const Convention& convention, const TableRequest& request, const Format& format,
                                     int threads, mpfr_prec_t first_precision,
                                     FirstStep first_step = FirstStep::none,
                                     ExactValues exact = ExactValues::full);

// reference_rows() with the same parameters as build_reference_table.
ReferenceCounts visit_reference_rows(const Convention& convention, const TableRequest& request, const Format& format,
                                     int threads, mpfr_prec_t first_precision, FirstStep first_step, ExactValues exact,
                                     RoundedValues rounded, const ReferenceRowVisitor& visit);

}  // namespace pecheck::reference
