// Where the other scales come in: attention's 1/sqrt(d_k), which the input
// scale sqrt(d) does not cancel, and tied output logits h E^T, whose unit
// variance is what sigma = d^-0.5 buys and what the input's sqrt(d) then
// repairs (the weight-sharing answer to the scaling question).
#include <Eigen/Dense>

#include <cmath>
#include <string>
#include <vector>

#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/generators.hpp"
#include "pecheck/properties/tail_bounds.hpp"
#include "scaling_checks.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties::scaling {

namespace {

using scaling_support::format_number;
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

RowMatrix as_matrix(const Table& table) {
  const std::vector<double> values = table_doubles(table);
  return Eigen::Map<const RowMatrix>(values.data(), table.rows, table.cols);
}

RowMatrix gaussian_matrix(std::uint64_t seed, std::int64_t rows, std::int64_t cols, double sigma) {
  return as_matrix(gen::gaussian_table(seed, rows, cols, sigma, FormatId::float64));
}

// ---- attention logits -------------------------------------------------------

// q, k iid N(0, I_dk): given q, q.k ~ N(0, |q|^2), so L = q.k / sqrt(dk) is
// a_m Z^2-distributed with a_m = |q_m|^2 / dk known once q is drawn: sum L^2
// lies in the weighted chi-square interval around A = sum a_m (probability
// 1 - delta/2), and dk A = sum |q_m|^2 is chi-square(M dk), so A / M lies in its
// interval (probability 1 - delta/2). Together, with probability 1 - delta:
//   mean L^2 in [chi.lower - 2 |a|_2 sqrt(t) / M,  chi.upper + (2 |a|_2 sqrt(t) + 2 max a t) / M].
Interval unit_logit_interval(const Eigen::VectorXd& a, std::int64_t dk, double delta) {
  const auto m = static_cast<double>(a.size());
  const Interval chi = chi_square_mean_interval(m * static_cast<double>(dk), delta / 2);
  const Interval given_q = weighted_chi_square_interval(a.sum(), a.norm(), a.maxCoeff(), delta / 2);
  return {chi.lower - (a.sum() - given_q.lower) / m, chi.upper + (given_q.upper - a.sum()) / m};
}

Outcome run_attention_logits(const Subject& subject, const RunConfig& config) {
  Outcome outcome;
  const std::uint64_t seed = scaling_support::seed_of(config);
  outcome.seed = seed;
  const std::int64_t dk = 64;

  // (a) the claim of Vaswani et al. section 3.2.1, for unit-variance components.
  const std::int64_t logits = scaling_support::sized(config, 20000, 40000, 400000);
  const RowMatrix q = gaussian_matrix(scaling_support::stream_seed(seed, 400), logits, dk, 1.0);
  const RowMatrix k = gaussian_matrix(scaling_support::stream_seed(seed, 401), logits, dk, 1.0);
  const Eigen::VectorXd dots = q.cwiseProduct(k).rowwise().sum();
  const double unit = dots.squaredNorm() / static_cast<double>(logits) / static_cast<double>(dk);
  const Eigen::VectorXd a = q.rowwise().squaredNorm() / static_cast<double>(dk);
  const Interval bound = unit_logit_interval(a, dk, false_alarm_probability);
  scaling_support::hold_within(
      outcome, with_head_dim(key_of(Quantity::unit_logit_variance), dk),
      "Var(q.k / sqrt(d_k)), q and k with unit-variance components, d_k = " + std::to_string(dk), unit, bound,
      std::to_string(logits) + " logits; Laurent-Massart bound, false alarm < 1e-9");
  scaling_support::hold_within(outcome, key_of(Quantity::unit_logit_variance_undivided),
                               "Var(q.k) without 1/sqrt(d_k), same draws", unit * dk,
                               {bound.lower * dk, bound.upper * dk}, "d_k = " + std::to_string(dk));
  outcome.cases += logits;

  // (b) the first layer's logits from the subject's own input layer, with and
  // without the sqrt(d) input scale and the 1/sqrt(d_k) attention scale.
  if (subject.capabilities().embedding_operations) {
    const std::int64_t d = 512;
    const std::int64_t tokens = 512;
    const FormatId id = scaling_support::formats_of(subject, false).empty() ? FormatId::float64
                                                                    : scaling_support::formats_of(subject, false).front();
    const Table embeddings = gen::gaussian_table(scaling_support::stream_seed(seed, 402), tokens, d,
                                                 1.0 / std::sqrt(static_cast<double>(d)), id);
    const Table encoding = subject.encoding_table(scaling_support::paper_convention(), {tokens, d, 0}, id);
    std::vector<std::int64_t> positions(static_cast<std::size_t>(tokens));
    for (std::size_t p = 0; p < positions.size(); ++p) positions[p] = static_cast<std::int64_t>(p);
    // W_q, W_k ~ N(0, 1/d): each projected component has the variance |x|^2 / d.
    const RowMatrix wq = gaussian_matrix(scaling_support::stream_seed(seed, 403), dk, d, 1.0 / std::sqrt(static_cast<double>(d)));
    const RowMatrix wk = gaussian_matrix(scaling_support::stream_seed(seed, 404), dk, d, 1.0 / std::sqrt(static_cast<double>(d)));
    const auto logit_variance = [&](const RowMatrix& x, bool attention_scale) {
      const Eigen::MatrixXd g = (x * wq.transpose()) * (x * wk.transpose()).transpose();
      const double off_diagonal = g.squaredNorm() - g.diagonal().squaredNorm();
      const double mean_square = off_diagonal / static_cast<double>(tokens * (tokens - 1));
      return attention_scale ? mean_square / static_cast<double>(dk) : mean_square;
    };
    // Its expectation over W_q and W_k: q = W_q x_i and k = W_k x_j are
    // independent N(0, |x|^2/d I_dk), so E (q.k)^2 = d_k |x_i|^2 |x_j|^2 / d^2;
    // the measured mean over pairs shares one W_q, W_k and scatters around it.
    const auto expected_variance = [&](const RowMatrix& x) {
      const Eigen::VectorXd norms = x.rowwise().squaredNorm() / static_cast<double>(d);
      const double sum = norms.sum();
      return (sum * sum - norms.squaredNorm()) / static_cast<double>(tokens * (tokens - 1));
    };
    const double s = subject.embedding_scale(d, id);
    const RowMatrix scaled = as_matrix(scaling_support::sums(subject, embeddings, encoding, positions, s, id));
    const RowMatrix unscaled = as_matrix(scaling_support::sums(subject, embeddings, encoding, positions, 1.0, id));
    const auto component_variance = [&](const RowMatrix& x) {
      return x.squaredNorm() / static_cast<double>(x.rows() * x.cols());
    };
    const double v_scaled = component_variance(scaled);
    const double v_unscaled = component_variance(unscaled);
    const std::string f(format_of(id).name);
    const std::string expected = "expectation over W_q, W_k: ";
    const double e_scaled = expected_variance(scaled);
    const double e_unscaled = expected_variance(unscaled);
    const double both = logit_variance(scaled, true);
    const double neither = logit_variance(unscaled, false);
    const double input_only = logit_variance(unscaled, true);
    const auto add = [&](Quantity quantity, const std::string& name, double value, const std::string& note) {
      outcome.statistics.push_back(scaling_support::statistic(per_format(quantity, id), f + ": " + name, value,
                                                              std::nullopt, std::nullopt, note));
    };
    add(Quantity::input_variance_scaled, "component variance of x = s*E + PE, s = sqrt(d), d = 512", v_scaled,
        "1 + 1/2 (embedding + encoding)");
    add(Quantity::input_variance_unscaled, "component variance of x = E + PE, no scale", v_unscaled,
        "1/d + 1/2: the encoding dominates");
    add(Quantity::logit_variance_both_scales, "first-layer logit variance, input scaled, / sqrt(d_k)", both,
        expected + format_number(e_scaled));
    add(Quantity::logit_variance_input_scale_only, "first-layer logit variance, input scaled, no / sqrt(d_k)",
        logit_variance(scaled, false), expected + format_number(e_scaled * dk));
    add(Quantity::logit_variance_attention_scale_only, "first-layer logit variance, input unscaled, / sqrt(d_k)",
        input_only, expected + format_number(e_unscaled));
    add(Quantity::logit_variance_neither_scale, "first-layer logit variance, input unscaled, no / sqrt(d_k)", neither,
        expected + format_number(e_unscaled * dk));
    add(Quantity::input_scale_logit_factor, "factor the sqrt(d) input scale puts on the logit variance",
        both / input_only,
        "expected " + format_number(e_scaled / e_unscaled) + ": set by d and the encoding, not by d_k");
    add(Quantity::attention_scale_logit_factor, "factor 1/sqrt(d_k) puts on the logit variance",
        1.0 / static_cast<double>(dk), "1/d_k = 1/64 exactly");
    add(Quantity::both_over_neither, "both scales / neither (1 if sqrt(d) cancelled 1/sqrt(d_k))", both / neither,
        "expected " + format_number(e_scaled / (e_unscaled * static_cast<double>(dk))));
    outcome.cases += tokens * (tokens - 1);
  }
  if (outcome.verdict == Verdict::held) {
    outcome.message = "q.k/sqrt(d_k) has unit variance for unit-variance components; the sqrt(d) input scale acts on "
                      "the input's variance, 1/sqrt(d_k) on the sum over d_k products: they do not cancel";
  }
  return outcome;
}

// ---- tied output logits -----------------------------------------------------

// Given h with |h|^2 = d, z_t = h.E_t ~ N(0, sigma^2 d) iid over the rows t of
// an exact Gaussian table, so sum z_t^2 / (sigma^2 d) is chi-square(V). The
// table the subject's format holds is E' = round(E): |E' - E|_F <= u |E|_F
// + eta sqrt(V d), hence |z' - z| <= |h| |E' - E|_F =: D and sqrt(sum z'^2)
// is within D of sqrt(sum z^2); |E|_F <= (|E'|_F + eta sqrt(V d)) / (1 - u).
// Double's own rounding: each dot product of d terms is off by at most
// gamma_d sum_c |h_c| |E'_tc|, together at most gamma_d |h| |E'|_F (Cauchy-
// Schwarz), added to D; the sum of V squares is off by gamma_V relative.
Interval tied_interval(const Table& stored, double h_norm, double sigma_squared_d, double delta) {
  const Format& format = format_of(stored.format);
  const double u = scaling_support::unit_roundoff(format);
  const double eta_term = scaling_support::underflow_error(format) * std::sqrt(static_cast<double>(static_cast<std::size_t>(stored.size())));
  const double stored_norm = std::sqrt(scaling_support::mean_square(table_doubles(stored)) * static_cast<double>(static_cast<std::size_t>(stored.size())));
  const double exact_norm_bound = (stored_norm + eta_term) / (1 - u);
  const double double_u = std::ldexp(1.0, -53);
  const double drift = h_norm * (u * exact_norm_bound + eta_term) +
                       gamma_n(static_cast<double>(stored.cols), double_u) * h_norm * stored_norm;
  const auto v = static_cast<double>(stored.rows);
  const Interval chi = chi_square_mean_interval(v, delta);
  const double g = gamma_n(v + 4, double_u);
  return {std::pow(std::max(0.0, std::sqrt(sigma_squared_d * chi.lower * v) - drift), 2) / v * (1 - g),
          std::pow(std::sqrt(sigma_squared_d * chi.upper * v) + drift, 2) / v * (1 + g)};
}

Outcome run_tied_logits(const Subject& subject, const RunConfig& config) {
  Outcome outcome;
  const std::uint64_t seed = scaling_support::seed_of(config);
  outcome.seed = seed;
  const std::int64_t d = 128;
  const std::int64_t vocab = scaling_support::sized(config, 8192, 16384, 131072);
  std::vector<FormatId> formats = scaling_support::formats_of(subject, false);
  if (formats.empty()) formats.push_back(FormatId::float32);
  const double delta = false_alarm_probability / static_cast<double>(formats.size() + 1);

  // h: a hidden state with unit RMS, as a final RMSNorm/LayerNorm leaves it: |h|^2 = d.
  Eigen::VectorXd h = gaussian_matrix(scaling_support::stream_seed(seed, 500), 1, d, 1.0).row(0).transpose();
  h *= std::sqrt(static_cast<double>(d)) / h.norm();
  const auto mean_logit_square = [&](const Table& table, double divide) {
    const Eigen::VectorXd z = as_matrix(table) * h / divide;
    return z.squaredNorm() / static_cast<double>(table.rows);
  };
  for (std::size_t k = 0; k < formats.size(); ++k) {
    const std::string f(format_of(formats[k]).name);
    const Table e = gen::gaussian_table(scaling_support::stream_seed(seed, 501 + k), vocab, d,
                                        1.0 / std::sqrt(static_cast<double>(d)), formats[k]);
    scaling_support::hold_within(outcome, per_format(Quantity::tied_logit_variance, formats[k]),
                                 f + ": Var(h.E^T), tied logits, sigma = d^-0.5, |h|^2 = d", mean_logit_square(e, 1.0),
                                 tied_interval(e, h.norm(), 1.0, delta),
                                 std::to_string(vocab) + " logits, d = 128; false alarm < 1e-9");
    outcome.cases += vocab;
  }
  // flax's choice, sigma = 1: logits of variance d unless divided by sqrt(d), which flax does.
  const Table flax = gen::gaussian_table(scaling_support::stream_seed(seed, 510), vocab, d, 1.0, FormatId::float32);
  const double flax_raw = mean_logit_square(flax, 1.0);
  scaling_support::hold_within(outcome, per_format(Quantity::flax_logit_variance, FormatId::float32),
                               "float32: Var(h.E^T) with sigma = 1 (flax init), no division", flax_raw,
                               tied_interval(flax, h.norm(), static_cast<double>(d), delta), "d = 128");
  outcome.statistics.push_back(
      scaling_support::statistic(per_format(Quantity::flax_logit_variance_divided, FormatId::float32),
                                 "float32: Var(h.E^T / sqrt(d)) with sigma = 1 (flax wmt)",
                                 flax_raw / static_cast<double>(d), std::nullopt, std::nullopt, "1"));
  outcome.cases += vocab;
  if (subject.capabilities().embedding_operations) {
    for (FormatId id : formats) {
      const double s = subject.embedding_scale(d, id);
      outcome.statistics.push_back(scaling_support::statistic(
          per_format(Quantity::tied_input_variance, id),
          std::string(format_of(id).name) + ": input variance with the same table, s^2 sigma^2 = s^2 / d",
          s * s / static_cast<double>(d), std::nullopt, std::nullopt,
          "1: sigma = d^-0.5 serves the output, sqrt(d) restores the input"));
    }
  }
  if (outcome.verdict == Verdict::held) {
    outcome.message = "with tied weights, sigma = d^-0.5 gives unit-variance output logits and sqrt(d) gives "
                      "unit-variance inputs; flax reaches the same with sigma = 1 and logits divided by sqrt(d)";
  }
  return outcome;
}

}  // namespace

