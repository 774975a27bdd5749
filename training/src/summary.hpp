// What a configuration's runs over seeds say: a mean with its spread, and
// Welch's test between two configurations (unequal variances, few seeds).
#pragma once

#include <cstdint>
#include <vector>

#include "pecheck/training/experiment.hpp"

namespace pecheck::training {

struct Summary {
  double mean = 0.0;
  double standard_deviation = 0.0;  // sample (n - 1)
  std::int64_t count = 0;
};
Summary summarise(const std::vector<double>& values);

struct Welch {
  double difference = 0.0;  // mean of a minus mean of b
  double t = 0.0;
  double degrees_of_freedom = 0.0;
  double p = 1.0;  // two-sided
};
// Two samples with zero variance each: p = 0 when their means differ, 1 when equal.
Welch welch_test(const std::vector<double>& a, const std::vector<double>& b);

// Per run: accuracy at `step` (the measured point at or after it), the last
// accuracy, the first step at 90% or more (the last step when never reached),
// the last loss.
std::vector<double> accuracies_at(const Cell& cell, int step);
std::vector<double> final_accuracies(const Cell& cell);
std::vector<double> steps_to(const Cell& cell, double level);
std::vector<double> final_losses(const Cell& cell);
// How many runs of the cell never reached `level`.
int never_reached(const Cell& cell, double level);

}  // namespace pecheck::training
