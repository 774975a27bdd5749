#include "pecheck/properties/statistic_key.hpp"

#include <array>
#include <utility>

#include "pecheck/properties/outcome.hpp"

namespace pecheck::properties {

namespace {

// In enumeration order; the static_assert below catches a quantity added to
// the enum but not here.
constexpr std::array quantity_names{
    "pythagorean-miss-ratio",
    "squared-norm-miss-ratio",
    "rotation-miss-ratio",
    "frequency-recovery-error",
    "first-collision",
    "constant-columns",
    "ulp-error-over-budget",
    "scale-mismatches",
    "scale-relative-error",
    "scale-at-gemma-width",
    "scale-double-roundings",
    "closed-form-variance-miss",
    "closed-form-variance",
    "scaled-component-variance",
    "scaled-component-mean",
    "unscaled-component-variance",
    "encoding-energy",
    "energy-ratio-scaled",
    "energy-ratio-unscaled",
    "recovered-position-unknown-unscaled",
    "recovered-position-unknown-scaled",
    "recovered-position-known-unscaled",
    "rounding-loss-unscaled",
    "rounding-loss-scaled",
    "unit-logit-variance",
    "unit-logit-variance-undivided",
    "input-variance-scaled",
    "input-variance-unscaled",
    "logit-variance-both-scales",
    "logit-variance-input-scale-only",
    "logit-variance-attention-scale-only",
    "logit-variance-neither-scale",
    "input-scale-logit-factor",
    "attention-scale-logit-factor",
    "both-over-neither",
    "tied-logit-variance",
    "flax-logit-variance",
    "flax-logit-variance-divided",
    "tied-input-variance",
    "token-difference-rank",
    "position-difference-rank",
    "splits-excluded",
    "largest-cosine",
    "rms-cosine-scaled",
    "column-variance-miss",
    "quiet-columns-scaled",
    "quiet-columns-unscaled",
    "first-quarter-share",
    "last-quarter-share",
    "first-layer-logit-variance-scaled",
    "first-layer-logit-variance-unscaled",
    "first-layer-both-over-neither",
    "token-token-share-scaled",
    "cross-share-scaled",
    "position-position-share-scaled",
    "position-position-share-unscaled",
    "cross-share-unscaled",
    "pre-ln-logit-variance-scaled",
    "pre-ln-logit-variance-unscaled",
    "logit-variance-at-scale",
    "token-token-share-at-scale",
    "cross-share-at-scale",
    "position-position-share-at-scale",
    "init-scaled-variance",
    "init-energy-ratio",
    "init-encoding-share",
    "subspace-token-share",
    "subspace-dimension",
    "numerical-rank-loose",
    "numerical-rank-float32",
    "quiet-columns-over-context",
    "recovered-token-naive",
    "recovered-position-naive",
    "recovered-token-joint",
    "recovered-position-joint",
    "joint-pairs-scored",
    "vocabulary-energy-ratio",
    "vocabulary-subspace-share",
    "vocabulary-token-token-share",
    "vocabulary-cross-share",
    "vocabulary-position-position-share",
    "rotary-relative-position-miss-ratio",
    "rotary-pair-norm-miss-ratio",
    "added-relative-share",
    "concatenated-relative-share",
    "rotated-relative-share",
    "added-interaction-share",
    "concatenated-interaction-share",
    "rotated-interaction-share",
    "added-position-share",
    "concatenated-position-share",
    "rotated-position-share",
    "float32-angle-max-ulp",
    "float32-angle-rms-ulp",
    "float32-angle-abs-error",
    "energy-ratio-scaled-at-width",
    "energy-ratio-unscaled-at-width",
    "recovered-projected-unscaled",
    "recovered-mean-subtracted-unscaled",
    "mean-row-energy-share",
    "cross-varying-share-closed",
    "column-mean-square-min",
    "column-mean-square-max",
    "concatenated-relative-share-projected",
    "concatenated-interaction-share-projected",
    "training-accuracy-at-step",
    "training-final-accuracy",
    "training-steps-to-90",
    "training-final-loss",
    "training-parameters",
    "training-accuracy-gain",
    "training-welch-p",
    "training-repeat-difference",
    "training-accuracy-lower-limit",
};
static_assert(quantity_names.size() == static_cast<std::size_t>(Quantity::training_accuracy_lower_limit) + 1,
              "every Quantity needs its name, in enumeration order");

}  // namespace

std::string_view to_string(InitScheme scheme) {
  switch (scheme) {
    case InitScheme::paper:
      return "normal-d^-0.5";
    case InitScheme::keras_uniform:
      return "keras-uniform-0.05";
    case InitScheme::torch_normal:
      return "torch-normal-1";
    case InitScheme::xavier_8192:
      return "xavier-v8192";
    case InitScheme::xavier_32000:
      return "xavier-v32000";
  }
  return "?";
}

std::string_view to_string(Quantity quantity) {
  const auto index = static_cast<std::size_t>(quantity);
  return index < quantity_names.size() ? quantity_names[index] : "?";
}

std::string to_string(const StatisticKey& key) {
  std::string text(to_string(key.quantity));
  std::string where = key.convention;
  if (key.format) where += where.empty() ? "" : ", ";
  if (key.format) where += format_of(*key.format).name;
  if (key.dim != 0) where += (where.empty() ? "" : ", ") + std::string("d = ") + std::to_string(key.dim);
  if (key.positions != 0) where += (where.empty() ? "" : ", ") + std::string("P = ") + std::to_string(key.positions);
  if (key.initialisation) where += (where.empty() ? "" : ", ") + std::string(to_string(*key.initialisation));
  if (key.scale_exponent != 0.0)
    where += (where.empty() ? "" : ", ") + std::string("s = d^") + std::to_string(key.scale_exponent);
  if (key.head_dim != 0) where += (where.empty() ? "" : ", ") + std::string("d_k = ") + std::to_string(key.head_dim);
  if (key.vocabulary != 0) where += (where.empty() ? "" : ", ") + std::string("V = ") + std::to_string(key.vocabulary);
  if (!key.run.empty()) where += (where.empty() ? "" : ", ") + key.run;
  if (key.step != 0) where += (where.empty() ? "" : ", ") + std::string("step ") + std::to_string(key.step);
  return where.empty() ? text : text + " [" + where + "]";
}

const Statistic* find_statistic(const Outcome& outcome, const StatisticKey& key) {
  for (const Statistic& statistic : outcome.statistics) {
    if (statistic.key == key) return &statistic;
  }
  return nullptr;
}

const Statistic& require_statistic(const Outcome& outcome, const StatisticKey& key) {
  if (const Statistic* found = find_statistic(outcome, key)) return *found;
  throw MissingStatistic((outcome.check_id.empty() ? std::string("a check") : outcome.check_id) +
                         " yielded no statistic " + to_string(key) + " (" + std::to_string(outcome.statistics.size()) +
                         " statistics in its outcome)");
}

}  // namespace pecheck::properties
