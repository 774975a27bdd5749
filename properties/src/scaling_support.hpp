// Pieces the scaling-variance and add-vs-concat checks share: which formats
// to sweep, the seed of a measurement, the subject's scaled rows, and the
// Outcome bookkeeping. Private to properties/src.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/format.hpp"
#include "pecheck/properties/check.hpp"
#include "pecheck/properties/outcome.hpp"
#include "pecheck/properties/tail_bounds.hpp"
#include "pecheck/subject.hpp"
#include "pecheck/table.hpp"

namespace pecheck::properties::scaling_support {

// The subject's formats among float32, float16 and bfloat16 (and float64 when asked), in that order.
std::vector<FormatId> formats_of(const Subject& subject, bool with_float64);

// A not-applicable Outcome when the subject offers no embedding operations.
std::optional<Outcome> require_embedding_operations(const Subject& subject);
// A not-applicable Outcome when the subject offers none of the formats a check sweeps.
std::optional<Outcome> require_formats(const Subject& subject, bool with_float64);

// The seed of a measurement: the run's seed (RC_PARAMS's when set), mixed with
// a stream number so that each table a check draws has its own.
std::uint64_t seed_of(const RunConfig& config);
std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t stream);

// A size for the run: quick (report --quick), normal, full (report --full).
std::int64_t sized(const RunConfig& config, std::int64_t quick, std::int64_t normal, std::int64_t full);

// Unit roundoff u = 2^-p (round to nearest: |round(x) - x| <= u |x| for x in
// the normal range) and the absolute error a result in the subnormal range
// can take, half the smallest subnormal.
double unit_roundoff(const Format& format);
double underflow_error(const Format& format);

// The paper's convention (the vaswani preset): the encoding the questions are about.
const Convention& paper_convention();

// The subject's round(scale * E) row by row: its add_embeddings with an
// encoding row of -0, the additive identity of IEEE arithmetic (x + -0 = x
// for every x, -0 included), so the sum adds nothing and rounds nothing.
Table scaled_rows(const Subject& subject, const Table& embeddings, double scale, FormatId format);

// x_t + PE_p for every row t of `embeddings` at the encoding row `positions[t]`.
Table sums(const Subject& subject, const Table& embeddings, const Table& encoding,
           const std::vector<std::int64_t>& positions, double scale, FormatId format);

// sum of squares / count, in double.
double mean_square(const std::vector<double>& values);

// Every statistic is filed under its typed key (statistic_key.hpp) beside its label.
Statistic statistic(StatisticKey key, std::string name, double value, std::optional<double> lower = std::nullopt,
                    std::optional<double> upper = std::nullopt, std::string note = {});

// A random statistic: the mean of independent `draws`, their sample
// standard deviation and count as its spread, the closed form beside it.
Statistic drawn(StatisticKey key, std::string name, const std::vector<double>& draws, std::optional<double> closed_form,
                std::string note = {});

// Records a statistic held to [lower, upper]; a value outside fails the outcome
// with a sentence naming the statistic, its value and the interval.
void hold_within(Outcome& outcome, StatisticKey key, std::string name, double value, Interval bounds,
                 std::string note = {});

// Marks the outcome failed and appends the reason to its message.
void fail(Outcome& outcome, const std::string& reason);

std::string format_number(double value);  // shortest round-trip-ish text, for messages

}  // namespace pecheck::properties::scaling_support
