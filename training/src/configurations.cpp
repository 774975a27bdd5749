// The input layers compared, and how much they are trained.
#include <stdexcept>

#include "pecheck/training/experiment.hpp"

namespace pecheck::training {

const std::vector<Configuration>& configurations() {
  // sigma_factor / sqrt(width) when sigma scales with the width: 1 / sqrt(d) is
  // tensor2tensor's and fairseq's N(0, 1/d).
  static const std::vector<Configuration> all = {
      {"paper", "N(0, 1/d), s = sqrt(d), sinusoid added (the paper's)", 1.0, true, 0.0, true, Position::sinusoid_added},
      {"no-scale", "N(0, 1/d), s = 1, sinusoid added", 1.0, true, 0.0, false, Position::sinusoid_added},
      {"unit-unscaled", "N(0, 1), s = 1, sinusoid added", 1.0, false, 0.0, false, Position::sinusoid_added},
      {"unit-scaled", "N(0, 1), s = sqrt(d), sinusoid added (PyTorch's init with the scale)", 1.0, false, 0.0, true,
       Position::sinusoid_added},
      {"keras-scaled", "uniform(-0.05, 0.05), s = sqrt(d), sinusoid added (Keras's init)", 1.0, false, 0.05, true,
       Position::sinusoid_added},
      {"concat", "N(0, 2/d), s = sqrt(d/2), sinusoid concatenated (d/2 + d/2)", 1.0, true, 0.0, true,
       Position::sinusoid_concatenated},
      {"learned", "N(0, 1/d), s = sqrt(d), learned table N(0, 1/2) added", 1.0, true, 0.0, true,
       Position::learned_added},
      {"rotary", "N(0, 1/d), s = sqrt(d), rotary q and k", 1.0, true, 0.0, true, Position::rotary},
      {"nope", "N(0, 1/d), s = sqrt(d), no encoding (causal mask only)", 1.0, true, 0.0, true, Position::none},
  };
  return all;
}

const Configuration& configuration(const std::string& id) {
  for (const Configuration& c : configurations()) {
    if (c.id == id) return c;
  }
  throw std::invalid_argument("training: no configuration '" + id + "'");
}

Plan standard_plan() {
  // Sizes from a pilot on this kind of 2-core machine: at L = 8, d = 64, two
  // layers, batch 64, a run of 200 Adam steps takes about 3 s of one core
  // unloaded; 9 configurations x 2 tasks x 2 norms x 5 seeds = 180 runs on
  // two threads fit in about 5 minutes. The paper's configuration reaches
  // 100% on reverse by step 150, so 200 steps show every curve's rise.
  Plan plan;
  plan.sizes.steps = 200;
  plan.sizes.eval_every = 20;
  plan.sizes.eval_batch = 128;
  plan.seeds = 5;
  plan.compare_step = 100;
  return plan;
}

Plan tiny_plan() {
  Plan plan;
  plan.sizes.length = 4;
  plan.sizes.dim = 16;
  plan.sizes.heads = 2;
  plan.sizes.hidden = 32;
  plan.sizes.batch = 8;
  plan.sizes.steps = 4;
  plan.sizes.eval_every = 2;
  plan.sizes.eval_batch = 16;
  plan.seeds = 2;
  plan.compare_step = 2;
  return plan;
}

std::string_view to_string(Task task) { return task == Task::reverse ? "reverse" : "sort"; }
std::string_view to_string(Norm norm) { return norm == Norm::post_ln ? "post-ln" : "pre-ln"; }

std::string run_name(Task task, Norm norm, const std::string& configuration) {
  return std::string(to_string(task)) + "/" + std::string(to_string(norm)) + "/" + configuration;
}

}  // namespace pecheck::training
