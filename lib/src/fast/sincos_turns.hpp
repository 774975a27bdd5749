// The vector kernel of the fast path: sin(2 pi p f_i) and cos(2 pi p f_i) for
// one integer position p and a run of frequencies in turns, in double, with a
// relative error below 2^-52 + 2^-77.9 / rho (rho: the distance in turns from
// p f_i to the nearest zero of the function). The derivation is in
// sincos_turns.cpp.
#pragma once

#include <cstdint>

namespace pecheck {

// The kernel works on groups of this many frequencies; callers pad their
// frequency arrays to a multiple of it (a zero frequency gives sin 0, cos 1).
inline constexpr std::int64_t sincos_lanes = 8;

// For i < count (a multiple of sincos_lanes), with f_i = f1[i] + f2[i] + f3[i]
// split as split_for_positions() does and |position| < 2^24:
//   sin_out[i] = sin(2 pi position f_i), cos_out[i] = cos(2 pi position f_i).
// Each output depends on position and f_i alone: the same entry is bit for bit
// the same whatever run or block it is computed in.
void sincos_turns(std::int64_t position, const double* f1, const double* f2, const double* f3, std::int64_t count,
                  double* sin_out, double* cos_out);

// The same with a position per entry: positions[i] an integer below 2^24 in
// magnitude. Entry i is bit for bit sincos_turns(positions[i], ...)'s entry
// (the same lane-wise operations), so entries whose positions differ, such
// as a computation model's binary angles m 2^k, share one vector pass.
void sincos_turns_each(const double* positions, const double* f1, const double* f2, const double* f3,
                       std::int64_t count, double* sin_out, double* cos_out);

}  // namespace pecheck
