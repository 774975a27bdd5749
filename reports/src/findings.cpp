#include "pecheck/reports/findings.hpp"

#include <cmath>
#include <cstdlib>

#include "finding_builder.hpp"
#include "text_format.hpp"

namespace pecheck::reports {

namespace {

constexpr const char* variance_check = "scaling-variance/unit-variance-sampled";
constexpr const char* energy_check = "scaling-variance/energy-ratio";
constexpr const char* recoverability_check = "scaling-variance/token-recoverability";
constexpr const char* attention_check = "scaling-variance/attention-logit-variance";
constexpr const char* tied_check = "scaling-variance/tied-logit-variance";
constexpr const char* construction_check = "add-vs-concat/construction";
constexpr const char* linearity_check = "add-vs-concat/linearity";
constexpr const char* strictness_check = "add-vs-concat/strictness";
constexpr const char* orthogonality_check = "add-vs-concat/near-orthogonality";
constexpr const char* columns_check = "add-vs-concat/column-energy";
constexpr const char* rotate_measure_check = "rotary/add-concat-rotate";
constexpr const char* rotary_relative_check = "rotary/relative-position";

// The energy-ratio curve at d = 512 (the paper's base model): with and without the scale.
std::optional<std::pair<double, double>> energy_at_512(const FigureData& data) {
  if (!data.energy) return std::nullopt;
  const EnergyRatioCurve& curve = *data.energy;
  for (std::size_t i = 0; i < curve.dims.size(); ++i) {
    if (curve.dims[i] == 512.0) return std::make_pair(curve.with_scale[i], curve.without_scale[i]);
  }
  return std::nullopt;
}

Finding why_scale(const Report& report, const FigureData& data) {
  detail::FindingBuilder b(report, "scale-before-encoding",
                           "(a) Why are the token embeddings multiplied by sqrt(d) before the positional encoding is "
                           "added?");
  b.paragraph(
      "The paper states the multiplication (section 3.4: the embedding weights are multiplied by sqrt(d_model)) "
      "and gives no reason for it. What this run can show is what the factor does to the numbers that meet "
      "in the sum s*E[t] + PE[p].");

  const auto v_scaled =
      b.use(variance_check, "float32: Var(s*E) per component", "Var(s*E) per component, sigma = d^-0.5, s = sqrt(d)");
  const auto v_plain =
      b.use(variance_check, "float32: Var(E) per component without the scale", "Var(E) per component, no scale");
  const auto pe_energy = b.use(energy_check, "float32: mean ||PE(p)||^2", "mean ||PE(p)||^2, d = 512");
  auto ratio = b.use(energy_check, "float32: energy ratio E||s*e||^2 / ||PE||^2 with s = sqrt(d)",
                     "energy ratio with the scale, d = 512");
  auto ratio_plain = b.use(energy_check, "float32: energy ratio E||e||^2 / ||PE||^2 without the scale",
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
  text += ".";
  b.paragraph(text);

  const auto lost = b.use(recoverability_check, "float32: tokens recovered, position unknown, no scale",
                          "float32: tokens recovered without the scale, position unknown");
  const auto kept = b.use(recoverability_check, "float32: tokens recovered, position unknown, s = sqrt(d)",
                          "float32: tokens recovered with s = sqrt(d), position unknown");
  const auto bf16_lost = b.use(recoverability_check, "bfloat16: tokens recovered, position unknown, no scale",
                               "bfloat16: tokens recovered without the scale, position unknown");
  const auto bf16_residual = b.use(recoverability_check, "bfloat16: embedding lost to rounding, no scale",
                                   "bfloat16: embedding lost to rounding, no scale (RMS relative)");
  if (lost && kept) {
    std::string r = "Whether the sum still identifies the token (the nearest row of s*E, the position not known): " +
                    percent(*kept) + " of tokens with s = sqrt(d), " + percent(*lost) + " without the scale in float32";
    if (bf16_lost) r += ", " + percent(*bf16_lost) + " in bfloat16";
    if (bf16_residual)
      r += ", where rounding the unscaled sum loses " + percent(*bf16_residual) + " of the embedding (RMS)";
    b.paragraph(r + ".");
  } else {
    b.paragraph("Token recoverability was not measured in this run (" + b.status(recoverability_check) + ").");
  }

  const auto tied =
      b.use(tied_check, "float32: Var(h.E^T), tied logits, sigma = d^-0.5", "Var(h.E^T), tied logits, sigma = d^-0.5");
  const auto input = b.use(tied_check, "float32: input variance with the same table",
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
  // Widely used initialisations without d^-0.5: the unit variance is specific to it.
  const double d = 512.0;
  b.unsupported("That the paper chose the factor for these reasons: it states the multiplication without a reason.");
  b.unsupported(
      "Any effect on training speed or final quality: pecheck measures the input layer as initialised, not "
      "training.");
  b.unsupported(
      "Unit variance under other initialisations: uniform(-a, a) has variance a^2/3, so at d = 512 the scaled "
      "variance is " +
      significant(d * 0.01 / 3.0, 3) + " for the PyTorch tutorial's a = 0.1 and " + significant(d * 0.0025 / 3.0, 3) +
      " for Keras's default a = 0.05 (arithmetic, not a measurement).");
  return b.finish();
}

Finding does_it_cancel(const Report& report) {
  detail::FindingBuilder b(report, "scale-and-attention",
                           "(b) Does the sqrt(d) embedding scale cancel the 1/sqrt(d_k) of attention?");
  const auto unit =
      b.use(attention_check, "Var(q.k / sqrt(d_k))", "Var(q.k / sqrt(d_k)), unit-variance q and k, d_k = 64");
  const auto x_scaled =
      b.use(attention_check, "float32: component variance of x = s*E + PE", "float32: component variance of s*E + PE");
  const auto x_plain =
      b.use(attention_check, "float32: component variance of x = E + PE", "float32: component variance of E + PE");
  const auto both = b.use(attention_check, "float32: first-layer logit variance, input scaled, / sqrt(d_k)",
                          "float32: logit variance, both scales");
  const auto neither = b.use(attention_check, "float32: first-layer logit variance, input unscaled, no / sqrt(d_k)",
                             "float32: logit variance, neither scale");
  const auto quotient =
      b.use(attention_check, "float32: both scales / neither", "float32: both scales / neither (1 if they cancelled)");

  std::string text =
      "No. The two factors act at different places on different quantities. sqrt(d) multiplies the "
      "token embedding once, before the encoding is added and before any projection. 1/sqrt(d_k) divides "
      "every query-key dot product, in every attention layer, after the projections W_Q and W_K: it "
      "keeps the sum of d_k products at the variance of one product";
  if (unit) text += " (measured: Var(q.k / sqrt(d_k)) = " + significant(*unit, 4) + " for unit-variance components)";
  b.paragraph(text + ".");

  std::string first =
      "Even in the first layer they do not compose to 1. Scaling the input x by c scales q.k by c^2, so "
      "undoing 1/sqrt(d_k) would take c = d_k^(1/4) (" +
      significant(std::pow(64.0, 0.25), 3) + " for d_k = 64), not sqrt(d) (" + significant(std::sqrt(512.0), 4) +
      " for d = 512); and since the encoding is added after the scale, x is not a multiple of E at all";
  if (x_scaled && x_plain) {
    first += ": the measured component variance of x is " + significant(*x_scaled, 4) + " with the scale and " +
             significant(*x_plain, 4) + " without";
  }
  b.paragraph(first + ".");
  if (both && neither && quotient) {
    b.paragraph("Measured on the subject's input layer: the first layer's logit variance is " + significant(*both, 4) +
                " with both scales and " + significant(*neither, 4) + " with neither, a ratio of " +
                significant(*quotient, 4) + " where cancelling would give 1.");
  } else {
    b.paragraph("The first layer's logit variances were not measured in this run (" + b.status(attention_check) + ").");
  }
  b.supported("1/sqrt(d_k) normalises the attention logits for unit-variance components whatever the input scale.");
  b.supported(
      "The input scale changes the variance of the input x (embedding plus encoding); it cannot cancel a "
      "factor applied in every layer to products of projections.");
  b.unsupported(
      "Anything about layers past the first: their inputs come from the previous layer (after its "
      "normalisation), which the embedding scale never touches; pecheck does not model them.");
  b.unsupported(
      "Learned projections: the measurement uses the subject's input layer with random unit-variance "
      "projections, not trained weights.");
  return b.finish();
}

// Question (c) extended to RoPE: adding, concatenating and rotating measured
// side by side on first-layer logits (rotary/add-concat-rotate), with the
// rotation property itself as a check (rotary/relative-position).
void rotate_side_by_side(detail::FindingBuilder& b) {
  const char* ways[] = {"add", "concat", "rotate"};
  std::optional<double> relative[3], interaction[3];
  for (int k = 0; k < 3; ++k) {
    const std::string way = ways[k];
    relative[k] = b.use(rotate_measure_check, way + ": share of the position-driven logit variance that m - n explains",
                        way + ": share of the position-driven logit variance m - n explains");
    interaction[k] = b.use(rotate_measure_check, way + ": share of the logit variance from token x position interaction",
                           way + ": token x position interaction share of the logit variance");
  }
  if (!relative[0] || !relative[1] || !relative[2] || !interaction[0] || !interaction[1] || !interaction[2]) {
    b.paragraph("The rotary comparison (" + b.status(rotate_measure_check) + ") has no figures in this run.");
    b.unsupported("Anything about rotary encodings: the rotary measurement did not run.");
    return;
  }
  b.paragraph(
      "Rotating instead (RoPE) changes what the first layer's logits can depend on. With identity projections, "
      "unit-variance tokens and d = 64, the share of the position-driven logit variance that m - n explains is " +
      significant(*relative[0], 3) + " when the encoding is added, " + significant(*relative[1], 3) +
      " when it is concatenated and " + significant(*relative[2], 3) +
      " when it rotates the tokens: adding leaves cross terms e . PE(n) that depend on absolute positions, "
      "concatenating keeps only PE(m) . PE(n), a function of m - n, and rotating gives q_m . k_n = "
      "q^T R((n - m) theta) k (" +
      b.status(rotary_relative_check) + "). The share of the logit variance that is token x position interaction is " +
      significant(*interaction[0], 3) + " added, " + significant(*interaction[1], 3) + " concatenated and " +
      significant(*interaction[2], 3) +
      " rotated: concatenation separates token and position entirely, so its relative-position term is the same "
      "for every pair of tokens; rotation makes the relative position modulate each token pair's similarity.");
  b.supported("A rotary cache within its ULP budget makes q_m . k_n a function of m - n, exactly up to that budget; "
              "concatenation's logits also depend on m - n alone, but through a term no token can change.");
  b.unsupported("That rotating trains better than adding or concatenating: a claim about learning.");
}

Finding add_or_concat(const Report& report) {
  detail::FindingBuilder b(report, "add-not-concat",
                           "(c) Why is the positional encoding added to the embedding rather than concatenated?");
  b.paragraph(
      "The paper adds the two (section 3.5) and does not discuss concatenating. The add-vs-concat checks test "
      "the argument that adding gives up nothing concatenation offers, and more.");
  const int ran = b.family_evidence(properties::Family::add_vs_concat);
  if (ran == 0) {
    b.paragraph("No add-vs-concat check ran in this run, so this finding has no measurement behind it.");
    b.unsupported("Everything above: no add-vs-concat check ran.");
    return b.finish();
  }
  b.paragraph(
      "Concatenation is a special case of addition: with zero-padded tables, add([E, 0], [0, P]) is "
      "concat(E[t], P[p]) bit for bit (" +
      b.status(construction_check) +
      "), and a linear layer on a "
      "concatenation is the sum of two linear layers, W [e; p] = W_e e + W_p p (" +
      b.status(linearity_check) + "). " + b.family_summary(properties::Family::add_vs_concat));

  const auto splits =
      b.use(strictness_check, "float32: splits d = d_t + d_p", "float32: splits no concatenation reproduces");
  // The family names the width in the statistic: "... (d = 128, 128 tokens / positions)".
  const std::string& splits_name = b.last_statistic_name();
  const std::size_t width_at = splits_name.find("(d = ");
  const std::string width =
      width_at == std::string::npos ? "d" : "d = " + std::to_string(std::atoll(splits_name.c_str() + width_at + 5));
  const auto rank_t = b.use(strictness_check, "float32: rank of token differences",
                            "float32: rank of token differences at a fixed position");
  const auto rank_p = b.use(strictness_check, "float32: rank of position differences",
                            "float32: rank of position differences for a fixed token");
  if (splits && rank_t && rank_p) {
    b.paragraph(
        "Addition is also strictly more general. Differences between tokens at one position span a space of "
        "rank " +
        significant(*rank_t, 6) + " and differences between positions for one token rank " + significant(*rank_p, 6) +
        "; a concatenation with d_t token columns and d_p position columns allows at "
        "most d_t and d_p, so for " +
        significant(*splits, 6) + " of the splits of " + width +
        " into d_t + d_p no concatenation produces these sums.");
  }
  const auto cosine = b.use(orthogonality_check, "float32: largest |cos(s*E[t], PE[p])|",
                            "float32: largest |cos(s*E[t], PE[p])| at the largest d", true);
  const auto quiet = b.use(columns_check, "float32: columns the encoding hardly moves (variance < 1%",
                           "float32: columns the encoding hardly moves, of 512");
  const auto first_share = b.use(columns_check, "float32: share of the encoding's variance in the first quarter",
                                 "float32: the encoding's variance in the first quarter of columns");
  std::string geometry = "Nor does adding force the two to interfere";
  if (cosine) {
    geometry += ": random token embeddings are nearly orthogonal to every encoding row (largest |cos| " +
                significant(*cosine, 3) + ", shrinking as 1/sqrt(d))";
  }
  if (quiet && first_share) {
    geometry += ", and the encoding keeps " + percent(*first_share) +
                " of its variance in the first quarter of the "
                "columns, leaving " +
                significant(*quiet, 6) +
                " of 512 columns where the token passes almost "
                "untouched, as in a concatenation";
  }
  b.paragraph(geometry +
              ". Meanwhile the model stays d wide, where concatenating widens every later projection by the "
              "encoding's width.");
  rotate_side_by_side(b);
  b.supported(
      "Whatever a model computes from concat(E[t], P[p]) it can compute from a sum of zero-padded tables, "
      "exactly, in every format the checks cover; the converse fails for every split of d.");
  b.supported(
      "In high dimension a sum keeps token and position nearly orthogonal without reserving columns for either.");
  b.unsupported(
      "That trained models keep token and position in separate subspaces, or that adding trains better than "
      "concatenating: these are claims about learning, which pecheck does not measure.");
  b.unsupported("The authors' reason: the paper gives none.");
  return b.finish();
}

}  // namespace

std::vector<Finding> write_findings(const Report& report, const FigureData& data) {
  return {why_scale(report, data), does_it_cancel(report), add_or_concat(report)};
}

}  // namespace pecheck::reports
