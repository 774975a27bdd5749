// Computation models of rotated queries and keys: what a kernel claims to
// compute, each defined exactly from rounded intermediates, so a kernel is
// judged against the model it follows as well as against the exact rotation
// (rotated_reference.hpp). All three take the angle of the computation model
// `angle_model` (hf-float32 by default: inv_freq step by step in float32,
// t = RN32(RN32(p) inv_freq)), and its cache entries
//   C32 = RN32(RN32(A) cos t),  S32 = RN32(RN32(A) sin t)
// (the rotary cache oracle's model target in float32). For a pair (x_a, x_b):
//
// hf-cast-cache (transformers' apply_rotary_pos_emb): the float32 cache cast
//   to the activation dtype, C = RN(C32), S = RN(S32), then q*cos +
//   rotate_half(q)*sin with each product and the sum rounded in that dtype:
//   out_a = RN(RN(x_a C) + RN(-x_b S)), out_b = RN(RN(x_b C) + RN(x_a S)).
//   (PyTorch on CPU computes a bfloat16 or float16 product or sum in float32
//   and rounds it once more; that double rounding equals the single one,
//   since float32's 24 bits are at least 2p + 2 for p = 8 and 11: Figueroa,
//   "When is double rounding innocuous?", SIGNUM 1995.)
// float32-compute (Meta's apply_rotary_emb on complex64, torchtune): x
//   rounded to float32, the rotation in float32 with each product and the sum
//   rounded there, one rounding to the activation dtype at the end:
//   out_a = RN_act(RN32(RN32(x_a C32) - RN32(x_b S32))), and the same for
//   out_b = RN_act(RN32(RN32(x_a S32) + RN32(x_b C32))).
// float32-angle (fused kernels with sin/cos on the fly): the exact rotation
//   by the binary angle t and RN32(A), rounded once to the activation dtype;
//   a kernel's own sin and cos are allowed for by rotated_libm_allowance.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/reference/rotated_reference.hpp"
#include "pecheck/rotary_convention.hpp"

namespace pecheck::reference {

enum class RotatedModelKind { hf_cast_cache, float32_compute, float32_angle };

struct RotatedModel {
  RotatedModelKind kind = RotatedModelKind::hf_cast_cache;
  std::string name;         // "hf-cast-cache", "float32-compute", "float32-angle"
  std::string description;  // one sentence, as printed
};

const std::vector<RotatedModel>& rotated_models();
std::optional<RotatedModel> find_rotated_model(std::string_view name);

class RotatedModelEvaluator {
 public:
  // `activation`: the dtype of the input and the output.
  RotatedModelEvaluator(const RotaryConvention& convention, FormatId activation, const RotatedModel& model,
                        const ComputationModel& angle_model);
  ~RotatedModelEvaluator();
  RotatedModelEvaluator(const RotatedModelEvaluator&) = delete;
  RotatedModelEvaluator& operator=(const RotatedModelEvaluator&) = delete;

  // `before_rounding`, when given, receives the model's value before its
  // last rounding (the exact sum of the rounded products; the float32 result;
  // the exact rotation): what an output is measured against in ULP, so that
  // a sum the model rounds to zero is not an error of 10^37 ULP.
  RotatedPair rotate(std::int64_t position, std::int64_t frequency, double x_first, double x_second,
                     RotatedExact* before_rounding = nullptr);
  // The model's binary angle (for the allowance).
  double angle(std::int64_t position, std::int64_t frequency);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// What a kernel's own libm may do that a model (every operation correctly
// rounded) does not, as an absolute bound on an output of the pair:
//   inv_freq within relative r = libm_inv_freq_allowance(angle_model) of the
//   model's, so the angle moves by r |t| and its rounding by one more ulp(t)
//   in the angle's format; sin and cos within `trig_ulps` float32 ULP (at
//   most trig_ulps 2^-24 absolute, |sin|, |cos| <= 1); each moves the output
//   by at most A (|x_a| + |x_b|) times it (the rotation is 1-Lipschitz in the
//   angle and linear in sin and cos). hf-cast-cache rounds that moved cache
//   to the dtype, which can move C and S by one ulp of the dtype at 1 more:
//   (|x_a| + |x_b|) 2^(1-p) A. Outputs are measured against the model's value
//   before its last rounding, which moved inputs can send to the neighbour:
//   one ulp of the output's binade more, for every model.
struct RotatedLibmAllowance {
  double inv_freq_relative = 0.0;
  double trig_ulps = 1.0;  // float32 sin/cos within 1 ULP: glibc's and most GPU non-fast paths
  FormatId angle_format = FormatId::float32;
  FormatId activation = FormatId::float32;
  bool cast_cache = false;
  double factor = 1.0;
  double bound(double angle, double x_first, double x_second, double output) const;
};
RotatedLibmAllowance rotated_libm_allowance(const RotatedModel& model, const ComputationModel& angle_model,
                                            FormatId activation, double attention_factor);

}  // namespace pecheck::reference
