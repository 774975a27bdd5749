// The add-as-a-superset-of-concat family: adding the encoding to the embedding
// can do whatever concatenating them does (the construction, linearity), and
// more (strictness); the geometry that makes adding work (near-orthogonality,
// where the encoding's energy sits) is in add_vs_concat_geometry.cpp.
#include <rapidcheck.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "add_vs_concat_checks.hpp"
#include "check_support.hpp"
#include "pecheck/properties/check_ids.hpp"
#include "pecheck/properties/exact_arithmetic.hpp"
#include "pecheck/properties/generators.hpp"
#include "pecheck/properties/property_runner.hpp"
#include "pecheck/properties/tail_bounds.hpp"
#include "scaling_support.hpp"

namespace pecheck::properties {

namespace add_vs_concat {

namespace {

using scaling_support::format_number;

std::string entry_text(double value, const Format& format) {
  return std::isnan(value) ? std::string("NaN") : hex_bits(value, format) + " (" + hex_float(value) + ")";
}

bool same_bits(double a, double b, const Format& format) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);  // payloads are not part of the claim
  return to_bits(a, format) == to_bits(b, format);
}

void require_shape(const Table& table, std::int64_t rows, std::int64_t cols, const std::string& what) {
  if (table.rows != rows || table.cols != cols) {
    support::fail_case(what + " gave " + std::to_string(table.rows) + " x " + std::to_string(table.cols) +
                       " values, expected " + std::to_string(rows) + " x " + std::to_string(cols));
  }
}

// The table with `left` and `right` columns of -0 around each row, built here
// (the subject's zero_pad pads with +0, as torch.zeros does).
Table negative_zero_pad(const Table& table, std::int64_t left, std::int64_t right) {
  Table out = make_table(table.rows, left + table.cols + right, table.format);
  for (std::int64_t k = 0; k < out.size(); ++k) out.set_flat(k, -0.0);
  for (std::int64_t r = 0; r < table.rows; ++r) {
    for (std::int64_t c = 0; c < table.cols; ++c) out.set(r, left + c, table.at(r, c));
  }
  return out;
}

// ---- the construction -------------------------------------------------------

constexpr std::string_view kConstructionId = check_ids::construction;

// What "bit for bit" means here. The sum round(round(s [E, 0]) + [0, P]) puts
// round(s E) + (+0) in the token columns and s (+0) + P = (+0) + P in the
// encoding columns. x + (+0) = x for every x except x = -0: IEEE round-to-
// nearest gives -0 + +0 = +0. So with +0 padding the sum equals the
// concatenation bit for bit in every entry except where the concatenation holds
// -0, and there the sum holds +0 (equal as values, not as bits). -0 is the
// additive identity of IEEE arithmetic (x + -0 = x for every x, -0 included),
// so with -0 padding, and s > 0 (s * -0 = -0), they are equal bit for bit
// everywhere. NaN entries are compared as NaN: payloads are not part of the claim.
Outcome run_construction(const Subject& subject, const RunConfig& config) {
  if (auto not_applicable = scaling_support::require_embedding_operations(subject)) return *not_applicable;
  if (auto no_format = scaling_support::require_formats(subject, true)) return *no_format;
  const std::vector<FormatId> formats = scaling_support::formats_of(subject, true);
  return run_property(std::string(kConstructionId), config, [&] {
    const FormatId id = *rc::gen::elementOf(formats).as("format");
    const Format& format = format_of(id);
    const auto d_t = *rc::gen::inRange<std::int64_t>(1, 9).as("d_t");
    const auto d_p = *rc::gen::inRange<std::int64_t>(1, 9).as("d_p");
    const auto vocab = *rc::gen::inRange<std::int64_t>(1, 5).as("vocabulary");
    const auto rows = *rc::gen::inRange<std::int64_t>(1, 5).as("encoding rows");
    const auto count = *rc::gen::inRange<std::int64_t>(1, 6).as("tokens");
    const Table embeddings = *gen::table_of(vocab, d_t, id, gen::format_value(id)).as("token table E");
    const Table encoding = *gen::table_of(rows, d_p, id, gen::format_value(id)).as("encoding table P");
    const std::vector<std::int64_t> ids = *gen::token_ids(vocab, count).as("token ids");
    const std::vector<std::int64_t> positions = *gen::position_ids(rows, count).as("encoding rows used");
    const bool paper_scale = *rc::gen::arbitrary<bool>().as("scale sqrt(d) (else 1)");
    const double s = paper_scale ? subject.embedding_scale(d_t + d_p, id) : 1.0;

    const Table concatenated = subject.concat_embeddings({&embeddings, &encoding, ids, positions, s}, id);
    const Table token_padded = subject.zero_pad(embeddings, 0, d_p);
    const Table encoding_padded = subject.zero_pad(encoding, d_t, 0);
    const Table added = subject.add_embeddings({&token_padded, &encoding_padded, ids, positions, s}, id);
    require_shape(concatenated, count, d_t + d_p, "concat_embeddings");
    require_shape(added, count, d_t + d_p, "add_embeddings of the padded tables");
    int signed_zero_entries = 0;
    for (std::int64_t j = 0; j < count; ++j) {
      for (std::int64_t c = 0; c < d_t + d_p; ++c) {
        const double a = added.at(j, c);
        const double k = concatenated.at(j, c);
        if (same_bits(a, k, format)) continue;
        if (k == 0.0 && std::signbit(k) && a == 0.0 && !std::signbit(a)) {
          ++signed_zero_entries;  // -0 + +0 = +0: the one allowed difference
          continue;
        }
        support::fail_case("row " + std::to_string(j) + ", column " + std::to_string(c) + ": add([E, 0], [0, P]) gives " +
                entry_text(a, format) + ", concat(E, P) gives " + entry_text(k, format));
      }
    }
    RC_CLASSIFY(signed_zero_entries > 0, "a -0 of the concatenation is +0 in the sum");

    const Table token_negative = negative_zero_pad(embeddings, 0, d_p);
    const Table encoding_negative = negative_zero_pad(encoding, d_t, 0);
    const Table added_negative = subject.add_embeddings({&token_negative, &encoding_negative, ids, positions, s}, id);
    for (std::int64_t j = 0; j < count; ++j) {
      for (std::int64_t c = 0; c < d_t + d_p; ++c) {
        if (!same_bits(added_negative.at(j, c), concatenated.at(j, c), format)) {
          support::fail_case("with -0 padding, row " + std::to_string(j) + ", column " + std::to_string(c) + ": the sum gives " +
                  entry_text(added_negative.at(j, c), format) + ", the concatenation " +
                  entry_text(concatenated.at(j, c), format));
        }
      }
    }
  });
}

// ---- linearity --------------------------------------------------------------

constexpr std::string_view kLinearityId = check_ids::linearity;

// Values of moderate size: products and sums of up to 32 of them stay far
// from overflow in every format (|v| < 8, so |W x| sums stay below 2^11 < 65504),
// with zeros and subnormals in the mix.
rc::Gen<double> moderate_value(FormatId id) {
  const Format format = format_of(id);
  const std::uint64_t bias = (std::uint64_t{1} << (gen::exponent_bits(format) - 1)) - 1;
  return rc::gen::weightedOneOf<double>(
      {{1, gen::signed_zero()},
       {1, gen::subnormal(id)},
       {6, rc::gen::apply([format, bias](bool negative, std::uint64_t exponent, std::uint64_t mantissa) {
                            return gen::compose_bits(format, negative, bias + exponent - 8, mantissa);
                          },
                          gen::sign_bit(), gen::uniform_in<std::uint64_t>(0, 11),
                          gen::uniform_in<std::uint64_t>(0, gen::mantissa_max(format) + 1))}});
}

// The recursive dot product in the format: every product and every partial
// sum rounded to it (exact emulation, see lib/src/fast/embedding.cpp).
double dot_in_format(const std::vector<double>& w, const std::vector<double>& x, std::size_t begin, std::size_t end,
                     std::size_t x_begin, const Format& format) {
  double sum = 0.0;
  for (std::size_t j = begin; j < end; ++j) {
    sum = round_to_format(sum + round_to_format(w[j] * x[x_begin + j - begin], format), format);
  }
  return sum;
}

Outcome run_linearity(const Subject& subject, const RunConfig& config) {
  if (auto not_applicable = scaling_support::require_embedding_operations(subject)) return *not_applicable;
  if (auto no_format = scaling_support::require_formats(subject, true)) return *no_format;
  const std::vector<FormatId> formats = scaling_support::formats_of(subject, true);
  return run_property(std::string(kLinearityId), config, [&] {
    const FormatId id = *rc::gen::elementOf(formats).as("format");
    const Format& format = format_of(id);
    const auto d_t = *rc::gen::inRange<std::int64_t>(1, 17).as("d_t");
    const auto d_p = *rc::gen::inRange<std::int64_t>(1, 17).as("d_p");
    const auto n = static_cast<std::size_t>(d_t + d_p);
    const Table embeddings = *gen::table_of(2, d_t, id, moderate_value(id)).as("token table E");
    const Table encoding = *gen::table_of(2, d_p, id, moderate_value(id)).as("encoding table P");
    const Table weights = *gen::table_of(3, d_t + d_p, id, moderate_value(id)).as("W = [W_e, W_p]");
    const std::vector<std::int64_t> ids = {1};
    const std::vector<std::int64_t> positions = {*rc::gen::inRange<std::int64_t>(0, 2).as("encoding row")};
    // Scale 1: the scale is the other family's subject; here e is E[t] itself.
    const Table x = subject.concat_embeddings({&embeddings, &encoding, ids, positions, 1.0}, id);
    require_shape(x, 1, d_t + d_p, "concat_embeddings");
    const std::vector<double> embedding_values = table_doubles(embeddings);
    const std::vector<double> encoding_values = table_doubles(encoding);
    const std::vector<double> x_values = table_doubles(x);
    const std::vector<double> e(embedding_values.begin() + d_t, embedding_values.end());
    const std::vector<double> p(encoding_values.begin() + positions[0] * d_p,
                                encoding_values.begin() + (positions[0] + 1) * d_p);
    const double u = scaling_support::unit_roundoff(format);
    const double eta = scaling_support::underflow_error(format);
    int rows_differing = 0;
    for (std::int64_t i = 0; i < 3; ++i) {
      const std::vector<double> weight_values = table_doubles(weights.view().row_block(i, 1));
      const std::vector<double>& w = weight_values;
      // Exactly: W.concat(e, p) - W_e.e - W_p.p = 0 (every product exact as hi + lo).
      ExactSum difference;
      for (std::size_t j = 0; j < n; ++j) difference.add_product(w[j], x.flat(static_cast<std::int64_t>(j)));
      for (std::size_t j = 0; j < e.size(); ++j) difference.add_product(-w[j], e[j]);
      for (std::size_t j = 0; j < p.size(); ++j) difference.add_product(-w[e.size() + j], p[j]);
      if (!difference.is_zero()) {
        support::fail_case("row " + std::to_string(i) + ": W.concat(e, p) - W_e.e - W_p.p = " +
                format_number(difference.approximate()) + " exactly, not 0");
      }
      // In the format: |fl(W x) - fl(fl(W_e e) + fl(W_p p))| <= (gamma_n + gamma_{max+1}) sum |W||x| + 4 n eta
      // (Higham's model fl(a op b) = (a op b)(1 + delta) + eta: each side is off
      // the exact W x by its recursive-sum bound, the right side's last addition
      // adds u; the underflow terms are at most 2 eta per operation).
      const double left = dot_in_format(w, x_values, 0, n, 0, format);
      const double right = round_to_format(dot_in_format(w, e, 0, e.size(), 0, format) +
                                               dot_in_format(w, p, e.size(), n, 0, format),
                                           format);
      double magnitude = 0.0;
      for (std::size_t j = 0; j < n; ++j) magnitude += std::fabs(w[j] * x.flat(static_cast<std::int64_t>(j)));
      const auto longest = static_cast<double>(std::max(e.size(), p.size()));
      const double bound = ((gamma_n(static_cast<double>(n), u) + gamma_n(longest + 1, u)) * magnitude +
                            4.0 * static_cast<double>(n) * eta) * (1 + 0x1p-40);
      if (!(std::fabs(left - right) <= bound)) {
        support::fail_case("row " + std::to_string(i) + ": in " + std::string(format.name) + " W.concat(e, p) = " +
                format_number(left) + " and W_e.e + W_p.p = " + format_number(right) + " differ by " +
                format_number(std::fabs(left - right)) + " > bound " + format_number(bound));
      }
      rows_differing += left != right ? 1 : 0;
    }
    RC_CLASSIFY(rows_differing > 0, "the two float evaluations differ (within the bound)");
  });
}

}  // namespace

