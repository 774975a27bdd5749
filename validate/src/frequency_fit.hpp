// The frequencies a table holds, read from the angles of its sin/cos pairs
// over successive rows, and the rules that could have produced them.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "column_pairs.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/format.hpp"
#include "pecheck/table.hpp"
#include "shared_tasks.hpp"

namespace pecheck::validate {

struct FrequencyEstimate {
  std::int64_t frequency_index = 0;
  double w = 0.0;      // radians per row
  double sigma = 0.0;  // its standard error
  bool reliable() const { return sigma < 0.05 * std::abs(w); }
};

// For each pair, the slope of the unwrapped angle atan2(sin, cos) (within a
// few ULP: eight_angles.hpp) against the row over `run` (consecutive rows).
// The fit starts on the first 16 rows and doubles its window while the
// residual stays below 0.1 rad, so rows whose positions were rounded (steps
// of 2, 4, 8, ...) or angles that wrap between rows stop it instead of
// biasing it. Empty when the run has fewer than 2 rows. `beside`, when
// given, runs first on one of the threads (the other starts on the
// estimates, and it joins them when `beside` is done).
std::vector<FrequencyEstimate> estimate_frequencies(const Table& table, const std::vector<std::int64_t>& run,
                                                    const std::vector<FrequencyColumns>& pairs, FormatId format,
                                                    const std::function<void()>& beside = {});

// How estimate_frequencies shares its work out. The pairs are estimated a
// group of eight at a time (detection_kernels.hpp), by whichever thread
// takes the group next; the estimates are the same whichever it is.
struct EstimateSharing {
  std::function<void()> beside;
  // 0: two threads where the machine runs two (from 64 pairs on, or with
  // `beside`); 1: the calling thread alone.
  int threads = 0;
  // When given, the groups are run by `helper` (its caller and the thread
  // helping it) instead of threads of their own; `threads` is then unused.
  SharedTasks* helper = nullptr;
};

// The table the pairs [first, first + count) of one group are read from
// (their columns are its columns), asked for by the thread about to estimate
// them: a caller that builds each group's rows there builds them on the
// threads, a group each, in memory no other group's thread writes.
using GroupTable = std::function<const Table&(std::size_t first, std::size_t count)>;

std::vector<FrequencyEstimate> estimate_frequencies(const GroupTable& group_table, const std::vector<std::int64_t>& run,
                                                    const std::vector<FrequencyColumns>& pairs, FormatId format,
                                                    const EstimateSharing& sharing);

// +1 when the reliable frequencies are positive (sin and cos where the
// structure says), -1 when they are negative (sin and cos swapped), 0 when
// none is reliable.
int orientation(const std::vector<FrequencyEstimate>& estimates);

// ln w_i = intercept + slope * i, weighted by the estimates' precision.
struct LadderFit {
  double intercept = 0.0;
  double slope = 0.0;
  double sigma_intercept = 0.0;
  double sigma_slope = 0.0;
  int points = 0;
};
std::optional<LadderFit> fit_ladder(const std::vector<FrequencyEstimate>& estimates);

// Rules to try, most preferred first: the paper's base 10000, timescales
// 1..10^4, then the fitted ladder as a paper base and as timescales, rounded
// to 1, 2 and 3 significant digits, then unrounded. `frequency_count` is n
// for the width and odd policy (the timescale rule divides by n - 1).
std::vector<FrequencyRule> candidate_rules(const std::optional<LadderFit>& fit, std::int64_t dim,
                                           std::int64_t frequency_count);

}  // namespace pecheck::validate
