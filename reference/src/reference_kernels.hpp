// The reference's entry points whose code is compiled once per
// instruction-set variant (cmake/PecheckDispatch.cmake; reference/CMakeLists.txt
// lists the sources): building a table and visiting its rows, the double
// tier and the double-word tier inside them. reference.cpp calls the selected
// variant's once per table.
#pragma once

#include <cstddef>

#include "table_builder.hpp"

namespace pecheck::reference {

struct ReferenceKernels {
  ReferenceTable (*build_table)(const Convention& convention, const TableRequest& request, const Format& format,
                                int threads, mpfr_prec_t first_precision, FirstStep first_step, ExactValues exact);
  ReferenceCounts (*visit_rows)(const Convention& convention, const TableRequest& request, const Format& format,
                                int threads, mpfr_prec_t first_precision, FirstStep first_step, ExactValues exact,
                                RoundedValues rounded, const ReferenceRowVisitor& visit);
};

// The selected variant's (pecheck/isa.hpp); variant i of isa::variants() for
// the tests that compare them.
const ReferenceKernels& reference_kernels();
const ReferenceKernels& reference_kernels(std::size_t variant);

}  // namespace pecheck::reference
