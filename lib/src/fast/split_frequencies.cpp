#include "split_frequencies.hpp"

#include <algorithm>
#include <deque>
#include <mutex>
#include <utility>

#include "frequency_turns.hpp"
#include "sincos_turns.hpp"

namespace pecheck {

namespace {

bool same_terms(const std::vector<FrequencyTerm>& a, const std::vector<FrequencyTerm>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const FrequencyTerm& x, const FrequencyTerm& y) {
    return x.log_numerator == y.log_numerator && x.log_denominator == y.log_denominator && x.k == y.k &&
           x.m == y.m && x.divisor == y.divisor && x.multiplier == y.multiplier;
  });
}

std::shared_ptr<const SplitFrequencies> compute(const Convention& convention, const std::vector<FrequencyTerm>& terms) {
  const auto count = static_cast<std::int64_t>(terms.size());
  const auto padded = static_cast<std::size_t>((count + sincos_lanes - 1) / sincos_lanes * sincos_lanes);
  std::vector<double> f1(padded, 0.0);
  std::vector<double> f2(padded, 0.0);
  std::vector<double> f3(padded, 0.0);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const TurnsSplit parts = split_for_positions(frequency_in_turns(convention, terms[i]));
    f1[i] = parts.f1;
    f2[i] = parts.f2;
    f3[i] = parts.f3;
  }
  return std::make_shared<const SplitFrequencies>(std::move(f1), std::move(f2), std::move(f3), count);
}

// The most recently used sets, a handful: enough for a program's few widths.
constexpr std::size_t remembered_sets = 16;

}  // namespace

SplitFrequencies::SplitFrequencies(std::vector<double> f1, std::vector<double> f2, std::vector<double> f3,
                                   std::int64_t count)
    : f1_(std::move(f1)), f2_(std::move(f2)), f3_(std::move(f3)), count_(count) {}

const RotationTable& SplitFrequencies::rotations() const {
  std::call_once(rotations_built_, [this] { rotations_ = std::make_unique<RotationTable>(view()); });
  return *rotations_;
}

std::shared_ptr<const SplitFrequencies> split_frequencies(const Convention& convention, std::int64_t dim) {
  std::vector<FrequencyTerm> terms;
  const std::int64_t count = frequency_count(convention, dim);
  for (std::int64_t i = 0; i < count; ++i) terms.push_back(frequency_term(convention, dim, i));

  static std::mutex mutex;
  static std::deque<std::pair<std::vector<FrequencyTerm>, std::shared_ptr<const SplitFrequencies>>> remembered;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    for (const auto& [known_terms, split] : remembered) {
      if (same_terms(known_terms, terms)) return split;
    }
  }
  std::shared_ptr<const SplitFrequencies> split = compute(convention, terms);  // outside the lock: it is slow
  const std::lock_guard<std::mutex> lock(mutex);
  remembered.emplace_front(std::move(terms), split);
  if (remembered.size() > remembered_sets) remembered.pop_back();
  return split;
}

}  // namespace pecheck
