// Which compared entry an accumulator keeps: the one with the larger figure,
// and between equal figures the smaller key. A total order, so the winner of
// any set is the same whatever the order of visits (rows, threads, merges).
#pragma once

#include <cmath>
#include <optional>

#include "pecheck/accuracy/compared_entry.hpp"

namespace pecheck::accuracy {

template <typename Size>
bool replaces(const std::optional<ComparedEntry>& current, const ComparedEntry& candidate, Size size) {
  if (!current) return true;
  const double a = size(candidate);
  const double b = size(*current);
  return a > b || (a == b && candidate.key < current->key);
}

inline double ulps_of(const ComparedEntry& e) { return e.error.ulps; }
inline double abs_error_of(const ComparedEntry& e) { return e.abs_error; }
// The nearest to a zero is the smallest magnitude: its negation is the size.
inline double closeness_to_zero(const ComparedEntry& e) { return -std::fabs(e.exact.hi); }
inline double no_size(const ComparedEntry&) { return 0.0; }

template <typename Size>
void keep(std::optional<ComparedEntry>& current, const ComparedEntry& candidate, Size size) {
  if (replaces(current, candidate, size)) current = candidate;
}
template <typename Size>
void keep(std::optional<ComparedEntry>& current, const std::optional<ComparedEntry>& candidate, Size size) {
  if (candidate) keep(current, *candidate, size);
}

}  // namespace pecheck::accuracy
