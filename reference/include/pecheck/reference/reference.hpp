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
#include <functional>
#include <span>
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

// How precise the exact values of a reference table must be. Measuring a
// table in its own format needs far less than 2^-100: its ULP errors are
// then right to 2^-20 ULP, and the oracle can decide most entries of a
// narrow format in plain double arithmetic (reference/src/double_tier.cpp).
enum class ExactValues {
  full,        // within 2^-100 relative (exact_relative_accuracy), whatever the format
  for_format,  // within 2^-(precision + 20) relative, precision that of the table's format
  none,        // not computed: `exact` stays empty, the rounded table alone
};

// The relative accuracy of the exact values of a table in `format`.
double exact_tolerance(ExactValues exact, FormatId format);

struct ReferenceTable {
  Table rounded;                    // correctly rounded to the requested format
  std::vector<DoubleDouble> exact;  // the exact values, same order (empty for ExactValues::none)
  // Entries whose rounding (or exact value) needed MPFR: neither the double
  // tier nor the double-word tier could decide it.
  std::int64_t escalations = 0;
  // Entries the double tier (formats narrower than float64) left to the
  // double-word tier: its enclosure reached a rounding boundary, or its bound
  // was too wide for the exact value asked for.
  std::int64_t double_word_fallbacks = 0;
};

// The whole table; rows are split across `threads` worker threads (0: hardware concurrency),
// with results identical to one thread.
ReferenceTable reference_table(const Convention& convention, const TableRequest& request, FormatId format,
                               int threads = 0, ExactValues exact = ExactValues::full);

// One row of a reference table as the builder computes it, before it is
// stored anywhere: what a caller that folds the table into statistics needs,
// without the table (validate's full comparison streams through these).
struct ReferenceRow {
  std::int64_t row = 0;             // the request's row, from 0 (convention row = row + request.row_offset)
  std::span<const double> rounded;  // correctly rounded to the format (as doubles, exactly); empty when skipped
  // The exact values (empty for ExactValues::none, or when plain_exact holds them).
  std::span<const DoubleDouble> exact;
  // The exact values when every one of the row is a plain double (its lo
  // zero, as the double tier gives them): half the bytes. Empty otherwise.
  std::span<const double> plain_exact;
};

struct ReferenceCounts {
  std::int64_t escalations = 0;            // as ReferenceTable::escalations
  std::int64_t double_word_fallbacks = 0;  // as ReferenceTable::double_word_fallbacks
};

// Called once per row, by worker `worker` (in [0, reference_workers(...))),
// never by two threads with the same worker index at once; rows arrive in no
// particular order across workers. The row's spans live until the call returns.
using ReferenceRowVisitor = std::function<void(int worker, const ReferenceRow& row)>;

// How many workers reference_rows() runs for `threads` (0: hardware
// concurrency) and `rows`: callers size per-worker accumulators by it.
int reference_workers(int threads, std::int64_t rows);

// Builds the oracle's process-wide constants now: the sin and cos of the
// turn's table points in MPFR, about 3 ms on one core, which the first
// table computed in a process builds otherwise, before any of its rows. A
// caller with a core to spare meanwhile (validate, while it reads its file)
// takes them off the critical path. Thread-safe; later calls cost nothing.
void prepare_constants();

// Whether reference_rows decides the rounded values. A caller that measures
// a table against the exact values alone (ULP and absolute errors) skips the
// rounding decisions: for a narrow format they are a third of the cheap
// tier's work, and an entry near a rounding boundary is no longer sent to
// the slower tiers for them. ReferenceRow::rounded is then empty, and the
// counts are of the entries whose exact values the cheap tiers left.
enum class RoundedValues { decided, skipped };

// The rows of reference_table(convention, request, format, threads, exact),
// the same values and counts, handed to `visit` one by one instead of stored.
// With RoundedValues::skipped, `exact` must not be ExactValues::none.
ReferenceCounts reference_rows(const Convention& convention, const TableRequest& request, FormatId format, int threads,
                               ExactValues exact, RoundedValues rounded, const ReferenceRowVisitor& visit);

}  // namespace pecheck::reference
