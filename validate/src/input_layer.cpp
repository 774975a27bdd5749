#include <algorithm>
#include <cmath>
#include <string>

#include "input_layer_scale.hpp"
#include "narrow_format.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/validate/input_layer.hpp"

namespace pecheck::validate {

namespace {

// Positions the reference holds exactly (validation.hpp's row limit).
constexpr std::int64_t position_limit = std::int64_t{1} << 24;

[[noreturn]] void refuse(const std::string& file, const std::string& problem) {
  throw ValidationInputError(file + ": " + problem);
}

std::string index_text(std::size_t flat, std::int64_t length, bool two_d) {
  const auto k = static_cast<std::int64_t>(flat);
  if (!two_d) return std::to_string(k);
  std::string text = "(";
  text += std::to_string(k / length);
  text += ", ";
  text += std::to_string(k % length);
  return text + ")";
}

// The values' view must hold what their shape says (rows of the last axis):
// a caller's mistake, not the user's, but refused all the same.
void check_values(const HeldTensor& held, const std::string& name) {
  std::int64_t rows = 1;
  for (std::size_t k = 0; k + 1 < held.shape.size(); ++k) rows *= held.shape[k];
  const std::int64_t cols = held.shape.empty() ? 1 : held.shape.back();
  if (held.values.data() == nullptr || held.values.rows() != rows || held.values.cols() != cols) {
    refuse(name, "values of " + std::to_string(held.values.rows()) + " x " + std::to_string(held.values.cols()) +
                     " entries for shape " + shape_text(held.shape) + " (expected rows of its last axis)");
  }
}

struct Shapes {
  std::int64_t batch = 1, length = 0, dim = 0, vocabulary_size = 0;
};

Shapes check_shapes(const InputLayerFiles& files) {
  Shapes shapes;
  check_values(files.vocabulary, files.vocabulary_name);
  check_values(files.output, files.output_name);
  const HeldTensor& vocabulary = files.vocabulary;
  if (vocabulary.shape.size() != 2 || vocabulary.shape[0] < 1 || vocabulary.shape[1] < 1) {
    refuse(files.vocabulary_name, "shape " + shape_text(vocabulary.shape) +
                                      " (expected (V, d): the embedding table, one row of d values per token id)");
  }
  shapes.vocabulary_size = vocabulary.shape[0];
  shapes.dim = vocabulary.shape[1];

  const NpyArray& ids = files.ids;
  if (!ids.integer) refuse(files.ids_name, "dtype '" + ids.dtype + "' (expected integer token ids: int32 or int64)");
  if (ids.shape.size() == 2) {
    shapes.batch = ids.shape[0];
    shapes.length = ids.shape[1];
  } else if (ids.shape.size() == 1) {
    shapes.length = ids.shape[0];
  } else {
    refuse(files.ids_name, "shape " + shape_text(ids.shape) + " (expected (B, L) or (L,) token ids)");
  }
  if (shapes.batch < 1 || shapes.length < 1) {
    refuse(files.ids_name, "shape " + shape_text(ids.shape) + " (expected at least one token)");
  }
  const bool two_d = ids.shape.size() == 2;
  for (std::size_t k = 0; k < ids.integers.size(); ++k) {
    if (ids.integers[k] < 0 || ids.integers[k] >= shapes.vocabulary_size) {
      refuse(files.ids_name, "id " + std::to_string(ids.integers[k]) + " at index " +
                                 index_text(k, shapes.length, two_d) + " is out of range (expected 0 <= id < " +
                                 std::to_string(shapes.vocabulary_size) + ", the rows of " + files.vocabulary_name +
                                 ")");
    }
  }

  if (files.positions) {
    const NpyArray& positions = *files.positions;
    if (!positions.integer) refuse(files.positions_name, "dtype '" + positions.dtype + "' (expected integer positions)");
    const bool per_token = positions.shape == ids.shape;
    const bool shared = positions.shape == std::vector<std::int64_t>{shapes.length};
    if (!per_token && !shared) {
      refuse(files.positions_name, "shape " + shape_text(positions.shape) + " (expected " + shape_text(ids.shape) +
                                       " as " + files.ids_name + ", or (" + std::to_string(shapes.length) +
                                       ",) for every sequence)");
    }
    for (std::size_t k = 0; k < positions.integers.size(); ++k) {
      if (positions.integers[k] < 0 || positions.integers[k] >= position_limit) {
        refuse(files.positions_name, "position " + std::to_string(positions.integers[k]) + " at index " +
                                         index_text(k, shapes.length, per_token && two_d) +
                                         " is out of range (expected 0 <= position < 2^24)");
      }
    }
  }

  const HeldTensor& output = files.output;
  const std::int64_t tokens = shapes.batch * shapes.length;
  const std::vector<std::int64_t> full{shapes.batch, shapes.length, shapes.dim}, flat{tokens, shapes.dim};
  if (output.shape != full && output.shape != flat) {
    refuse(files.output_name, "shape " + shape_text(output.shape) + " does not match " + files.ids_name + " " +
                                  shape_text(ids.shape) + " and " + files.vocabulary_name + " " +
                                  shape_text(vocabulary.shape) + " (expected " + shape_text(full) +
                                  (shapes.batch == 1 ? "" : " or " + shape_text(flat)) + ")");
  }
  return shapes;
}

std::vector<std::int64_t> token_positions(const InputLayerFiles& files, const Shapes& shapes) {
  std::vector<std::int64_t> positions(static_cast<std::size_t>(shapes.batch * shapes.length));
  for (std::size_t k = 0; k < positions.size(); ++k) {
    const auto in_sequence = static_cast<std::int64_t>(k) % shapes.length;
    if (!files.positions) {
      positions[k] = in_sequence;
    } else if (files.positions->integers.size() == positions.size()) {
      positions[k] = files.positions->integers[k];
    } else {
      positions[k] = files.positions->integers[static_cast<std::size_t>(in_sequence)];
    }
  }
  return positions;
}

// PE_hat[p] = mean over the tokens at p of x_i - s E_i (x_i - round_a(s E_i)
// when the scale fitted with the product rounded first), rounded to the
// activation format a. Its error against the PE the implementation added:
//   the roundings d_i:   |d_i| <= (ulp_a(x_i) + ulp_a(s E_i)) / 2 (two roundings at most);
//   the scale:           the true s and s_used are both within the tolerance
//                        t of s_hat, so |(s - s_used) E_i| <= 2 t |E_i|;
//   the final rounding:  ulp_a(PE_hat) / 2;
// and the implementation's own PE error, which the comparison is there to
// judge: ulp_a(1), that is 2 ULP of any value in [0.5, 1), 4 below.
// A mean errs by at most its largest term, so the bound is the maximum over
// tokens of the first two plus the last two.
Table recovered_encoding(const InputTokens& tokens, double scale, bool product_rounded, double tolerance,
                         std::int64_t first, std::int64_t rows, double& bound, std::int64_t& pulled_to_unit) {
  const TableView& vocabulary = tokens.vocabulary;
  const std::int64_t dim = vocabulary.cols();
  const Format& format = format_of(tokens.activation_format);
  Table sums = make_table(rows, dim, FormatId::float64);
  std::vector<double> counts(static_cast<std::size_t>(rows), 0.0);
  double worst = 0.0;
  for (std::size_t k = 0; k < tokens.ids.size(); ++k) {
    const std::int64_t row = tokens.positions[k] - first;
    counts[static_cast<std::size_t>(row)] += 1.0;
    for (std::int64_t c = 0; c < dim; ++c) {
      const double e = vocabulary.at(tokens.ids[k], c);
      const double x = tokens.output.at(static_cast<std::int64_t>(k), c);
      sums.set(row, c, sums.at(row, c) + (x - (product_rounded ? round_to_format(scale * e, format) : scale * e)));
      worst = std::max(worst, (ulp_in(x, format) + ulp_in(scale * e, format)) / 2.0 + 2.0 * tolerance * std::abs(e));
    }
  }
  Table recovered = make_table(rows, dim, tokens.activation_format);
  double final_rounding = 0.0;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < dim; ++c) {
      const double value = round_to_format(sums.at(r, c) / counts[static_cast<std::size_t>(r)], format);
      recovered.set(r, c, value);
      final_rounding = std::max(final_rounding, ulp_in(value, format) / 2.0);
    }
  }
  bound = worst + final_rounding + ulp_in(1.0, format);
  // An estimate past +-1 by less than its own error bound says nothing about
  // the encoding (x carried the rounding, not PE): it is set to +-1 and
  // counted, so that only a value past +-1 by more than the bound reaches
  // the out-of-range check (fault 8).
  for (std::int64_t k = 0; k < recovered.size(); ++k) {
    const double value = recovered.flat(k);
    if (std::abs(value) > 1.0 && std::abs(value) - 1.0 <= bound) {
      recovered.set_flat(k, std::copysign(1.0, value));
      pulled_to_unit += 1;
    }
  }
  return recovered;
}

}  // namespace

