// The training ablation: every configuration of the input layer trained on
// each task, with post-LN and pre-LN, over several seeds, at equal width and
// layer parameters. Run once per (subject, seed, plan) and shared by the
// family's checks.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "pecheck/subject.hpp"
#include "pecheck/training/run.hpp"

namespace pecheck::training {

// The configurations compared, in the report's order: the paper's first.
const std::vector<Configuration>& configurations();
const Configuration& configuration(const std::string& id);

// How much to train. standard_plan() fits `pecheck report --training` in
// under 10 minutes on 2 cores; tiny_plan() is for tests (a few steps).
struct Plan {
  Sizes sizes;
  int seeds = 5;
  std::vector<Task> tasks = {Task::reverse, Task::sort};
  std::vector<Norm> norms = {Norm::post_ln, Norm::pre_ln};
  std::vector<std::string> configurations;  // ids; empty: every configuration
  // The step at which configurations are compared: early enough that the
  // fast ones have not all reached 100% (the curves' steep part).
  int compare_step = 100;
};
Plan standard_plan();
Plan tiny_plan();

std::string_view to_string(Task task);
std::string_view to_string(Norm norm);
// "reverse/post-ln/paper": what statistic keys carry in StatisticKey::run.
std::string run_name(Task task, Norm norm, const std::string& configuration);

// One configuration's runs on one task and norm, a run per seed.
struct Cell {
  Task task;
  Norm norm;
  std::string configuration;
  std::vector<RunResult> runs;
};

struct Experiment {
  Plan plan;
  std::uint64_t seed = 0;
  std::vector<Cell> cells;
  double seconds = 0.0;  // wall time of the whole grid
  const Cell* find(Task task, Norm norm, const std::string& configuration) const;
};

// Called after each run finishes: a line for stderr.
using TrainingProgress = std::function<void(const std::string& line)>;
void set_training_progress(TrainingProgress progress);

// The seed of run k of a grid seeded by `seed` (independent of the configuration,
// so every configuration sees the same data streams).
std::uint64_t run_seed(std::uint64_t seed, int k);

// The RunSpec of one run: the subject supplies the sinusoidal table, and the
// token table's multiplier is measured from its embedding operation
// (token_multiplier.hpp) asked for its embedding scale, so a fault of the
// operation changes what is trained. Throws SubjectError when the operation
// is not a multiplication by one number.
RunSpec make_spec(const Subject& subject, Task task, Norm norm, const Configuration& configuration, const Sizes& sizes,
                  std::uint64_t seed);

// Runs the grid on `threads` threads (each run on one), or returns the
// grid already run for the same subject name, seed and plan.
const Experiment& run_experiment(const Subject& subject, std::uint64_t seed, const Plan& plan);

}  // namespace pecheck::training
