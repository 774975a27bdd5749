// (b) Whether the sqrt(d) embedding scale cancels attention's 1/sqrt(d_k):
// where each acts, and the first layer's logit variance at initialisation,
// over independent draws, with its closed form and its sources.
#include <cmath>

#include "finding_builder.hpp"
#include "finding_parts.hpp"
#include "text_format.hpp"

namespace pecheck::reports::detail {

namespace {

constexpr std::int64_t paper_dim = 512;
bool anywhere(const properties::StatisticKey&) { return true; }

// "d = 512, d_k = 64": the sizes a statistic was measured at, from its key.
std::string widths(const properties::StatisticKey& key) {
  return "d = " + std::to_string(key.dim) + (key.head_dim != 0 ? ", d_k = " + std::to_string(key.head_dim) : "");
}

}  // namespace

Finding does_it_cancel(const Report& report) {
  FindingBuilder b(report, "scale-and-attention",
                   "(b) Does the sqrt(d) embedding scale cancel the 1/sqrt(d_k) of attention?");
  const properties::Statistic* unit_statistic =
      b.use_matching(ids::attention_logit_variance, Quantity::unit_logit_variance, anywhere,
                     "Var(q.k / sqrt(d_k)), unit-variance q and k");
  const std::int64_t unit_dk = unit_statistic ? unit_statistic->key.head_dim : 0;
  const auto x_scaled = b.use(ids::attention_logit_variance, per_format(Quantity::input_variance_scaled, f32),
                              "float32: component variance of s*E + PE");
  const auto x_plain = b.use(ids::attention_logit_variance, per_format(Quantity::input_variance_unscaled, f32),
                             "float32: component variance of E + PE");

  std::string text =
      "No. The two factors act at different places on different quantities. sqrt(d) multiplies the "
      "token embedding once, before the encoding is added and before any projection. 1/sqrt(d_k) divides "
      "every query-key dot product, in every attention layer, after the projections W_Q and W_K: it "
      "keeps the sum of d_k products at the variance of one product";
  if (unit_statistic != nullptr) {
    text += " (measured: Var(q.k / sqrt(d_k)) = " + significant(unit_statistic->value, 4) + " for unit-variance components" +
            (unit_dk != 0 ? ", d_k = " + std::to_string(unit_dk) : std::string()) + ")";
  }
  b.paragraph(text + ".");

  // The d_k the attention check measured with; the paper's base model's when it did not run.
  const std::int64_t example_dk = unit_dk != 0 ? unit_dk : 64;
  std::string first =
      "Even in the first layer they do not compose to 1. Scaling the input x by c scales q.k by c^2, so "
      "undoing 1/sqrt(d_k) would take c = d_k^(1/4) (" +
      significant(std::pow(static_cast<double>(example_dk), 0.25), 3) + " for d_k = " + std::to_string(example_dk) +
      "), not sqrt(d) (" + significant(std::sqrt(static_cast<double>(paper_dim)), 4) +
      " for d = " + std::to_string(paper_dim) +
      "); and since the encoding is added after the scale, x is not a multiple of E at all";
  if (x_scaled && x_plain) {
    first += ": the measured component variance of x is " + significant(*x_scaled, 4) + " with the scale and " +
             significant(*x_plain, 4) + " without";
  }
  b.paragraph(first + ".");

  // The finding chooses the widths (the paper's base model, the smallest and
  // largest measured); d_k is whatever the check used, read from its key.
  const auto drawn = [&](Quantity quantity, std::int64_t d, const std::string& label) {
    return b.use_matching(
        ids::logit_decomposition, quantity,
        [&](const properties::StatisticKey& key) { return key.format == f32 && key.dim == d; },
        label + ", d = " + std::to_string(d));
  };
  const properties::Statistic* with = drawn(Quantity::first_layer_logit_variance_scaled, paper_dim,
                                            "first-layer logit variance, s = sqrt(d), / sqrt(d_k)");
  const properties::Statistic* without =
      drawn(Quantity::first_layer_logit_variance_unscaled, paper_dim, "first-layer logit variance, s = 1, / sqrt(d_k)");
  const properties::Statistic* quotient =
      drawn(Quantity::first_layer_both_over_neither, paper_dim, "both scales / neither (1 if they cancelled)");
  const properties::Statistic* token =
      drawn(Quantity::token_token_share_scaled, paper_dim, "token-token share, s = sqrt(d)");
  const properties::Statistic* cross =
      drawn(Quantity::cross_share_scaled, paper_dim, "token x position share, s = sqrt(d)");
  const properties::Statistic* position =
      drawn(Quantity::position_position_share_scaled, paper_dim, "position-position share, s = sqrt(d)");
  const properties::Statistic* position_plain =
      drawn(Quantity::position_position_share_unscaled, paper_dim, "position-position share, s = 1");
  const properties::Statistic* ln_with = drawn(Quantity::pre_ln_logit_variance_scaled, paper_dim,
                                               "logit variance, LayerNorm before attention, s = sqrt(d)");
  const properties::Statistic* ln_without =
      drawn(Quantity::pre_ln_logit_variance_unscaled, paper_dim, "logit variance, LayerNorm before attention, s = 1");
  const properties::Statistic* small =
      drawn(Quantity::first_layer_logit_variance_scaled, 64, "first-layer logit variance, s = sqrt(d), / sqrt(d_k)");
  const properties::Statistic* large =
      drawn(Quantity::first_layer_logit_variance_scaled, 4096, "first-layer logit variance, s = sqrt(d), / sqrt(d_k)");
  const bool decomposed = with && without && quotient && token && cross && position && position_plain && ln_with &&
                          ln_without && small && large;
  if (decomposed) {
    b.paragraph(
        "At initialisation (W_Q, W_K with variance 1/d, sigma = d^-0.5) the first layer's logit variance q.k / "
        "sqrt(d_k) is (s^2 sigma^2 + 1/2)^2: the token brings s^2 sigma^2 per component and the encoding 1/2. "
        "Measured over independent draws of (E, W_Q, W_K) at " +
        widths(quotient->key) + ": " + measured_text(*with) + " with s = sqrt(d), " + measured_text(*without) +
        " with s = 1; both scales over neither is " + measured_text(*quotient) +
        " where cancelling would give 1. It stays at its closed form across widths (with the scale " +
        measured_text(*small) + " at d = " + std::to_string(small->key.dim) + ", " + measured_text(*large) +
        " at d = " + std::to_string(large->key.dim) + ").");
    b.paragraph("Where that variance comes from, with the scale: token-token " + measured_percent(*token) +
                ", token x position " + measured_percent(*cross) + ", position-position " +
                measured_percent(*position) + ". Without the scale, position-position is " +
                measured_percent(*position_plain) +
                ": the first layer's attention logits then hardly see the token at all.");
    b.paragraph(
        "With LayerNorm before attention (pre-LN), each input row is normalised first, so the logit variance "
        "is 1 whatever the scale: measured " +
        measured_text(*ln_with) + " with s = sqrt(d) and " + measured_text(*ln_without) +
        " with s = 1. There the question does not arise for the logits' size; the scale still sets how "
        "much of the normalised row is token and how much is position.");
  } else {
    b.paragraph("The first layer's logit variance over independent draws was not measured in this run (" +
                b.status(ids::logit_decomposition) + ").");
  }
  b.supported("1/sqrt(d_k) normalises the attention logits for unit-variance components whatever the input scale.");
  b.supported(
      "The input scale changes the variance of the input x (embedding plus encoding); it cannot cancel a "
      "factor applied in every layer to products of projections.");
  b.supported("With LayerNorm before attention the first layer's logit variance does not depend on the scale.");
  b.unsupported(
      "Layers past the first: in a post-LN model each layer's output is normalised, but in a pre-LN model the "
      "residual stream carries s*E + PE into every later layer, so the scale sets its size against every "
      "sublayer's output. pecheck measures the first layer only.");
  b.unsupported(
      "Trained projections and training dynamics: the measurement uses random projections at initialisation, "
      "not trained weights or checkpoints.");

  Finding finding = b.finish();
  if (decomposed) {
    finding.short_answer =
        "No. sqrt(d) scales the input once; 1/sqrt(d_k) divides the query-key products in every layer. At "
        "initialisation the first layer's logit variance is (s^2 sigma^2 + 1/2)^2, and with LayerNorm before "
        "attention it is 1 with or without the scale (measured " +
        significant(ln_with->value, 3) + " and " + significant(ln_without->value, 3) + ").";
    finding.key_figure = "Logit variance with both scales over neither: " + measured_text(*quotient) + ", " +
                         widths(quotient->key) + " (1 if they cancelled).";
    finding.caveat =
        "At initialisation and in the first layer only; in a pre-LN model the scale reaches every "
        "layer through the residual stream, which pecheck does not measure.";
  }
  finding.figures = {"scaling-variance-first-layer-logit-decomposition"};
  return finding;
}

}  // namespace pecheck::reports::detail
