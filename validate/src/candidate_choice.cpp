#include "candidate_choice.hpp"

#include <algorithm>
#include <cmath>

#include "pecheck/parallel_for.hpp"

namespace pecheck::validate {

double choice_slack(double best_error, FormatId format) {
  return std::max(0.5 * best_error, std::ldexp(1.0, -format_of(format).precision));
}

std::vector<std::optional<Candidate>> for_each_candidate(
    const std::vector<Candidate>& candidates, std::size_t first, Placements& placements,
    const std::function<std::optional<Candidate>(const Candidate&)>& place) {
  const int workers = static_cast<int>(std::clamp<std::size_t>(
      std::min<std::size_t>(machine_threads(), 2), 1, std::max<std::size_t>(candidates.size(), 1)));
  std::atomic<std::size_t> next{first};
  parallel_for(workers, [&](int) {
    for (std::size_t k = next++; k < candidates.size() && !placements.settled(); k = next++) {
      placements.record(k, place(candidates[k]));
    }
  });
  return placements.take();
}

ErrorLimit choice_limit(const LowestError& lowest, const Placements& placements, FormatId format, bool usable) {
  if (!usable) return {};
  return [&lowest, &placements, format] {
    if (placements.settled()) return -std::numeric_limits<double>::infinity();
    const double u = lowest.get();
    return u + choice_slack(u, format);
  };
}

}  // namespace pecheck::validate
