#include "input_layer_scale.hpp"
#include "input_layer_expected.hpp"
#include "pecheck/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace pecheck::validate {

namespace {

// How many standard deviations "equal" allows. The estimate's error is a sum
// of many independent roundings, so by the central limit theorem it is
// close to normal: a correct scale lands beyond 6 sigma with probability
// P(|Z| > 6) = 2.0e-9.
constexpr double sigmas = 6.0;

}  // namespace

double ulp_in(double v, const Format& format) {
  if (!std::isfinite(v)) return 0.0;  // a NaN or infinity has no rounding error to model
  const int exponent = v == 0.0 ? format.min_exponent : std::max(std::ilogb(v), format.min_exponent);
  return std::ldexp(1.0, exponent - (format.precision - 1));
}

double held_scale(double value, FormatId activations) {
  return activations == FormatId::float64 ? value : round_to_format(value, format_of(FormatId::float32));
}

std::vector<ScaleCandidate> scale_candidates(std::int64_t dim) {
  const double d = static_cast<double>(dim);
  const double root = std::sqrt(d);  // correctly rounded to float64 (IEEE sqrt)
  return {
      {root, "sqrt(d)", true},
      {round_to_format(root, format_of(FormatId::float32)), "sqrt(d) rounded to float32", true},
      {round_to_format(root, format_of(FormatId::bfloat16)), "sqrt(d) rounded to bfloat16", false},
      {round_to_format(root, format_of(FormatId::float16)), "sqrt(d) rounded to float16", false},
      {1.0, "sqrt(d) missing", false},
      {d, "sqrt(d) applied twice", false},
      {1.0 / root, "divided by sqrt(d) instead of multiplied", false},
  };
}

// The estimate's spread, as a description only. Were the output's roundings
// d_i independent, uniform on +-ulp_a(x_i)/2, then
//   sigma^2 = sum e_c,i^2 ulp_a(x_i)^2 / 12 / S^2
// (with a known encoding, plus ulp_a(PE_i)^2 / 12 for PE's own rounding).
// They are not independent of E (input_layer_expected.cpp), so 6 sigma only
// describes how precisely an unmatched scale was measured; whether a
// candidate fits is decided by its expected estimate.
// The estimate itself is summed in long double (unit roundoff u_L: 2^-64 on
// x86-64, 2^-113 on AArch64, 2^-53 where long double is double): recursive
// summation of n terms errs by at most n u_L relative (Higham, Accuracy and
// Stability, section 4.2), so every tolerance is at least 2 n u_L |s_hat|
// (numerator and denominator), and the expected estimates' sums twice that.
ScaleEstimate estimate_scale(const InputTokens& tokens) {
  const TableView& vocabulary = tokens.vocabulary;
  const TableView& output = tokens.output;
  const std::int64_t dim = vocabulary.cols();
  const auto x_at = [&](std::size_t k, std::int64_t c) { return output.at(static_cast<std::int64_t>(k), c); };
  std::map<std::int64_t, std::vector<std::size_t>> groups;  // position -> tokens
  for (std::size_t k = 0; k < tokens.ids.size(); ++k) groups[tokens.positions[k]].push_back(k);

  ScaleEstimate estimate;
  estimate.activation_format = tokens.activation_format;
  const Format& format = format_of(tokens.activation_format);
  const std::vector<ScaleCandidate> candidates = scale_candidates(dim);
  // Accumulated in long double (see the summation floor above).
  using Wide = long double;
  Wide numerator = 0.0L, denominator = 0.0L, variance = 0.0L;
  std::vector<ScaleGroup> used;
  std::int64_t terms = 0;
  std::vector<Wide> mean_e(static_cast<std::size_t>(dim)), mean_x(static_cast<std::size_t>(dim));
  const Table* known = tokens.known_encoding;
  estimate.against_known_encoding = known != nullptr;
  for (const auto& [position, members] : groups) {
    const bool distinct = std::any_of(members.begin(), members.end(),
                                      [&](std::size_t k) { return tokens.ids[k] != tokens.ids[members[0]]; });
    if (!distinct && known == nullptr) continue;
    estimate.positions += 1;
    used.push_back({position, members});
    estimate.tokens += static_cast<std::int64_t>(members.size());
    std::fill(mean_e.begin(), mean_e.end(), 0.0L);
    std::fill(mean_x.begin(), mean_x.end(), 0.0L);
    const Wide n = static_cast<Wide>(members.size());
    for (std::int64_t c = 0; c < dim && known != nullptr; ++c) {
      // The known PE takes the place of the group mean: x - PE = s E + d.
      mean_x[static_cast<std::size_t>(c)] = known->at(position - tokens.known_first, c);
    }
    for (const std::size_t k : members) {
      for (std::int64_t c = 0; c < dim && known == nullptr; ++c) {
        mean_e[static_cast<std::size_t>(c)] += vocabulary.at(tokens.ids[k], c) / n;
        mean_x[static_cast<std::size_t>(c)] += x_at(k, c) / n;
      }
    }
    for (const std::size_t k : members) {
      for (std::int64_t c = 0; c < dim; ++c) {
        const double e = vocabulary.at(tokens.ids[k], c);
        const double x = x_at(k, c);
        const Wide e_c = e - mean_e[static_cast<std::size_t>(c)];
        numerator += (x - mean_x[static_cast<std::size_t>(c)]) * e_c;
        denominator += e_c * e_c;
        const double ulp_x = ulp_in(x, format);
        variance += e_c * e_c * ulp_x * ulp_x / 12.0L;
        if (known != nullptr) {
          // The implementation's PE may differ from the known one by its own rounding to a.
          const double ulp_pe = ulp_in(static_cast<double>(mean_x[static_cast<std::size_t>(c)]), format);
          variance += e_c * e_c * ulp_pe * ulp_pe / 12.0L;
        }
        terms += 1;
      }
    }
  }
  if (!(denominator > 0.0)) {
    throw ValidationInputError(
        "no position holds two tokens with different embeddings, so the scale cannot be told apart from the "
        "positional encoding (x = s E[id] + PE[pos] fits any s with some PE); expected at least two sequences "
        "whose token ids differ at the same positions, or the convention, to fit s against its encoding");
  }
  estimate.value = static_cast<double>(numerator / denominator);
  estimate.sigma = static_cast<double>(std::sqrt(variance) / denominator);
  const double unit_roundoff = std::numeric_limits<Wide>::epsilon() / 2;
  const double summation_floor = 2.0 * static_cast<double>(terms) * unit_roundoff * std::abs(estimate.value);
  estimate.tolerance = std::max(sigmas * estimate.sigma, summation_floor);
  estimate.fits = expected_estimates(tokens, used, candidates, denominator, estimate.value);
  // A fit is judged in doubles: |s_hat - expected| <= tolerance, with
  // expected = s_hat - m / S and tolerance = b / S each rounded to a double.
  // The two estimates are close, so their difference is exact, but rounding
  // expected may put it half an ulp of s_hat past m / S, and b / S may round
  // down by half an ulp of itself (b <= |s_hat| S here, or the fit is moot).
  // Where every disagreement is as large as allowed (m = b) that failed a
  // fit exact arithmetic holds (a float32 layer, d = 8, 2 x 4 tokens, s E
  // rounded first: off 1.6229604e-08 against 1.62296e-08, found by
  // InputLayerRoundingProperty). One ulp of s_hat covers both.
  const double magnitude = std::abs(estimate.value);
  const double judged_in_doubles = std::nextafter(magnitude, std::numeric_limits<double>::infinity()) - magnitude;
  for (CandidateFits& fits : estimate.fits) {
    fits.fused.tolerance += 2.0 * summation_floor + judged_in_doubles;
    fits.product_rounded.tolerance += 2.0 * summation_floor + judged_in_doubles;
  }
  return estimate;
}

