// The oracle for rotary caches: every entry correctly rounded (Ziv's
// strategy, MPFR), for two targets.
//
// exact:  attention_factor * cos(p * inv_freq_i), inv_freq_i the exact real
//         of the frequency rule (rotary_frequency.hpp) from the convention's
//         derived doubles (rotary_derived()).
// model:  the computation model (ComputationModel in rotary_convention.hpp):
//         inv_freq_r (stepwise or correctly rounded in its format), p_r =
//         RN_position(p), angle = RN_angle(p_r * inv_freq_r), and the entry
//         RN_out(RN_angle(attention_factor) * cos(angle)) from the exact cos of
//         that binary angle. This is what a port of the framework's float32
//         computation must reproduce, up to its cos's own rounding.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "pecheck/double_double.hpp"
#include "pecheck/reference/reference.hpp"
#include "pecheck/rotary_cache.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::reference {

struct RotaryReferenceCache {
  RotaryCache rounded;  // correctly rounded to the request's format
  // The target's exact values, row-major: within exact_tolerance(exact,
  // format) relative (2^-100 for ExactValues::full); empty for none.
  std::vector<DoubleDouble> exact_cos;
  std::vector<DoubleDouble> exact_sin;
  std::int64_t escalations = 0;  // entries MPFR's first precision did not decide
  // Entries (cos and sin each) the cheap tiers (rotary_tiers.hpp) left to
  // MPFR, zero angles (decided there without MPFR) not counted.
  std::int64_t mpfr_entries = 0;
};

// model == nullopt: the exact encoding; otherwise the computation model's value.
// Rows are split across `threads` threads (0: hardware concurrency); results
// do not depend on the thread count. `exact` says how accurate the exact
// values must be (ExactValues::none: the rounded cache alone); the rounded
// values are the same whatever it is.
RotaryReferenceCache rotary_reference_cache(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                            const std::optional<ComputationModel>& model, int threads = 0,
                                            ExactValues exact = ExactValues::full);

// The exact values of rows of the target, handed to a visitor row by row
// instead of stored (a comparison of a whole cache keeps no copy of it).
struct RotaryReferenceRow {
  std::int64_t row = 0;                    // counted from request.first_position
  std::span<const DoubleDouble> cos, sin;  // by column, within exact_tolerance(exact, format)
  // When every exact value of the row is a plain double (the double tier
  // settled the whole row, as it does nearly every row of a float32 cache):
  // those doubles by frequency, cos's then sin's (2 x frequencies; column c
  // holds frequency rotary_column_frequency(convention, c)), and cos and sin
  // are empty. Empty otherwise. By frequency, not spread to the columns: a
  // comparison that measures each frequency's twin columns once reads them
  // as they are.
  std::span<const double> by_frequency;
};
// Called by worker w for the rows of the blocks it takes (consecutive rows,
// each block in order; a worker takes the next block when it is free, so
// which worker has which row varies from run to run); workers
// run at once (worker_count(threads, request.rows) of them).
using RotaryRowVisitor = std::function<void(int worker, const RotaryReferenceRow& row)>;
struct RotaryReferenceCounts {
  std::int64_t escalations = 0;   // as RotaryReferenceCache's
  std::int64_t mpfr_entries = 0;  // as RotaryReferenceCache's
  int workers = 1;
};
// `exact` must not be ExactValues::none.
RotaryReferenceCounts rotary_reference_rows(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                            const std::optional<ComputationModel>& model, int threads,
                                            ExactValues exact, const RotaryRowVisitor& visit);
// Several targets' rows in one pass (a comparison of a cache with the exact
// encoding and a computation model reads each row of the cache once): the
// rows as above, each row's targets' rows together in the targets' order;
// each target's rows and counts are its own rotary_reference_rows'.
using RotaryRowsVisitor = std::function<void(int worker, std::span<const RotaryReferenceRow> rows)>;
std::vector<RotaryReferenceCounts> rotary_reference_rows(const RotaryConvention& convention,
                                                         const RotaryCacheRequest& request,
                                                         std::span<const std::optional<ComputationModel>> targets,
                                                         int threads, ExactValues exact,
                                                         const RotaryRowsVisitor& visit);

// One entry: frequency index i (not a column), cos when `cosine`, else sin.
double rotary_correctly_rounded(const RotaryConvention& convention, std::int64_t position, std::int64_t frequency,
                                bool cosine, FormatId format, const std::optional<ComputationModel>& model);
DoubleDouble rotary_exact_value(const RotaryConvention& convention, std::int64_t position, std::int64_t frequency,
                                bool cosine, const std::optional<ComputationModel>& model);

// The model's inv_freq_i as rounded in its format (the same for every
// position); for tests and for diagnosing an engine's frequencies.
double rotary_model_inv_freq(const RotaryConvention& convention, std::int64_t frequency, const ComputationModel& model);

}  // namespace pecheck::reference
