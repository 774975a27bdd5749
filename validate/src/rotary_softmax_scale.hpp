// The attention softmax scale a rotary convention implies, as a checked
// output of `validate --config`: printed with how it is derived, and, given
// the scale an engine uses (--softmax-scale), held to it, a difference
// named by the misreading that explains it (DeepSeek's get_mscale^2 dropped:
// transformers issue 47435, Megatron-LM issue 1429).
#pragma once

#include <optional>
#include <string>

#include "pecheck/rotary_convention.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

// How far an engine's scale may be from the derived one, relative: an engine
// computing it in float32 rounds d_qk^-1/2 (a square root and a division),
// get_mscale (ln within one ULP, a product, a product and a sum), its square,
// the product and the stored result: nine roundings of at most 2^-24
// relative each, 2^-20.8 together, taken as 2^-20.
inline constexpr double softmax_scale_tolerance = 0x1.0p-20;

struct SoftmaxScaleFinding {
  std::string note;               // the derived scale and how; with a given one, the measured difference
  std::optional<Hazard> hazard;   // softmax-scale: the given scale is not the derived one
};

// nullopt when there is nothing to say: no scale given and the derived one
// is the plain head_dim^-1/2.
std::optional<SoftmaxScaleFinding> softmax_scale_finding(const RotaryConvention& convention,
                                                         std::optional<double> given);

}  // namespace pecheck::validate
