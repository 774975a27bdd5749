// (a) Why the token embeddings are multiplied by sqrt(d) before the encoding
// is added: what the factor does to the numbers that meet in the sum, under
// the initialisation it was made for and under the ones implementations use.
#include <cmath>
#include <functional>

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

// Matches a statistic's key in one format, whatever sizes it carries.
std::function<bool(const properties::StatisticKey&)> in(FormatId format) {
  return [format](const properties::StatisticKey& key) { return key.format == format; };
}

properties::StatisticKey init_key(Quantity quantity, std::int64_t d, properties::InitScheme scheme) {
  return {quantity, f32, d, 0, {}, scheme, 0.0};
}

// A float32 statistic of the subspace check at the shortest context it
// measured (P = 512 positions at d = 512 today; the sentence reads both from the key).
const properties::Statistic* shortest_context(FindingBuilder& b, Quantity quantity, const std::string& label) {
  std::int64_t shortest = 0;
  for (const properties::StatisticKey& key : b.keys_of(ids::encoding_subspace, quantity)) {
    if (key.format == f32 && (shortest == 0 || key.positions < shortest)) shortest = key.positions;
  }
  return b.use_matching(
      ids::encoding_subspace, quantity,
      [&](const properties::StatisticKey& key) { return key.format == f32 && key.positions == shortest; },
      label + (shortest > 0 ? ", positions 0.." + std::to_string(shortest - 1) : std::string()));
}

// Whether the training family ran in this report (pecheck report --training).
bool trained(const Report& report) { return find_check_result(report, ids::learning_curves) != nullptr; }

// The sweep over s with V = 4096: naive decoders trade token for position as
// s grows; the joint decoder recovers both at every s. Sizes come from the keys.
void recovery_sweep(FindingBuilder& b) {
  const auto at = [&](Quantity quantity, double exponent, const std::string& label) {
    return b.use_matching(
        ids::recovery_sweep, quantity,
        [&](const properties::StatisticKey& key) { return key.format == f32 && key.scale_exponent == exponent; },
        label);
  };
  const properties::Statistic* token_1 = at(Quantity::recovered_token_naive, 0.0, "tokens, naive decoder, s = 1");
  const properties::Statistic* token_root =
      at(Quantity::recovered_token_naive, 0.5, "tokens, naive decoder, s = sqrt(d)");
  const properties::Statistic* position_root =
      at(Quantity::recovered_position_naive, 0.5, "positions, naive decoder, s = sqrt(d)");
  const properties::Statistic* position_d =
      at(Quantity::recovered_position_naive, 1.0, "positions, naive decoder, s = d");
  const properties::Statistic* joint_token = at(Quantity::recovered_token_joint, 0.0, "tokens, joint decoder, s = 1");
  const properties::Statistic* joint_position =
      at(Quantity::recovered_position_joint, 1.0, "positions, joint decoder, s = d");
  if (!token_1 || !token_root || !position_root || !position_d || !joint_token || !joint_position) {
    b.paragraph("Recovery against the scale was not measured in this run (" + b.status(ids::recovery_sweep) + ").");
    return;
  }
  const properties::StatisticKey& key = token_1->key;
  b.paragraph("With a realistic vocabulary (V = " + std::to_string(key.vocabulary) +
              ", d = " + std::to_string(key.dim) + ", positions 0.." + std::to_string(key.positions - 1) +
              ", float32 sums), swept from s = 1 to s = d: tokens recovered by the nearest row of s*E, " +
              measured_percent(*token_1) + " at s = 1 and " + measured_percent(*token_root) +
              " at s = sqrt(d); positions recovered by the nearest row of PE, " + measured_percent(*position_root) +
              " at s = sqrt(d) and " + measured_percent(*position_d) +
              " at s = d. Each naive decoder treats the other term as noise, so raising s trades position for "
              "token. The joint decoder, the (token, position) pair nearest to the sum, recovered every token and "
              "every position at every scale in every draw (" +
              b.status(ids::recovery_sweep) +
              "): the sum loses neither; the scale decides which one a decoder blind to the other can read.");
  b.unsupported(
      "That s = sqrt(d) is the best scale for a trained model: the sweep measures fixed decoders on the "
      "initialised input, and the joint decoder reads both at every s.");
}

}  // namespace

