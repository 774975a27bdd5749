// Choosing among candidate conventions for a table: the candidates placed
// so far (Placements), the closest error seen (LowestError), and the limit
// past which a candidate's search may give up because it cannot be chosen.
// Detection (detection.cpp) places candidates on up to two threads; these
// decide, whatever order they finish in, the same choice as one pass in
// preference order.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/format.hpp"
#include "position_search.hpp"

namespace pecheck::validate {

struct Candidate {
  Convention convention;
  OffsetFit offset;
  double error = 0.0;
  std::size_t rule_rank = 0;
  std::size_t structure_rank = 0;
};

// How much farther from the table than the closest candidate one may be and
// still be chosen: half the closest one's error, or half an ULP of 1.
double choice_slack(double best_error, FormatId format);

// The candidates placed so far, in preference order, shared by the threads
// that place them. Settled once the choice among all of them is known
// whatever the candidates not yet placed turn out to be:
// - a placed candidate within half an ULP of 1 of the table (the least
//   slack, choice_slack(0)) is within the slack of any closest error, so it
//   is chosen unless one before it is;
// - a candidate before it that is farther than the slack from the closest
//   error so far is never chosen, since that error only comes down as more
//   are placed (the sum is monotone in it, rounding included);
// so once every candidate before it is finished, each placed too far or not
// placed at all, it is the one chosen, and the rest need not be placed.
class Placements {
 public:
  Placements(std::size_t count, FormatId format) : placed_(count), finished_(count, false), format_(format) {}

  void record(std::size_t k, std::optional<Candidate> candidate) {
    const std::lock_guard<std::mutex> lock(mutex_);
    placed_[k] = std::move(candidate);
    finished_[k] = true;
    if (!settled_.load() && chosen_whatever_follows()) settled_.store(true);
  }
  bool settled() const { return settled_.load(); }
  // In preference order; call once every thread is done.
  std::vector<std::optional<Candidate>> take() { return std::move(placed_); }

 private:
  bool chosen_whatever_follows() const {
    double best = std::numeric_limits<double>::infinity();
    for (const std::optional<Candidate>& c : placed_) {
      if (c) best = std::min(best, c->error);
    }
    const double within = best + choice_slack(best, format_);
    const double surely_chosen = choice_slack(0.0, format_);
    for (std::size_t k = 0; k < placed_.size(); ++k) {
      if (!finished_[k]) return false;
      if (!placed_[k]) continue;
      if (placed_[k]->error <= surely_chosen) return true;
      if (placed_[k]->error <= within) return false;  // it may yet be the one chosen
    }
    return false;
  }

  std::mutex mutex_;
  std::vector<std::optional<Candidate>> placed_;
  std::vector<bool> finished_;
  FormatId format_;
  std::atomic<bool> settled_{false};
};

// place(c) for the candidates from `first` on (those before it are placed
// already), most preferred first, on up to two threads (each candidate is
// placed and scored independently, reading the table only), results in the
// candidates' order: the same choice as one pass in order. Each thread takes
// the next candidate not yet taken, until the placements are settled: a
// candidate that gives up early (position_search.hpp) frees its thread for
// the next one.
std::vector<std::optional<Candidate>> for_each_candidate(
    const std::vector<Candidate>& candidates, std::size_t first, Placements& placements,
    const std::function<std::optional<Candidate>(const Candidate&)>& place);

// The smallest error of the candidates placed so far, shared by the threads
// that place them.
class LowestError {
 public:
  double get() const { return lowest_.load(); }
  void lower_to(double error) {
    double seen = lowest_.load();
    while (error < seen && !lowest_.compare_exchange_weak(seen, error)) {
    }
  }

 private:
  std::atomic<double> lowest_{std::numeric_limits<double>::infinity()};
};

// The error past which a candidate cannot be chosen, once one with error U is
// placed: any error above U + slack(U) is above the closest candidate's
// error plus its slack (the closest has an error <= U; the sum is monotone
// in it, rounding included), so that candidate is neither the closest nor
// within its slack, and leaving it out changes nothing. Infinite until a
// candidate is placed; -infinity (give up now) once the placements are
// settled. `usable` says when a search's differences are those
// candidate_error takes.
ErrorLimit choice_limit(const LowestError& lowest, const Placements& placements, FormatId format, bool usable);

}  // namespace pecheck::validate
