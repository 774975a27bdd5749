// (a) Why the token embeddings are multiplied by sqrt(d) before the encoding
// is added: what the factor does to the numbers that meet in the sum, under
// the initialisation it was made for and under the ones implementations use.
#include <cmath>

#include "finding_builder.hpp"
#include "finding_parts.hpp"
#include "text_format.hpp"

namespace pecheck::reports::detail {

namespace {

constexpr FormatId bf16 = FormatId::bfloat16;

// The energy-ratio curve at d = 512 (the paper's base model): with and without the scale.
std::optional<std::pair<double, double>> energy_at_512(const FigureData& data) {
  if (!data.energy) return std::nullopt;
  const EnergyRatioCurve& curve = *data.energy;
  for (std::size_t i = 0; i < curve.dims.size(); ++i) {
    if (curve.dims[i] == 512.0) return std::make_pair(curve.with_scale[i], curve.without_scale[i]);
  }
  return std::nullopt;
}

struct SchemeName {
  properties::InitScheme scheme;
  const char* name;
};
constexpr SchemeName schemes[] = {
    {properties::InitScheme::paper, "N(0, 1/d) (tensor2tensor, fairseq)"},
    {properties::InitScheme::keras_uniform, "Keras's uniform(-0.05, 0.05) (the TF tutorial)"},
    {properties::InitScheme::torch_normal, "PyTorch's N(0, 1)"},
    {properties::InitScheme::xavier_8192, "Xavier uniform with V = 8192"},
    {properties::InitScheme::xavier_32000, "Xavier uniform with V = 32000"},
};

properties::StatisticKey init_key(Quantity quantity, std::int64_t d, properties::InitScheme scheme) {
  return {quantity, f32, d, 0, {}, scheme, 0.0};
}

}  // namespace

Finding why_scale(const Report& report, const FigureData& data) {
  FindingBuilder b(report, "scale-before-encoding",
                   "(a) Why are the token embeddings multiplied by sqrt(d) before the positional encoding is added?");
  b.paragraph(
      "The paper states the multiplication (section 3.4: the embedding weights are multiplied by sqrt(d_model)) "
      "and gives no reason for it. What this run can show is what the factor does to the numbers that meet "
      "in the sum s*E[t] + PE[p].");

  const auto v_scaled = b.use(ids::unit_variance_sampled, per_format(Quantity::scaled_component_variance, f32),
                              "Var(s*E) per component, sigma = d^-0.5, s = sqrt(d)");
  const auto v_plain = b.use(ids::unit_variance_sampled, per_format(Quantity::unscaled_component_variance, f32),
                             "Var(E) per component, no scale");
  const auto pe_energy =
      b.use(ids::energy_ratio, per_format(Quantity::encoding_energy, f32), "mean ||PE(p)||^2, d = 512");
  auto ratio =
      b.use(ids::energy_ratio, per_format(Quantity::energy_ratio_scaled, f32), "energy ratio with the scale, d = 512");
  auto ratio_plain = b.use(ids::energy_ratio, per_format(Quantity::energy_ratio_unscaled, f32),
                           "energy ratio without the scale, d = 512");
  if (const auto point = energy_at_512(data); point && (!ratio || !ratio_plain)) {
    ratio = point->first;
    ratio_plain = point->second;
    b.evidence("energy ratio with / without the scale, d = 512",
               significant(*ratio, 4) + " / " + significant(*ratio_plain, 4), "figure energy-ratio");
  }

  std::string text =
      "With the initialisation tensor2tensor and fairseq use (normal, standard deviation d^-0.5), each "
      "component of E has variance 1/d and each component of s*E has variance s^2/d = 1";
  if (v_scaled && v_plain) {
    text += " (measured in float32 at d = 512: " + significant(*v_scaled, 4) + " with the scale, " +
            significant(*v_plain, 4) + " without)";
  }
  text += ". Each component of the encoding has mean square 1/2, since sin^2 + cos^2 = 1 for every frequency pair";
  if (pe_energy) text += " (measured: ||PE(p)||^2 = " + significant(*pe_energy, 6) + " = d/2 at d = 512)";
  text += ". Scaled, the token therefore carries about twice the encoding's energy";
  if (ratio && ratio_plain) {
    text += ": the measured ratio E||s e||^2 / ||PE||^2 is " + significant(*ratio, 4) +
            " (expected 2); unscaled it is " + significant(*ratio_plain, 4) +
            " (expected 2/d), so the encoding would hold " + percent(1.0 / (1.0 + *ratio_plain)) +
            " of the input's energy";
  }
  b.paragraph(text + ".");

  const auto lost = b.use(ids::token_recoverability, per_format(Quantity::recovered_position_unknown_unscaled, f32),
                          "float32: tokens recovered without the scale, position unknown");
  const auto kept = b.use(ids::token_recoverability, per_format(Quantity::recovered_position_unknown_scaled, f32),
                          "float32: tokens recovered with s = sqrt(d), position unknown");
  const auto known = b.use(ids::token_recoverability, per_format(Quantity::recovered_position_known_unscaled, f32),
                           "float32: tokens recovered without the scale, position known");
  const auto bf16_lost =
      b.use(ids::token_recoverability, per_format(Quantity::recovered_position_unknown_unscaled, bf16),
            "bfloat16: tokens recovered without the scale, position unknown");
  const auto bf16_residual = b.use(ids::token_recoverability, per_format(Quantity::rounding_loss_unscaled, bf16),
                                   "bfloat16: embedding lost to rounding, no scale (RMS relative)");
  if (lost && kept && known) {
    std::string r =
        "Whether the sum still identifies the token (the nearest row of s*E, the position not known, "
        "d = 512 and a vocabulary of 128): " +
        percent(*kept) + " of tokens with s = sqrt(d), " + percent(*lost) + " without the scale in float32";
    if (bf16_lost) r += ", " + percent(*bf16_lost) + " in bfloat16";
    if (bf16_residual)
      r += ", where rounding the unscaled sum loses " + percent(*bf16_residual) + " of the embedding (RMS)";
    r += ". With the position known (PE[p] subtracted before the search), " + percent(*known) +
         " of tokens are recovered without the scale in float32: the unscaled token is outweighed by the encoding, "
         "not erased by it";
    b.paragraph(r + ".");
  } else {
    b.paragraph("Token recoverability was not measured in this run (" + b.status(ids::token_recoverability) + ").");
  }

  // The initialisations implementations use: the unit variance is sigma = d^-0.5's alone.
  std::string inits;
  for (std::int64_t d : {std::int64_t{128}, std::int64_t{512}}) {
    std::string row;
    for (const SchemeName& scheme : schemes) {
      const properties::Statistic* v =
          b.use_statistic(ids::initialisation_variance, init_key(Quantity::init_scaled_variance, d, scheme.scheme),
                          "Var(s*E), " + std::string(scheme.name) + ", d = " + std::to_string(d));
      const properties::Statistic* share = b.use_statistic(
          ids::initialisation_variance, init_key(Quantity::init_encoding_share, d, scheme.scheme),
          "the encoding's share of the input's energy, " + std::string(scheme.name) + ", d = " + std::to_string(d));
      if (v == nullptr || share == nullptr) continue;
      row += std::string(row.empty() ? "" : "; ") + scheme.name + " " + measured_text(*v) + ", the encoding " +
             percent(share->value) + " of the input's energy";
    }
    if (!row.empty()) inits += (inits.empty() ? "" : ". At d = " + std::to_string(d) + ": ") + row;
  }
  if (!inits.empty()) {
    b.paragraph(
        "The unit variance belongs to that initialisation. Measured Var(s*E) with s = sqrt(d), mean and spread "
        "over independent tables of the subject's float32 s*E, at d = 128: " +
        inits + ".");
  }

  const auto tied = b.use(ids::tied_logit_variance, per_format(Quantity::tied_logit_variance, f32),
                          "Var(h.E^T), tied logits, sigma = d^-0.5");
  const auto input = b.use(ids::tied_logit_variance, per_format(Quantity::tied_input_variance, f32),
                           "input variance s^2 sigma^2 with the same table");
  std::string tying =
      "When the embedding matrix is also the output projection (weight tying, section 3.4), its scale "
      "is set for the output: with sigma = d^-0.5 the logits h.E^T have unit variance for |h|^2 = d";
  if (tied) tying += " (measured: " + significant(*tied, 4) + ")";
  tying += ", and the factor sqrt(d) is what brings the same table to unit variance on the input side";
  if (input) tying += " (s^2 sigma^2 = " + significant(*input, 4) + ")";
  b.paragraph(tying +
              ". flax's WMT example reaches the same magnitudes the other way round: sigma = 1, no input scale, "
              "and logits divided by sqrt(d).");

  b.supported(
      "With sigma = d^-0.5, s = sqrt(d) gives the embedding unit variance per component, the same order as the "
      "encoding's 1/2; without it the encoding outweighs the token by a factor of about d/2 in energy.");
  b.supported(
      "The factor pairs with weight tying: one table of standard deviation d^-0.5 serves the output logits as "
      "it is and the input once multiplied by sqrt(d).");
  b.unsupported("That the paper chose the factor for these reasons: it states the multiplication without a reason.");
  b.unsupported(
      "Any effect on training speed or final quality, or what training does to these variances: pecheck "
      "measures the input layer as initialised, not training or trained checkpoints.");
  b.unsupported(
      "That an unscaled token is lost: with the position known it is recovered; the measurement shows a "
      "position-blind nearest-row decoder failing, not what a model learns to do.");

  Finding finding = b.finish();
  if (ratio_plain && lost && kept) {
    finding.short_answer =
        "With the initialisation tensor2tensor and fairseq use (sigma = d^-0.5), multiplying by sqrt(d) gives each "
        "embedding component unit variance and twice the encoding's energy; without it the encoding holds " +
        percent(1.0 / (1.0 + *ratio_plain)) +
        " of the input's energy and a decoder that does not know the position "
        "recovers " +
        percent(*lost) + " of tokens (" + percent(*kept) + " with the scale). The paper gives no reason.";
  }
  if (v_scaled && ratio) {
    finding.key_figure = "Var(s*E) = " + significant(*v_scaled, 4) +
                         " per component in float32 at d = 512 (held to its 1e-9 chi-square interval); energy ratio "
                         "to the encoding " +
                         significant(*ratio, 4) + " (closed form 2).";
  }
  const properties::Statistic* keras = nullptr;
  for (const CheckResult& check : report.checks) {
    if (check.id == ids::initialisation_variance) {
      keras = properties::find_statistic(
          check.outcome, init_key(Quantity::init_scaled_variance, 128, properties::InitScheme::keras_uniform));
    }
  }
  if (keras != nullptr && known) {
    finding.caveat =
        "Unit variance holds only for sigma = d^-0.5: Keras's default uniform(-0.05, 0.05) gives "
        "Var(s*E) = " +
        measured_text(*keras) + " at d = 128, PyTorch's N(0, 1) gives d. And with the position known, " +
        percent(*known) + " of unscaled tokens are recovered.";
  }
  finding.figures = {"scaling-variance-token-recoverability", "energy-ratio"};
  return finding;
}

}  // namespace pecheck::reports::detail
