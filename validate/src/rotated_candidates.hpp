// The computations a rotated output's diagnosis tries (rotated_diagnosis.hpp):
// the correct ones and each fault of CONVENTIONS.md ("Applying the rotation"),
// as data: how each turns (position, inv_freq_i) into an angle and which
// formats its steps round to; and the frequencies they share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/rotary_convention.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

// How a computation turns (position, its inv_freq_i) into the angle, and
// cos and sin into the values it rotates by.
enum class AngleRule { exact, product, accumulated, reduced };

struct Candidate {
  std::string name;
  std::optional<HazardKind> fault;  // nullopt: a correct computation
  std::string source;               // where the fault was seen
  AngleRule rule = AngleRule::product;
  std::optional<FormatId> position, inv_freq, angle, cache;  // formats the steps round to
};

// Whether a step rounds to a format narrower than float32.
bool narrow(std::optional<FormatId> f);

// The candidates for an output in `output`'s format (cos and sin held in a
// format only when it is coarser than the output's).
std::vector<Candidate> candidates(FormatId output);

// What the candidates share: the convention's frequencies, exact and as a
// framework's float32 tensors hold them, and ggml's ladder.
struct Frequencies {
  std::vector<double> exact;
  std::vector<double> single;
  std::vector<double> narrow_bf16, narrow_f16;
  double theta_scale = 1.0;   // ggml: powf(base, -2/d)
  std::vector<double> ratio;  // the scaling rule's inv_freq over the plain ladder's (ggml's freq_factors)
  // ggml's angles of a (position, variant), built on first use (one evaluation, one thread).
  mutable std::unordered_map<std::int64_t, std::vector<double>> ladders;
};
Frequencies frequencies(const RotaryConvention& c);

// A framework's float32 pow may be an ULP off the correctly rounded
// inv_freq (rope_caches.py: about one frequency in five with NumPy), which
// at position 2^20 moves an angle by 2^-24 * 2^20 rad: each candidate takes,
// pair by pair, whichever of inv_freq (variant 0) and its two float32
// neighbours (1 and 2) fits.
inline constexpr int variants = 3;

// Candidate c's angle of pair i at position p with inv_freq variant v.
double angle_of(const Candidate& c, const Frequencies& f, std::int64_t p, std::size_t i, int v);

}  // namespace pecheck::validate