ScaleDiagnosis diagnose_scale(const ScaleEstimate& estimate, std::int64_t dim) {
  ScaleDiagnosis diagnosis;
  diagnosis.estimate = estimate;
  diagnosis.sqrt_d = std::sqrt(static_cast<double>(dim));
  struct Fit {
    ScaleCandidate candidate;
    ScaleFit fit;
    double distance;
    bool product_rounded;
  };
  std::vector<Fit> within;
  const std::vector<ScaleCandidate> candidates = scale_candidates(dim);
  for (std::size_t j = 0; j < candidates.size() && j < estimate.fits.size(); ++j) {
    const ScaleFit& fused = estimate.fits[j].fused;
    const ScaleFit& rounded = estimate.fits[j].product_rounded;
    // Each form is judged by its own tolerance; the nearer of the forms that fit names the match.
    const double fused_off = std::abs(estimate.value - fused.expected);
    const double rounded_off = std::abs(estimate.value - rounded.expected);
    const bool fused_fits = fused_off <= fused.tolerance, rounded_fits = rounded_off <= rounded.tolerance;
    if (!fused_fits && !rounded_fits) continue;
    const bool use_rounded = rounded_fits && (!fused_fits || rounded_off < fused_off);
    const Fit fit{candidates[j], use_rounded ? rounded : fused, use_rounded ? rounded_off : fused_off, use_rounded};
    // The first listed names a value several candidates share as the layer holds it.
    const FormatId activations = estimate.activation_format;
    const bool seen = std::any_of(within.begin(), within.end(), [&](const Fit& f) {
      return held_scale(f.candidate.value, activations) == held_scale(fit.candidate.value, activations);
    });
    if (!seen) within.push_back(fit);
  }
  const std::string root = significant(diagnosis.sqrt_d, 6);
  if (within.empty()) {
    diagnosis.sentence = "a scale that is none of the known faults: " + significant(estimate.value, 6) + " instead of " + root;
    return diagnosis;
  }
  std::stable_sort(within.begin(), within.end(), [](const Fit& a, const Fit& b) { return a.distance < b.distance; });
  const Fit& best = within.front();
  diagnosis.match = best.candidate;
  diagnosis.product_rounded = best.product_rounded;
  diagnosis.distance = best.distance;
  diagnosis.expected = best.fit.expected;
  diagnosis.tolerance = best.fit.tolerance;
  for (std::size_t k = 1; k < within.size(); ++k) diagnosis.also_within.push_back(within[k].candidate);
  diagnosis.decided = std::all_of(within.begin(), within.end(),
                                  [&](const Fit& f) { return f.candidate.conforms == best.candidate.conforms; });
  diagnosis.conforms = best.candidate.conforms && diagnosis.decided;
  diagnosis.sentence = best.candidate.conforms
                           ? best.candidate.name + ": " + significant(best.candidate.value, 9)
                           : best.candidate.name + ": " + significant(best.candidate.value, 6) + " instead of " + root;
  if (!diagnosis.decided) {
    // The first value within the tolerance that would change the verdict.
    const ScaleCandidate& rival = *std::find_if(diagnosis.also_within.begin(), diagnosis.also_within.end(),
                                                [&](const ScaleCandidate& c) { return c.conforms != best.candidate.conforms; });
    diagnosis.sentence += " (but " + rival.name + ", " + significant(rival.value, 6) +
                          ", is also within the tolerance: more tokens sharing positions are needed to tell them apart)";
  }
  return diagnosis;
}

}  // namespace pecheck::validate
