// The synthetic tasks' batches, drawn from a seeded generator in plain C++
// (no libtorch RNG), so the data of a run depends on its seed alone.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "pecheck/training/run.hpp"

namespace pecheck::training {

struct Batch {
  int count = 0;
  // count x 2L inputs: x_0 .. x_{L-1}, the separator, y_0 .. y_{L-2}.
  std::vector<std::int64_t> inputs;
  // count x L answers y_0 .. y_{L-1}, predicted at positions L .. 2L-1.
  std::vector<std::int64_t> answers;
};

// `count` sequences of the task, content tokens uniform in [0, vocabulary);
// the separator is token `vocabulary`.
Batch draw_batch(Task task, const Sizes& sizes, int count, std::mt19937_64& generator);

}  // namespace pecheck::training
