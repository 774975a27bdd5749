#include <gtest/gtest.h>

#include <cmath>

#include "../src/summary.hpp"
#include "../src/tasks.hpp"
#include "pecheck/subject.hpp"
#include "pecheck/training/experiment.hpp"

namespace pecheck::training {
namespace {

RunSpec tiny_spec(const std::string& configuration, std::uint64_t seed) {
  static const std::unique_ptr<Subject> subject = make_fast_subject();
  return make_spec(*subject, Task::reverse, Norm::post_ln, training::configuration(configuration), tiny_plan().sizes,
                   seed);
}

TEST(TrainingRun, theSameSeedGivesTheSameNumbers) {
  for (const char* id : {"paper", "concat", "rotary", "learned"}) {
    const RunResult a = train(tiny_spec(id, 7));
    const RunResult b = train(tiny_spec(id, 7));
    EXPECT_EQ(a.accuracy, b.accuracy) << id;
    EXPECT_EQ(a.loss, b.loss) << id;
    const RunResult c = train(tiny_spec(id, 8));
    EXPECT_NE(a.loss, c.loss) << id << ": another seed must draw another run";
  }
}

// The grid runs on several threads; each run must equal the same run alone.
TEST(TrainingRun, aRunInTheParallelGridEqualsTheRunAlone) {
  const std::unique_ptr<Subject> subject = make_fast_subject();
  Plan plan = tiny_plan();
  plan.configurations = {"paper", "nope"};
  plan.tasks = {Task::sort};
  const Experiment& grid = run_experiment(*subject, 11, plan);
  ASSERT_EQ(grid.cells.size(), 4u);
  for (const Cell& cell : grid.cells) {
    ASSERT_EQ(cell.runs.size(), 2u);
    const RunResult alone = train(
        make_spec(*subject, cell.task, cell.norm, configuration(cell.configuration), plan.sizes, run_seed(11, 1)));
    EXPECT_EQ(alone.loss, cell.runs[1].loss) << cell.configuration;
  }
}

// Equal width: adding and concatenating train the same layers; only the
// token table differs (V + 1 rows of d against d/2 columns).
TEST(TrainingRun, concatenationKeepsTheLayersParameterCount) {
  const Sizes sizes = tiny_plan().sizes;
  const std::int64_t add = train(tiny_spec("paper", 1)).parameters;
  const std::int64_t concat = train(tiny_spec("concat", 1)).parameters;
  EXPECT_EQ(add - concat, std::int64_t{sizes.vocabulary + 1} * (sizes.dim / 2));
}

TEST(TrainingTasks, answersAreTheReversedAndTheSortedInput) {
  Sizes sizes;
  sizes.length = 5;
  std::mt19937_64 generator(3);
  for (Task task : {Task::reverse, Task::sort}) {
    const Batch batch = draw_batch(task, sizes, 4, generator);
    for (int b = 0; b < batch.count; ++b) {
      std::vector<std::int64_t> x(batch.inputs.begin() + b * 10, batch.inputs.begin() + b * 10 + 5);
      std::vector<std::int64_t> y(batch.answers.begin() + b * 5, batch.answers.begin() + b * 5 + 5);
      if (task == Task::reverse) std::reverse(x.begin(), x.end());
      if (task == Task::sort) std::sort(x.begin(), x.end());
      EXPECT_EQ(x, y);
      EXPECT_EQ(batch.inputs[b * 10 + 5], sizes.vocabulary);  // the separator
      // Teacher forcing: the answer shifted by one follows the separator.
      for (int i = 0; i < 4; ++i) EXPECT_EQ(batch.inputs[b * 10 + 6 + i], y[i]);
    }
  }
}

// Welch's test against a textbook case: t and the degrees of freedom by hand.
TEST(TrainingSummary, welchsTestMatchesItsFormula) {
  const std::vector<double> a = {0.8, 0.85, 0.9, 0.75, 0.8}, b = {0.4, 0.5, 0.45, 0.42, 0.48};
  const Welch w = welch_test(a, b);
  const Summary sa = summarise(a), sb = summarise(b);
  const double va = sa.standard_deviation * sa.standard_deviation / 5,
               vb = sb.standard_deviation * sb.standard_deviation / 5;
  EXPECT_DOUBLE_EQ(w.t, (sa.mean - sb.mean) / std::sqrt(va + vb));
  EXPECT_DOUBLE_EQ(w.degrees_of_freedom, (va + vb) * (va + vb) / (va * va / 4 + vb * vb / 4));
  EXPECT_LT(w.p, 1e-4);
  EXPECT_GT(welch_test(a, a).p, 0.99);
  EXPECT_EQ(welch_test({1, 1}, {0, 0}).p, 0.0);
}

}  // namespace
}  // namespace pecheck::training