Validation validate_input_layer(const InputLayerFiles& files, const ValidationOptions& options) {
  const Shapes shapes = check_shapes(files);
  Validation result;
  result.kind = SubjectKind::input_layer;
  InputLayerFindings& findings = result.findings.emplace<InputLayerFindings>();
  findings.batch = shapes.batch;
  findings.length = shapes.length;
  findings.dim = shapes.dim;
  findings.vocabulary_size = shapes.vocabulary_size;

  // The output and vocabulary are read where they are (a file's payload, a
  // caller's tensor): in their own format, never copied or widened.
  InputTokens tokens;
  tokens.vocabulary = files.vocabulary.values;
  tokens.ids = files.ids.integers;
  tokens.positions = token_positions(files, shapes);
  tokens.output = files.output.values;
  // borrowed_table reads the view in place (each row's entries are adjacent;
  // rows apart, as a slice of a wider tensor, are copied there).
  tokens.activation_format = narrowest_format(borrowed_table(tokens.output)).format;

  const auto [lowest, highest] = std::minmax_element(tokens.positions.begin(), tokens.positions.end());
  findings.first_position = *lowest;
  const std::int64_t rows = *highest - *lowest + 1;
  std::vector<bool> present(static_cast<std::size_t>(rows), false);
  for (const std::int64_t p : tokens.positions) present[static_cast<std::size_t>(p - *lowest)] = true;
  const auto missing = std::find(present.begin(), present.end(), false);
  if (missing != present.end()) {
    refuse(files.positions_name, "position " + std::to_string(*lowest + (missing - present.begin())) +
                                     " is missing between " + std::to_string(*lowest) + " and " +
                                     std::to_string(*highest) +
                                     " (expected every position from the first to the last: the recovered encoding "
                                     "is a table of consecutive positions)");
  }

  ScaleEstimate estimate;
  Table known;
  try {
    estimate = estimate_scale(tokens);
  } catch (const ValidationInputError& e) {
    if (!options.convention) refuse(files.output_name, e.what());
    known = fast_table(*options.convention, {rows, shapes.dim, *lowest}, tokens.activation_format);
    tokens.known_encoding = &known;
    tokens.known_first = *lowest;
    estimate = estimate_scale(tokens);
  }
  findings.scale = diagnose_scale(estimate, shapes.dim);
  const ScaleDiagnosis& scale = findings.scale;
  // A match is used as the layer holds it (float32 below float64 activations): what it multiplied by.
  findings.scale_used = scale.match ? held_scale(scale.match->value, tokens.activation_format) : scale.estimate.value;

  // A match's value is the scale under its hypothesis, within its own tolerance; an unmatched estimate is
  // known to its spread only.
  const double scale_error = scale.match ? scale.tolerance : scale.estimate.tolerance;
  findings.recovered = recovered_encoding(tokens, findings.scale_used, scale.product_rounded, scale_error, *lowest, rows,
                                        findings.pe_error_bound, findings.pulled_to_unit);

  ValidationOptions table_options = options;
  table_options.row_offset = *lowest;
  table_options.compare_as = tokens.activation_format;
  if (!options.max_ulp && !options.max_abs_error) table_options.max_abs_error = findings.pe_error_bound;
  // Whatever budget judges it, the estimate's own error is no evidence of a fault.
  table_options.estimate_abs_error = findings.pe_error_bound;
  try {
    result.parts.push_back(validate_table(findings.recovered, table_options));
    result.parts.back().name = "recovered encoding";
  } catch (const ValidationInputError& e) {
    refuse(files.output_name, std::string("the recovered encoding: ") + e.what());
  }

  if (!scale.decided) {
    result.reasons.push_back("the scale could not be decided: " + scale.sentence);
  } else if (!scale.conforms) {
    result.reasons.push_back(scale.sentence);
  }
  const Validation& recovered = result.parts.front();
  for (const std::string& reason : recovered.reasons) result.reasons.push_back("the recovered encoding: " + reason);
  const ValidationVerdict encoding = recovered.verdict;
  if ((scale.decided && !scale.conforms) || encoding == ValidationVerdict::deviates) {
    result.verdict = ValidationVerdict::deviates;
  } else if (!scale.decided || encoding == ValidationVerdict::unknown) {
    result.verdict = ValidationVerdict::unknown;
  } else {
    result.verdict = ValidationVerdict::conforms;
  }
  return result;
}

}  // namespace pecheck::validate
