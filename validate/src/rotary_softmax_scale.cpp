#include "rotary_softmax_scale.hpp"

#include <cmath>
#include <vector>

#include "pecheck/number_text.hpp"

namespace pecheck::validate {

namespace {

// get_mscale of _compute_yarn_parameters (DeepSeek's yarn_get_mscale).
double get_mscale(double scale, double m) { return scale <= 1.0 ? 1.0 : 0.1 * m * std::log(scale) + 1.0; }

struct Reading {
  double scale = 0.0;
  std::string words;
};

}  // namespace

std::optional<SoftmaxScaleFinding> softmax_scale_finding(const RotaryConvention& c, std::optional<double> given) {
  const RotaryDerived d = rotary_derived(c);
  const std::int64_t qk = c.query_key_dim > 0 ? c.query_key_dim : c.head_dim;
  const double plain = 1.0 / std::sqrt(static_cast<double>(qk));
  const bool yarn_all_dim = c.scaling.kind == RotaryScalingKind::yarn && c.scaling.mscale_all_dim.value_or(0.0) != 0.0;
  const double m = yarn_all_dim ? get_mscale(c.scaling.factor, *c.scaling.mscale_all_dim) : 1.0;
  const std::string mscale_words = yarn_all_dim ? "get_mscale(" + significant(c.scaling.factor, 7) + ", " +
                                                      significant(*c.scaling.mscale_all_dim, 7) + ")"
                                                : std::string();
  if (!given && d.softmax_scale == 1.0 / std::sqrt(static_cast<double>(c.head_dim))) return std::nullopt;

  std::string derivation = std::to_string(qk) + "^-1/2";
  if (yarn_all_dim) derivation += " x " + mscale_words + "^2 = " + significant(plain, 7) + " x " + significant(m * m, 7);
  SoftmaxScaleFinding finding;
  finding.note = "softmax scale the config derives: " + significant(d.softmax_scale, 7) + " (" + derivation + ")";
  if (!given) return finding;

  const double relative = std::fabs(*given / d.softmax_scale - 1.0);
  const std::string measured = "--softmax-scale " + significant(*given, 7) + " differs by " + significant(relative, 3) +
                               " relative (tolerance " + significant(softmax_scale_tolerance, 3) +
                               ", float32's roundings of the derivation)";
  if (relative <= softmax_scale_tolerance) {
    finding.note += "; " + measured + ": the engine's scale is it";
    return finding;
  }
  // The misreadings engines had, each computed from the convention.
  std::vector<Reading> readings;
  if (yarn_all_dim) {
    readings.push_back({plain, std::to_string(qk) + "^-1/2 without " + mscale_words +
                                   "^2 (transformers issue 47435, Megatron-LM issue 1429)"});
    readings.push_back({plain * m, std::to_string(qk) + "^-1/2 times " + mscale_words + " once, not squared"});
    readings.push_back({plain * d.attention_factor * d.attention_factor,
                        std::to_string(qk) + "^-1/2 times the cache's attention factor squared instead of " +
                            mscale_words + "^2"});
  }
  if (d.dims != qk) {
    readings.push_back({d.softmax_scale * std::sqrt(static_cast<double>(qk) / static_cast<double>(d.dims)),
                        "the rotary width " + std::to_string(d.dims) + " taken for the query-key width " +
                            std::to_string(qk)});
  }
  std::string cause = "none of the known misreadings explains it";
  for (const Reading& r : readings) {
    if (std::fabs(*given / r.scale - 1.0) <= softmax_scale_tolerance) {
      cause = "it is " + r.words;
      break;
    }
  }
  finding.hazard = Hazard{HazardKind::softmax_scale,
                          measured + " from the config's " + significant(d.softmax_scale, 7) + " (" + derivation +
                              "): " + cause + "."};
  return finding;
}

}  // namespace pecheck::validate