const CheckDefinition construction_check{
    .id = check_ids::construction,
    .family = Family::add_vs_concat,
    .short_claim = "paddedAdditionIsConcatenationBitForBit",
    .claim =
        "With zero-padded tables, add([s*E, 0], [0, P]) equals concat(s*E[t], P[p]) bit for bit in every format, "
        "except that a -0 of the concatenation is +0 in the sum (-0 + +0 = +0); padded with -0, the additive "
        "identity, they are equal bit for bit everywhere (NaN compared as NaN).",
    .source = "the report's question (c) (adding is a superset of concatenating)",
    .kind = CheckKind::property,
    .catches = {faults::embedding_dropped, faults::padding_wrong_side, faults::padding_off_by_one,
                faults::concat_reversed},
    .run = run_construction,
};

const CheckDefinition linearity_check{
    .id = check_ids::linearity,
    .family = Family::add_vs_concat,
    .short_claim = "linearLayerCannotTellConcatFromSum",
    .claim =
        "A linear layer cannot tell concatenation from a sum: W.concat(e, p) = W_e.e + W_p.p exactly, and "
        "within (gamma_n + gamma_{max(d_t,d_p)+1}) sum|W||x| + 4 n eta when both sides are evaluated in the format.",
    .source = "the report's question (c); Higham, Accuracy and Stability of Numerical Algorithms, section 3.1",
    .kind = CheckKind::property,
    .catches = {faults::concat_reversed},
    .run = run_linearity,
};

}  // namespace add_vs_concat

}  // namespace pecheck::properties
