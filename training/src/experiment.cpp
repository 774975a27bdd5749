#include "pecheck/training/experiment.hpp"

#include <atomic>
#include <chrono>
#include <mutex>
#include <sstream>

#include "pecheck/convention.hpp"
#include "pecheck/parallel_for.hpp"
#include "pecheck/training/token_multiplier.hpp"

namespace pecheck::training {

namespace {

std::mutex progress_mutex;
TrainingProgress progress_sink;

void report_progress(const std::string& line) {
  std::lock_guard lock(progress_mutex);
  if (progress_sink) progress_sink(line);
}

// What makes two grids the same: the subject, the seed and every size of the plan.
std::string plan_key(const Subject& subject, std::uint64_t seed, const Plan& plan) {
  const Sizes& s = plan.sizes;
  std::ostringstream key;
  key << subject.name() << '|' << seed << '|' << s.length << ',' << s.vocabulary << ',' << s.dim << ',' << s.layers
      << ',' << s.heads << ',' << s.hidden << ',' << s.batch << ',' << s.steps << ',' << s.eval_every << ','
      << s.eval_batch << ',' << s.learning_rate << '|' << plan.seeds << '|' << plan.compare_step;
  for (Task t : plan.tasks) key << '|' << to_string(t);
  for (Norm n : plan.norms) key << '|' << to_string(n);
  for (const std::string& c : plan.configurations) key << '|' << c;
  return key.str();
}

}  // namespace

void set_training_progress(TrainingProgress progress) {
  std::lock_guard lock(progress_mutex);
  progress_sink = std::move(progress);
}

const Cell* Experiment::find(Task task, Norm norm, const std::string& configuration) const {
  for (const Cell& cell : cells) {
    if (cell.task == task && cell.norm == norm && cell.configuration == configuration) return &cell;
  }
  return nullptr;
}

std::uint64_t run_seed(std::uint64_t seed, int k) {
  // splitmix64 of seed + k: neighbouring seeds give unrelated streams.
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(k + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

RunSpec make_spec(const Subject& subject, Task task, Norm norm, const Configuration& configuration, const Sizes& sizes,
                  std::uint64_t seed) {
  RunSpec spec;
  spec.task = task;
  spec.norm = norm;
  spec.configuration = configuration;
  spec.sizes = sizes;
  spec.seed = seed;
  const bool concatenated = configuration.position == Position::sinusoid_concatenated;
  const std::int64_t token_width = concatenated ? sizes.dim / 2 : sizes.dim;
  // What the subject's operation multiplies the token table by when asked
  // for its scale (or for 1, unscaled): a fault of the operation is trained.
  const double asked = configuration.scaled ? subject.embedding_scale(token_width, FormatId::float32) : 1.0;
  spec.scale = measure_token_multiplier(subject, token_width, concatenated ? sizes.dim - token_width : 0, asked).value;
  if (configuration.position == Position::sinusoid_added || concatenated) {
    const std::int64_t width = concatenated ? sizes.dim - token_width : sizes.dim;
    const Table table =
        subject.encoding_table(*find_preset("vaswani"), {sizes.sequence(), width, 0}, FormatId::float32);
    spec.encoding.reserve(static_cast<std::size_t>(table.rows * table.cols));
    for (std::int64_t r = 0; r < table.rows; ++r) {
      for (std::int64_t c = 0; c < table.cols; ++c) spec.encoding.push_back(static_cast<float>(table.view().at(r, c)));
    }
  }
  return spec;
}

const Experiment& run_experiment(const Subject& subject, std::uint64_t seed, const Plan& plan) {
  static std::mutex cache_mutex;
  static std::map<std::string, Experiment> cache;
  std::lock_guard lock(cache_mutex);
  const std::string key = plan_key(subject, seed, plan);
  if (const auto found = cache.find(key); found != cache.end()) return found->second;

  Experiment experiment;
  experiment.plan = plan;
  experiment.seed = seed;
  std::vector<std::string> ids = plan.configurations;
  if (ids.empty()) {
    for (const Configuration& c : configurations()) ids.push_back(c.id);
  }
  struct Job {
    std::size_t cell;
    int seed_index;
    RunSpec spec;
  };
  std::vector<Job> jobs;
  for (Task task : plan.tasks) {
    for (Norm norm : plan.norms) {
      for (const std::string& id : ids) {
        experiment.cells.push_back({task, norm, id, std::vector<RunResult>(static_cast<std::size_t>(plan.seeds))});
        for (int k = 0; k < plan.seeds; ++k) {
          // The subject is asked on this thread: it need not be thread-safe.
          jobs.push_back({experiment.cells.size() - 1, k,
                          make_spec(subject, task, norm, configuration(id), plan.sizes, run_seed(seed, k))});
        }
      }
    }
  }
  const auto start = std::chrono::steady_clock::now();
  std::atomic<std::size_t> next{0}, done{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto worker = [&] {
    // libtorch's thread count (OpenMP's) is per thread: a new thread would
    // otherwise use every core for each operation, and contend with the other runs.
    use_one_thread_per_run();
    for (std::size_t j = next++; j < jobs.size(); j = next++) {
      try {
        experiment.cells[jobs[j].cell].runs[static_cast<std::size_t>(jobs[j].seed_index)] = train(jobs[j].spec);
      } catch (...) {
        std::lock_guard failure_lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = jobs.size();
      }
      const Cell& cell = experiment.cells[jobs[j].cell];
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      report_progress("training: run " + std::to_string(++done) + "/" + std::to_string(jobs.size()) + " (" +
                      run_name(cell.task, cell.norm, cell.configuration) + ", seed " +
                      std::to_string(jobs[j].seed_index + 1) + "), " + std::to_string(static_cast<int>(elapsed)) +
                      " s");
    }
  };
  // Every run on one thread of its own; as many runs at once as the machine has threads.
  parallel_for(worker_count(0, static_cast<std::int64_t>(jobs.size())), [&worker](int) { worker(); });
  if (failure) std::rethrow_exception(failure);
  experiment.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return cache.emplace(key, std::move(experiment)).first->second;
}

}  // namespace pecheck::training
