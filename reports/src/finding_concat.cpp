// (c) Why the encoding is added rather than concatenated: what the superset
// argument covers (learned position tables, not the fixed encoding), and how
// much room the fixed encoding shares with the token as context grows.
#include <algorithm>
#include <optional>

#include "finding_builder.hpp"
#include "finding_parts.hpp"
#include "text_format.hpp"

namespace pecheck::reports::detail {

namespace {

// The width and the shortest and longest context length the subspace check
// measured in float32, read from its statistics' keys: the sentences quote
// these, so a check that sweeps other lengths changes the sentence with it.
struct Contexts {
  std::int64_t dim = 0;
  std::int64_t shortest = 0;
  std::int64_t longest = 0;
};

std::optional<Contexts> measured_contexts(const FindingBuilder& b) {
  std::optional<Contexts> contexts;
  for (const properties::StatisticKey& key : b.keys_of(ids::encoding_subspace, Quantity::subspace_token_share)) {
    if (key.format != f32) continue;
    if (!contexts) contexts = Contexts{key.dim, key.positions, key.positions};
    contexts->shortest = std::min(contexts->shortest, key.positions);
    contexts->longest = std::max(contexts->longest, key.positions);
  }
  return contexts;
}

// A statistic of the subspace check at context length P (positions 0..P-1).
properties::StatisticKey at_context(Quantity quantity, std::int64_t dim, std::int64_t positions) {
  return {quantity, f32, dim, positions, {}, std::nullopt, 0.0};
}

bool trained(const Report& report) { return find_check_result(report, ids::learning_curves) != nullptr; }

// Question (c) extended to RoPE: adding, concatenating and rotating measured
// side by side on first-layer logits (rotary/add-concat-rotate), with the
// rotation property itself as a check (rotary/relative-position).
void rotate_side_by_side(FindingBuilder& b) {
  struct Way {
    const char* name;
    Quantity relative, interaction;
  };
  const Way ways[] = {{"add", Quantity::added_relative_share, Quantity::added_interaction_share},
                      {"concat", Quantity::concatenated_relative_share, Quantity::concatenated_interaction_share},
                      {"rotate", Quantity::rotated_relative_share, Quantity::rotated_interaction_share}};
  std::optional<double> relative[3], interaction[3];
  std::int64_t width = 0;
  const auto any = [](const properties::StatisticKey&) { return true; };
  for (int k = 0; k < 3; ++k) {
    const std::string way = ways[k].name;
    if (const auto* s = b.use_matching(ids::add_concat_rotate, ways[k].relative, any,
                                       way + ": share of the position-driven logit variance m - n explains")) {
      relative[k] = s->value;
      width = s->key.dim;
    }
    if (const auto* s = b.use_matching(ids::add_concat_rotate, ways[k].interaction, any,
                                       way + ": token x position interaction share of the logit variance")) {
      interaction[k] = s->value;
    }
  }
  if (!relative[0] || !relative[1] || !relative[2] || !interaction[0] || !interaction[1] || !interaction[2]) {
    b.paragraph("The rotary comparison (" + b.status(ids::add_concat_rotate) + ") has no figures in this run.");
    b.unsupported("Anything about rotary encodings: the rotary measurement did not run.");
    return;
  }
  b.paragraph(
      "Rotating instead (RoPE) changes what the first layer's logits can depend on. With identity projections, "
      "unit-variance tokens and d = " +
      std::to_string(width) + ", the share of the position-driven logit variance that m - n explains is " +
      significant(*relative[0], 3) + " when the encoding is added, " + significant(*relative[1], 3) +
      " when it is concatenated and " + significant(*relative[2], 3) +
      " when it rotates the tokens: adding leaves cross terms e . PE(n) that depend on absolute positions, "
      "concatenating keeps only PE(m) . PE(n), a function of m - n, and rotating gives q_m . k_n = "
      "q^T R((n - m) theta) k (" +
      b.status(ids::rotary_relative_position) +
      "). The share of the logit variance that is token x position interaction is " + significant(*interaction[0], 3) +
      " added, " + significant(*interaction[1], 3) + " concatenated and " + significant(*interaction[2], 3) +
      " rotated: with identity projections concatenation separates token and position entirely, so its "
      "relative-position term is the same for every pair of tokens; rotation makes the relative position "
      "modulate each token pair's similarity.");
  const properties::Statistic* projected_relative = b.use_matching(
      ids::add_concat_rotate, Quantity::concatenated_relative_share_projected, any,
      "concat, random N(0, 1/d) projections: share of the position-driven logit variance m - n explains");
  const properties::Statistic* projected_interaction = b.use_matching(
      ids::add_concat_rotate, Quantity::concatenated_interaction_share_projected, any,
      "concat, random N(0, 1/d) projections: token x position interaction share");
  if (projected_relative && projected_interaction) {
    b.paragraph(
        "That separation belongs to the identity projections. With random W_q, W_k ~ N(0, 1/d), as a model "
        "starts, concatenation's share explained by m - n is " +
        measured_text(*projected_relative) + " and its interaction share " + measured_text(*projected_interaction) +
        ": after the first projection, concatenation is addition with untied matrices, W [e; p] = W_e e + W_p p (" +
        b.status(ids::linearity) + "), so its logits carry token x position cross terms like an added encoding's.");
  }
  b.supported(
      "A rotary cache within its ULP budget makes q_m . k_n a function of m - n, exactly up to that budget; "
      "with identity projections concatenation's logits also depend on m - n alone, through a term no token "
      "can change.");
  b.unsupported("That rotating trains better than adding or concatenating: a claim about learning.");
}

}  // namespace

Finding add_or_concat(const Report& report) {
  FindingBuilder b(report, "add-not-concat",
                   "(c) Why is the positional encoding added to the embedding rather than concatenated?");
  b.paragraph(
      "The paper adds the two (section 3.5) and does not discuss concatenating. The add-vs-concat checks test "
      "the argument that adding gives up nothing concatenation offers, and more, and measure how much the two "
      "share when they are added.");
  const int ran = b.family_evidence(properties::Family::add_vs_concat);
  if (ran == 0) {
    b.paragraph("No add-vs-concat check ran in this run, so this finding has no measurement behind it.");
    b.unsupported("Everything above: no add-vs-concat check ran.");
    return b.finish();
  }
  b.paragraph(
      "Concatenation is a special case of addition when the position table is learned: with zero-padded tables, "
      "add([E, 0], [0, P]) is concat(E[t], P[p]) bit for bit (" +
      b.status(ids::construction) +
      "), and a linear layer on a concatenation is the sum of two linear layers, W [e; p] = W_e e + W_p p (" +
      b.status(ids::linearity) +
      "). A learned table can learn the zero padding; the fixed sinusoidal encoding cannot, since it is not "
      "zero-padded, so for it the superset argument does not apply. " +
      b.family_summary(properties::Family::add_vs_concat));

  const auto splits =
      b.use_widest(ids::strictness, Quantity::splits_excluded, f32, "float32: splits no concatenation reproduces");
  const std::int64_t strict_dim = b.last_key().dim;
  const std::string width = splits ? "d = " + std::to_string(strict_dim) : "d";
  const auto rank_t = b.use(ids::strictness, properties::at_width(Quantity::token_difference_rank, f32, strict_dim),
                            "float32: rank of token differences at a fixed position");
  const auto rank_p = b.use(ids::strictness, properties::at_width(Quantity::position_difference_rank, f32, strict_dim),
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

  const auto cosine = b.use_widest(ids::near_orthogonality, Quantity::largest_cosine, f32,
                                   "float32: largest |cos(s*E[t], PE[p])| at the largest d");
  const Contexts contexts = measured_contexts(b).value_or(Contexts{});
  const std::string width_text = std::to_string(contexts.dim);
  const std::string short_text = std::to_string(contexts.shortest);
  const std::string long_text = std::to_string(contexts.longest);
  const auto share_at = [&](std::int64_t positions) {
    return b.use_statistic(ids::encoding_subspace, at_context(Quantity::subspace_token_share, contexts.dim, positions),
                           "share of a random token's energy in the encoding's 99% subspace, positions 0.." +
                               std::to_string(positions - 1));
  };
  const auto count_at = [&](Quantity quantity, std::int64_t positions, const std::string& label) {
    return b.use(ids::encoding_subspace, at_context(quantity, contexts.dim, positions),
                 label + ", positions 0.." + std::to_string(positions - 1));
  };
  const bool measured = contexts.dim > 0;
  // A check that held without filing the share throws MissingStatistic here
  // rather than dropping the paragraph quietly.
  if (!measured) {
    b.use_matching(
        ids::encoding_subspace, Quantity::subspace_token_share,
        [](const properties::StatisticKey& key) { return key.format == f32; },
        "share of a random token's energy in the encoding's 99% subspace");
  }
  const properties::Statistic* short_share = measured ? share_at(contexts.shortest) : nullptr;
  const properties::Statistic* long_share = measured ? share_at(contexts.longest) : nullptr;
  const std::string energy_dims = "dimensions holding 99% of the encoding's energy";
  const auto k_short = measured ? count_at(Quantity::subspace_dimension, contexts.shortest, energy_dims) : std::nullopt;
  const auto k_long = measured ? count_at(Quantity::subspace_dimension, contexts.longest, energy_dims) : std::nullopt;
  const std::string rank_label = "numerical rank, tolerance 1e-6";
  const auto rank_short =
      measured ? count_at(Quantity::numerical_rank_float32, contexts.shortest, rank_label) : std::nullopt;
  const auto rank_long =
      measured ? count_at(Quantity::numerical_rank_float32, contexts.longest, rank_label) : std::nullopt;
  const std::string quiet_label = "quiet columns (variance < 1%)";
  const auto quiet_short =
      measured ? count_at(Quantity::quiet_columns_over_context, contexts.shortest, quiet_label) : std::nullopt;
  const auto quiet_long =
      measured ? count_at(Quantity::quiet_columns_over_context, contexts.longest, quiet_label) : std::nullopt;
  const properties::Statistic* cross =
      measured ? b.use_matching(
                     ids::logit_decomposition, Quantity::cross_share_scaled,
                     [&](const properties::StatisticKey& key) { return key.format == f32 && key.dim == contexts.dim; },
                     "token x position share of the first-layer logit variance, s = sqrt(d), d = " + width_text)
               : nullptr;
  const auto mean_short = measured ? count_at(Quantity::mean_row_energy_share, contexts.shortest,
                                              "the mean row's share of the encoding's energy")
                                     : std::nullopt;
  const auto mean_long = measured ? count_at(Quantity::mean_row_energy_share, contexts.longest,
                                             "the mean row's share of the encoding's energy")
                                  : std::nullopt;
  const std::string varying_label = "token x position-varying share of the logit variance, (1 - m) 4/9";
  const auto varying_short =
      measured ? count_at(Quantity::cross_varying_share_closed, contexts.shortest, varying_label) : std::nullopt;
  const auto varying_long =
      measured ? count_at(Quantity::cross_varying_share_closed, contexts.longest, varying_label) : std::nullopt;
  // Built here, where the optional is plainly set (GCC 12 warns maybe-uninitialized in the ternary below).
  std::string without_mean_row;
  if (varying_short.has_value()) {
    without_mean_row = ", " + percent(varying_short.value()) + " without the encoding's mean row at " +
                       std::to_string(contexts.shortest) + " positions";
  }
  const bool shared = measured && short_share && long_share && k_short && k_long && rank_short && rank_long &&
                      quiet_short && quiet_long;
  if (shared) {
    std::string text = "Adding does make the two share room. ";
    if (cosine) {
      text += "Each random token embedding is nearly orthogonal to each single encoding row (largest |cos| " +
              significant(*cosine, 3) +
              " at the largest d measured), but the rows together fill a subspace that "
              "grows with the context: over positions 0.." +
              std::to_string(contexts.shortest - 1) + " (d = " + width_text + ") " + significant(*k_short, 4) +
              " dimensions hold 99% of the encoding's energy (numerical rank " + significant(*rank_short, 4) +
              " at tolerance 1e-6), over 0.." + std::to_string(contexts.longest - 1) + " " + significant(*k_long, 4) +
              " (rank " + significant(*rank_long, 4) + "). ";
    }
    text += "A random token has " + measured_percent(*short_share) + " of its energy inside that subspace at " +
            short_text + " positions and " + measured_percent(*long_share) + " at " + long_text +
            ". The columns the encoding leaves quiet (variance below 1% of "
            "the scaled embedding's) fall from " +
            significant(*quiet_short, 4) + " of " + width_text + " at " + short_text + " positions to " +
            significant(*quiet_long, 4) + " at " + long_text;
    if (cross) {
      text += "; and in the first layer's logits at initialisation, token x position cross terms carry " +
              measured_percent(*cross) + " of the variance";
    }
    b.paragraph(text + ".");
    if (cross && mean_short && mean_long && varying_short && varying_long) {
      b.paragraph(
          "Those cross terms count the whole encoding as position, but part of it is the same at every position: "
          "the mean row holds " +
          percent(*mean_short) + " of the encoding's energy over " + short_text + " positions and " +
          percent(*mean_long) + " over " + long_text +
          ". Against a token it acts as a fixed bias, not as position. Without it the token x position-varying "
          "share of the first-layer logit variance is (1 - m) 4/9: " +
          percent(*varying_short) + " at " + short_text + " positions, " + percent(*varying_long) + " at " +
          long_text + " (the closed form with the measured m). TUPE (Ke et al. 2020) acts on exactly these cross "
          "terms: it computes word and position correlations with separate projections and drops the token x "
          "position ones.");
    }
  } else {
    b.paragraph("How much room the encoding shares with the token was not measured in this run (" +
                b.status(ids::encoding_subspace) + ").");
  }
  b.paragraph(
      "Meanwhile the model stays d wide, where concatenating widens every later projection by the "
      "encoding's width.");
  rotate_side_by_side(b);
  b.paragraph(
      "What trained position tables learn is measured by Wang and Chen 2020 (What do position embeddings learn?); "
      "this report does not read trained checkpoints.");
  b.supported(
      "At the same total width d = d_t + d_p, whatever a model computes from concat(E[t], P[p]) it can compute "
      "from a sum of zero-padded tables, exactly, in every format the checks cover, when the position table is "
      "learned; the converse fails for every split of d.");
  b.supported("A random token is nearly orthogonal to any one encoding row, |cos| shrinking as 1/sqrt(d).");
  b.unsupported(
      "That adding is a superset of concatenating for the fixed sinusoidal encoding: it is not zero-padded, so "
      "the construction does not apply to it.");
  b.unsupported(
      std::string("That the two do not interfere: the measured subspace overlap and cross terms say they do share "
                  "room. ") +
      (trained(report) ? "How adding and concatenating compare in training is finding (d)'s, on small models and "
                         "synthetic tasks only."
                       : "Whether adding trains better than concatenating was not measured in this run (pecheck "
                         "report --training measures it on small models)."));
  b.unsupported("The authors' reason: the paper gives none.");

  Finding finding = b.finish();
  if (shared) {
    finding.short_answer =
        "At the same total width, adding can express anything concatenating can, and strictly more, when the "
        "position table is learned "
        "(zero-padded tables give concatenation exactly); for the fixed sinusoidal encoding that argument does not "
        "apply. Added, the two share room: a random token has " +
        percent(short_share->value) + " of its energy in the encoding's 99% subspace at " + short_text +
        " positions, " + percent(long_share->value) + " at " + long_text + ".";
    finding.key_figure =
        "Token energy in the encoding's 99% subspace: " + measured_percent(*short_share) + " at " + short_text +
        " positions, " + measured_percent(*long_share) + " at " + long_text + " (d = " + width_text + ")" +
        (cross ? "; token x position terms " + measured_percent(*cross) + " of the first-layer logit variance" +
                     without_mean_row
               : std::string()) +
        ".";
    finding.caveat = trained(report)
                         ? "Training is measured on small models and synthetic tasks only (finding (d))."
                         : "Whether adding trains better than concatenating was not measured in this run "
                           "(pecheck report --training).";
  }
  finding.figures = {"add-vs-concat-encoding-subspace"};
  return finding;
}

}  // namespace pecheck::reports::detail
