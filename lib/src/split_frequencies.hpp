// A plan's frequencies in turns, split for the kernel, computed once per
// process for each distinct set of frequency terms: the double-double exp and
// log cost about a microsecond per frequency, as much as filling a 500-row
// float32 table of width 1024, and a program tends to ask for the same few
// widths again and again.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "pecheck/convention.hpp"

namespace pecheck {

// f_i = f1[i] + f2[i] + f3[i] (split_for_positions), for i < frequency_count,
// then zeros up to a multiple of sincos_lanes (the kernel gives sin 0, cos 1
// for a zero frequency, and no column reads it).
struct SplitFrequencies {
  std::int64_t count = 0;
  std::int64_t padded = 0;
  std::vector<double> f1;
  std::vector<double> f2;
  std::vector<double> f3;
};

// Throws ConventionError as frequency_in_turns does; a failure is not remembered.
std::shared_ptr<const SplitFrequencies> split_frequencies(const Convention& convention, std::int64_t dim);

}  // namespace pecheck