const CheckDefinition attention_logit_check{
    .id = check_ids::attention_logit_variance,
    .family = Family::scaling_variance,
    .short_claim = "inputScaleDoesNotCancelKeyScale",
    .claim =
        "q.k / sqrt(d_k) has unit variance for unit-variance components (d_k without the division), and the "
        "sqrt(d) input scale does not cancel 1/sqrt(d_k): the first layer's logit variance with both scales, "
        "either and neither, from the subject's input layer.",
    .source =
        "Vaswani et al. 2017, section 3.2.1; the report's questions (a) and (b) (does sqrt(d) cancel 1/sqrt(d_k)?)",
    .kind = CheckKind::measurement,
    // Its bounded statistics use only the checker's own Gaussian draws: no subject fault moves them.
    .catches = {},
    .run = run_attention_logits,
};

const CheckDefinition tied_logit_check{
    .id = check_ids::tied_logit_variance,
    .family = Family::scaling_variance,
    .short_claim = "tiedOutputLogitsHaveUnitVariance",
    .claim =
        "Tied output logits h.E^T have unit variance for |h|^2 = d when sigma = d^-0.5 (and variance d when "
        "sigma = 1, as flax initialises, which divides the logits by sqrt(d)).",
    .source = "Vaswani et al. 2017, section 3.4 (shared embedding and pre-softmax weights); CONVENTIONS.md, flax wmt",
    .kind = CheckKind::measurement,
    // h and E are the checker's draws; one bound is the other times 64: no subject fault moves them.
    .catches = {},
    .run = run_tied_logits,
};

}  // namespace pecheck::properties::scaling
