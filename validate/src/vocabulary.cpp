#include "pecheck/validate/vocabulary.hpp"

#include "pecheck/text_wrap.hpp"

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "json_values.hpp"
#include "pecheck/embedding.hpp"
#include "pecheck/memory_limit.hpp"
#include "pecheck/subject.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/validation.hpp"
#include "pecheck/number_text.hpp"

namespace pecheck::validate {

namespace {

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

// The values the paper's setting gives (N(0, 1/d) scaled by sqrt(d): alpha = 1),
// beside the isotropic ones at the table's own alpha: the energy ratio and the
// logit shares depend on the rows' norms only, so a table matches its own
// isotropic values there unless its norms vary; the paper's show its scale.
properties::VocabularyStatistics paper_setting(const properties::VocabularyStatistics& v) {
  properties::VocabularyStatistics paper = v;
  paper.component_mean_square = 1.0;
  return paper;
}

}  // namespace

VocabularyResult measure_vocabulary(const NpyArray& vocabulary, const std::string& file, const Convention& convention,
                                    std::optional<double> scale, std::int64_t positions) {
  if (vocabulary.integer) {
    throw ValidationInputError(file + ": dtype '" + vocabulary.dtype +
                               "' (expected a float dtype: the embedding table)");
  }
  if (vocabulary.shape.size() != 2 || vocabulary.shape[0] < 2 || vocabulary.shape[1] < 2) {
    throw ValidationInputError(file + ": shape " + shape_text(vocabulary.shape) +
                               " (expected (V, d) with at least two tokens and two columns)");
  }
  const std::int64_t rows = vocabulary.shape[0], dim = vocabulary.shape[1];
  VocabularyResult result;
  result.convention = convention.name;
  result.scale_given = scale.has_value();
  const double s = scale ? *scale : correctly_rounded_sqrt(dim, FormatId::float32);
  // The encoding is held as float32 rows while its statistics are summarised.
  check_memory_available(static_cast<std::uint64_t>(positions) * static_cast<std::uint64_t>(dim) * sizeof(float),
                         "the " + convention.name + " encoding over " + std::to_string(positions) + " positions x " +
                             std::to_string(dim) + " columns (--context)");
  const std::unique_ptr<Subject> fast = make_fast_subject();
  const Table encoding = fast->encoding_table(convention, {positions, dim, 0}, FormatId::float32);
  // The values as read, in double: a float64 view of them.
  const TableView table(FormatId::float64, rows, dim, dim, vocabulary.values.data());
  result.statistics = properties::vocabulary_statistics(table, properties::summarise_encoding(encoding), s);
  return result;
}

std::string vocabulary_text(const VocabularyResult& r, const std::string& file) {
  const properties::VocabularyStatistics& v = r.statistics;
  const properties::VocabularyStatistics paper = paper_setting(v);
  std::string text = file + ": an embedding table of " + std::to_string(v.vocabulary) +
                     " tokens, d = " + std::to_string(v.dim) + ", scaled by s = " + significant(v.scale, 8) +
                     (r.scale_given ? " (--scale)" : " (sqrt(d) in float32)") + ", against " + r.convention +
                     " positions 0.." + std::to_string(v.positions - 1) + " (float32)\n";
  text += "  mean square per component of s*E: " + significant(v.component_mean_square, 4) +
          " (the closed forms below are for an isotropic table with this value)\n";
  text += "  energy ratio mean ||s e||^2 / mean ||PE||^2: " + significant(v.energy_ratio, 4) + " (isotropic " +
          significant(v.isotropic_energy_ratio(), 4) + ", the paper's setting " + significant(paper.isotropic_energy_ratio(), 4) +
          "; mean ||PE||^2 = " + significant(v.encoding_energy, 4) + ")\n";
  text += "  share of its energy in the encoding's 99% subspace (" + std::to_string(v.subspace_dimension) + " of " +
          std::to_string(v.dim) + " dimensions): " + significant(100 * v.subspace_share, 3) + "% (isotropic " +
          significant(100 * v.isotropic_subspace_share(), 3) + "%)\n";
  text += "  first-layer logit variance at initialisation (W_q, W_k ~ N(0, 1/d)), shares: token-token " +
          significant(100 * v.token_token_share, 3) + "% (isotropic " + significant(100 * v.isotropic_token_token_share(), 3) +
          "%), token x position " + significant(100 * v.cross_share, 3) + "% (isotropic " +
          significant(100 * v.isotropic_cross_share(), 3) + "%), position-position " +
          significant(100 * v.position_position_share, 3) + "% (isotropic " +
          significant(100 * v.isotropic_position_position_share(), 3) + "%); in the paper's setting " +
          significant(100 * paper.isotropic_token_token_share(), 3) + "%, " +
          significant(100 * paper.isotropic_cross_share(), 3) + "%, " +
          significant(100 * paper.isotropic_position_position_share(), 3) + "%\n";
  text += "  observations only: nothing is asserted of a trained table\n";
  return wrap_lines(text, 99);  // under 100 characters, as validation_text
}

std::string vocabulary_json(const VocabularyResult& r, const std::string& file) {
  const properties::VocabularyStatistics& v = r.statistics;
  const properties::VocabularyStatistics paper = paper_setting(v);
  const auto measured = [](double value, double isotropic, double in_paper) {
    return nlohmann::json{
        {"value", json_number(value)}, {"isotropic", json_number(isotropic)}, {"paper", json_number(in_paper)}};
  };
  nlohmann::json out = {
      {"file", file},
      {"verdict", "info"},
      {"convention", r.convention},
      {"vocabulary", v.vocabulary},
      {"dim", v.dim},
      {"positions", v.positions},
      {"scale", json_number(v.scale)},
      {"scale_given", r.scale_given},
      {"component_mean_square", json_number(v.component_mean_square)},
      {"encoding_energy", json_number(v.encoding_energy)},
      {"energy_ratio", measured(v.energy_ratio, v.isotropic_energy_ratio(), paper.isotropic_energy_ratio())},
      {"subspace_dimension", v.subspace_dimension},
      {"subspace_share", measured(v.subspace_share, v.isotropic_subspace_share(), paper.isotropic_subspace_share())},
      {"token_token_share",
       measured(v.token_token_share, v.isotropic_token_token_share(), paper.isotropic_token_token_share())},
      {"cross_share", measured(v.cross_share, v.isotropic_cross_share(), paper.isotropic_cross_share())},
      {"position_position_share", measured(v.position_position_share, v.isotropic_position_position_share(),
                                           paper.isotropic_position_position_share())},
  };
  return out.dump(2) + "\n";
}

}  // namespace pecheck::validate
