// The oracle: exact encoding values in Boost.Multiprecision (MPFR backend) and
// tables correctly rounded to each format by Ziv's strategy.
//
// Each value is evaluated with a rigorous error bound at some working
// precision; if the interval [v - err, v + err] does not round to a single
// value of the target format, the precision is raised and the value is
// evaluated again. The result is rounded once, from the exact value, to the
// target format: never float32 then bfloat16.
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/double_double.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/format.hpp"
#include "pecheck/table.hpp"

namespace pecheck::reference {

// The exact value of one entry to about 106 bits (|error| < 2^-100 |value|, or
// exactly zero), as the carrier for ULP measurements.
DoubleDouble exact_value(const Convention& convention, std::int64_t dim, std::int64_t row, std::int64_t col);

// The correctly rounded value of one entry in the format.
double correctly_rounded(const Convention& convention, std::int64_t dim, std::int64_t row, std::int64_t col,
                         const Format& format);

struct ReferenceTable {
  Table rounded;                    // correctly rounded to the requested format
  std::vector<DoubleDouble> exact;  // the exact values, same order
  std::int64_t escalations = 0;     // entries whose rounding needed more precision than the first try
};

// The whole table; rows are split across `threads` worker threads (0: hardware concurrency),
// with results identical to one thread.
ReferenceTable reference_table(const Convention& convention, const TableRequest& request, FormatId format,
                               int threads = 0);

}  // namespace pecheck::reference