Finding why_scale(const Report& report, const FigureData& data) {
  FindingBuilder b(report, "scale-before-encoding",
                   "(a) Why are the token embeddings multiplied by sqrt(d) before the positional encoding is added?");
  b.paragraph(
      "The paper states the multiplication (section 3.4: the embedding weights are multiplied by sqrt(d_model)) "
      "and gives no reason for it. What this run can show is what the factor does to the numbers that meet "
      "in the sum s*E[t] + PE[p].");

  // The width each number was measured at comes from its key (the checks
  // measure at the paper's d; the sentence follows them if that changes).
  std::int64_t variance_dim = 0, energy_dim = 0;
  const auto float32_value = [&](std::string_view check, Quantity quantity, const std::string& label,
                                 std::int64_t& dim) -> std::optional<double> {
    const properties::Statistic* found = b.use_matching(check, quantity, in(f32), label);
    if (found == nullptr) return std::nullopt;
    dim = found->key.dim;
    return found->value;
  };
  const auto v_scaled = float32_value(ids::unit_variance_sampled, Quantity::scaled_component_variance,
                                      "Var(s*E) per component, sigma = d^-0.5, s = sqrt(d)", variance_dim);
  const auto v_plain = float32_value(ids::unit_variance_sampled, Quantity::unscaled_component_variance,
                                     "Var(E) per component, no scale", variance_dim);
  const auto pe_energy = float32_value(ids::energy_ratio, Quantity::encoding_energy, "mean ||PE(p)||^2", energy_dim);
  auto ratio =
      float32_value(ids::energy_ratio, Quantity::energy_ratio_scaled, "energy ratio with the scale", energy_dim);
  auto ratio_plain =
      float32_value(ids::energy_ratio, Quantity::energy_ratio_unscaled, "energy ratio without the scale", energy_dim);
  if (const auto point = energy_at_512(data); point && (!ratio || !ratio_plain)) {
    ratio = point->first;
    ratio_plain = point->second;
    b.evidence("energy ratio with / without the scale, d = 512",
               significant(*ratio, 4) + " / " + significant(*ratio_plain, 4), "figure energy-ratio");
  }

  const properties::Statistic* column_low = shortest_context(b, Quantity::column_mean_square_min,
                                                              "least mean square of one encoding column");
  const properties::Statistic* column_high = shortest_context(b, Quantity::column_mean_square_max,
                                                               "largest mean square of one encoding column");
  std::string text =
      "With the initialisation tensor2tensor and fairseq use (normal, standard deviation d^-0.5), each "
      "component of E has variance 1/d and each component of s*E has variance s^2/d = 1";
  if (v_scaled && v_plain) {
    text += " (measured in float32 at d = " + std::to_string(variance_dim) + ": " + significant(*v_scaled, 4) +
            " with the scale, " + significant(*v_plain, 4) + " without)";
  }
  text += ". Averaged over its components the encoding has mean square 1/2, since sin^2 + cos^2 = 1 for every "
          "frequency pair";
  if (pe_energy) {
    text +=
        " (measured: ||PE(p)||^2 = " + significant(*pe_energy, 6) + " = d/2 at d = " + std::to_string(energy_dim) + ")";
  }
  if (column_low && column_high) {
    text += "; one column's mean square over positions 0.." + std::to_string(column_low->key.positions - 1) +
            " ranges from " + significant(column_low->value, 3) + " to " + significant(column_high->value, 3) +
            " (d = " + std::to_string(column_low->key.dim) +
            "): the slow columns sit near sin 0 = 0 or cos 0 = 1 over the whole range";
  }
  text += ". Scaled, the token therefore carries about twice the encoding's energy";
  if (ratio && ratio_plain) {
    text += ": the measured ratio E||s e||^2 / ||PE||^2 is " + significant(*ratio, 4) +
            " (expected 2); unscaled it is " + significant(*ratio_plain, 4) +
            " (expected 2/d), so the encoding would hold " + percent(1.0 / (1.0 + *ratio_plain)) +
            " of the input's energy";
  }
  b.paragraph(text + ".");
  if (ratio_plain) {
    // Seed question: why scale before adding? Multiplying the sum instead
    // multiplies both terms by s, so their energy ratio is the unscaled one.
    b.paragraph(
        "Why before adding: scaling the sum, s*(E[t] + PE[p]), multiplies both terms by s and leaves their "
        "energy ratio where it was without any scale (" +
        significant(*ratio_plain, 4) + " measured here, 2/d), so the encoding would still hold " +
        percent(1.0 / (1.0 + *ratio_plain)) +
        " of the input's energy; only a factor on the embedding alone changes the balance between the two.");
  }

  const properties::Statistic* lost =
      b.use_matching(ids::token_recoverability, Quantity::recovered_position_unknown_unscaled, in(f32),
                     "float32: tokens recovered without the scale, position unknown");
  const properties::Statistic* kept =
      b.use_matching(ids::token_recoverability, Quantity::recovered_position_unknown_scaled, in(f32),
                     "float32: tokens recovered with s = sqrt(d), position unknown, least over draws");
  const properties::Statistic* known =
      b.use_matching(ids::token_recoverability, Quantity::recovered_position_known_unscaled, in(f32),
                     "float32: tokens recovered without the scale, position known");
  const properties::Statistic* bf16_lost =
      b.use_matching(ids::token_recoverability, Quantity::recovered_position_unknown_unscaled, in(bf16),
                     "bfloat16: tokens recovered without the scale, position unknown");
  const properties::Statistic* projected = shortest_context(
      b, Quantity::recovered_projected_unscaled,
      "float32: tokens recovered without the scale, position unknown, projected off the encoding's 99% subspace");
  const properties::Statistic* centred = shortest_context(
      b, Quantity::recovered_mean_subtracted_unscaled,
      "float32: tokens recovered without the scale, position unknown, the mean encoding row subtracted");
  double dims = 0.0;  // the subspace's dimension; 0 when not measured
  if (projected) {
    dims = b.use(ids::encoding_subspace,
                 {Quantity::subspace_dimension, f32, projected->key.dim, projected->key.positions, {}},
                 "dimensions holding 99% of the encoding's energy, positions 0.." +
                     std::to_string(projected->key.positions - 1))
               .value_or(0.0);
  }
  const properties::Statistic* bf16_residual =
      b.use_matching(ids::token_recoverability, Quantity::rounding_loss_unscaled, in(bf16),
                     "bfloat16: embedding lost to rounding, no scale (RMS relative)");
  if (lost && kept && known) {
    std::string r =
        "Whether the sum still identifies the token (the nearest row of s*E, the position not known, "
        "d = " +
        std::to_string(lost->key.dim) + " and a vocabulary of " + std::to_string(lost->key.vocabulary) +
        "), tokens recovered: " + percent(kept->value) + " with s = sqrt(d) in every draw, " + measured_percent(*lost) +
        " without the scale in float32";
    if (bf16_lost) r += ", " + measured_percent(*bf16_lost) + " in bfloat16";
    if (bf16_residual)
      r += ", where rounding the unscaled sum loses " + measured_percent(*bf16_residual) + " of the embedding (RMS)";
    r += ". With the position known (PE[p] subtracted before the search), the tokens recovered without the scale "
         "in float32 are " +
         measured_percent(*known) +
         ": the unscaled token is outweighed by the encoding, "
         "not erased by it";
    b.paragraph(r + ".");
    if (projected && centred && dims > 0.0) {
      b.paragraph(
          "That failure is the nearest-row decoder's, not the sum's. A linear decoder that knows only the encoding, "
          "projecting x and E off the " +
          significant(dims, 4) + " dimensions that hold 99% of the encoding's energy over positions 0.." +
          std::to_string(projected->key.positions - 1) + " (d = " + std::to_string(projected->key.dim) +
          ", a vocabulary of " + std::to_string(projected->key.vocabulary) +
          "), recovers " + measured_percent(*projected) +
          " of the unscaled tokens without knowing the position; subtracting the encoding's mean row alone "
          "recovers " +
          measured_percent(*centred) + ".");
    }
  } else {
    b.paragraph("Token recoverability was not measured in this run (" + b.status(ids::token_recoverability) + ").");
  }
  recovery_sweep(b);

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
  const auto gemma = b.use(ids::scale_factor_rounding, per_format(Quantity::scale_at_gemma_width, f32),
                           "float32: sqrt(3072) as the subject rounds it (Gemma's width)");
  if (gemma) {
    b.paragraph(
        "Models with rotary encodings add no encoding to the embedding and still multiply it by sqrt(d): Gemma "
        "does, at d = 3072 by " +
        significant(*gemma, 8) +
        " in float32. There the factor cannot be about the balance with an added encoding; it goes with the tied "
        "embedding table (small enough for the output, scaled up for the input) and sets the residual stream's "
        "scale against the sublayers' outputs.");
  }

  // The opposite failure: PyTorch's N(0, 1) with the scale drowns the position.
  const properties::Statistic* torch_share =
      b.use_statistic(ids::initialisation_variance, init_key(Quantity::init_encoding_share, 512,
                                                             properties::InitScheme::torch_normal),
                      "the encoding's share of the input's energy, PyTorch's N(0, 1) with s = sqrt(d), d = 512");
  if (torch_share) {
    b.paragraph(
        "The failure the scale can cause runs the other way. The framing above asks whether the encoding drowns "
        "the token; with PyTorch's nn.Embedding (N(0, 1)) and the scale, the token drowns the position: the "
        "encoding holds " +
        percent(torch_share->value) +
        " of the input's energy at d = 512. How that shows in learning is measured by the training family "
        "(finding (d)) when it runs.");
  }
  // The optimiser's view: the same forward pass is not the same training.
  b.paragraph(
      "sigma = d^-0.5 with s = sqrt(d) and sigma = 1 without a scale give the same distribution of s*E at "
      "initialisation, but not the same training: Adam moves every parameter by about the learning rate, a step "
      "sqrt(d) times larger relative to a table of standard deviation d^-0.5, and then multiplied by s. The "
      "measurements above are of the initialised input; finding (d) compares the two in training when it runs.");

  b.supported(
      "With sigma = d^-0.5, s = sqrt(d) gives the embedding unit variance per component, the same order as the "
      "encoding's 1/2; without it the encoding outweighs the token by a factor of about d/2 in energy.");
  b.supported(
      "The factor pairs with weight tying: one table of standard deviation d^-0.5 serves the output logits as "
      "it is and the input once multiplied by sqrt(d).");
  b.unsupported("That the paper chose the factor for these reasons: it states the multiplication without a reason.");
  b.unsupported(
      trained(report)
          ? "Effects on training beyond finding (d)'s small models and tasks, or what training does to these "
            "variances in large models: finding (d) trains 2-layer models on synthetic tasks, not checkpoints."
          : "Any effect on training speed or final quality: this run measured the input layer as initialised "
            "(pecheck report --training adds the training family).");
  b.unsupported(
      "That an unscaled token is lost: with the position known it is recovered, and a linear decoder that "
      "projects off the encoding's subspace recovers it without the position; only the position-blind "
      "nearest-row decoder fails.");

  Finding finding = b.finish();
  if (ratio_plain && lost && kept) {
    finding.short_answer =
        "With the initialisation tensor2tensor and fairseq use (sigma = d^-0.5), multiplying by sqrt(d) gives each "
        "embedding component unit variance and twice the encoding's energy; without it the encoding holds " +
        percent(1.0 / (1.0 + *ratio_plain)) +
        " of the input's energy, and the nearest row of E, blind to the position, finds the token for " +
        measured_percent(*lost) + " of the queries (" + percent(kept->value) + " with the scale)" +
        (projected && dims > 0.0 ? "; a linear decoder projecting off the encoding's " + significant(dims, 4) +
                                 "-dimensional subspace recovers " + percent(projected->value) +
                                 " without knowing the position"
                           : std::string()) +
        "." +
        (torch_share ? " With PyTorch's N(0, 1) the same factor leaves the encoding " + percent(torch_share->value) +
                           " of the input's energy at d = 512: the position drowns."
                     : std::string()) +
        " The paper gives no reason.";
  }
  if (v_scaled && ratio) {
    finding.key_figure = "Var(s*E) = " + significant(*v_scaled, 4) +
                         " per component in float32 at d = " + std::to_string(variance_dim) +
                         " (held to its 1e-9 chi-square interval); energy ratio "
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
        measured_text(*keras) +
        " at d = 128, PyTorch's N(0, 1) gives d. And with the position known, the unscaled "
        "tokens recovered are " +
        measured_percent(*known) + ".";
  }
  finding.figures = {"scaling-variance-token-recoverability", "scaling-variance-recovery-sweep", "energy-ratio"};
  return finding;
}

}  // namespace pecheck::reports::detail
