// What a plan needs of its frequencies, computed once per process for each
// distinct set of frequency terms and kept for the next plan: the
// frequencies in turns, split for the kernel (the double-double exp and log
// cost about a microsecond per frequency, as much as filling a 500-row
// float32 table of width 1024), and the rotation table of the narrow formats
// (K kernel rows, built on first use). A program tends to ask for the same
// few widths again and again.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "pecheck/convention.hpp"
#include "rotated_rows.hpp"

namespace pecheck {

// f_i = f1[i] + f2[i] + f3[i] (split_for_positions), for i < count, then
// zeros up to a multiple of sincos_lanes (the kernel gives sin 0, cos 1 for a
// zero frequency, and no column reads it).
class SplitFrequencies {
 public:
  SplitFrequencies(std::vector<double> f1, std::vector<double> f2, std::vector<double> f3, std::int64_t count);

  std::int64_t count() const { return count_; }
  TurnsView view() const { return {f1_.data(), f2_.data(), f3_.data(), static_cast<std::int64_t>(f1_.size())}; }
  // Built by the first caller, shared by all; safe to call from any thread.
  const RotationTable& rotations() const;

 private:
  std::vector<double> f1_;
  std::vector<double> f2_;
  std::vector<double> f3_;
  std::int64_t count_ = 0;
  mutable std::once_flag rotations_built_;
  mutable std::unique_ptr<RotationTable> rotations_;
};

// Throws ConventionError as frequency_in_turns does; a failure is not remembered.
std::shared_ptr<const SplitFrequencies> split_frequencies(const Convention& convention, std::int64_t dim);

}  // namespace pecheck
