#include "tasks.hpp"

#include <algorithm>

namespace pecheck::training {

Batch draw_batch(Task task, const Sizes& sizes, int count, std::mt19937_64& generator) {
  const int length = sizes.length;
  Batch batch;
  batch.count = count;
  batch.inputs.reserve(static_cast<std::size_t>(count) * 2 * length);
  batch.answers.reserve(static_cast<std::size_t>(count) * length);
  // Drawn by hand from the 64-bit generator: std::uniform_int_distribution's
  // algorithm is the library's choice, and the same seed must give the same tasks everywhere.
  const auto token = [&] {
    return static_cast<std::int64_t>(generator() % static_cast<std::uint64_t>(sizes.vocabulary));
  };
  std::vector<std::int64_t> x(length), y(length);
  for (int b = 0; b < count; ++b) {
    for (auto& t : x) t = token();
    if (task == Task::reverse) {
      std::reverse_copy(x.begin(), x.end(), y.begin());
    } else {
      y = x;
      std::sort(y.begin(), y.end());
    }
    batch.inputs.insert(batch.inputs.end(), x.begin(), x.end());
    batch.inputs.push_back(sizes.vocabulary);  // the separator
    batch.inputs.insert(batch.inputs.end(), y.begin(), y.end() - 1);
    batch.answers.insert(batch.answers.end(), y.begin(), y.end());
  }
  return batch;
}

}  // namespace pecheck::training
