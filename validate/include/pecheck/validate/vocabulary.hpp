// `pecheck validate --vocabulary VOCAB.npy --convention NAME [--scale S]`: a
// user's own embedding table, with no output table, measured with the
// input-layer statistics the report shows for drawn tables (energy ratio,
// subspace overlap, logit shares; properties/vocabulary_statistics.hpp), by
// the same function. Nothing is asserted: the statistics are printed with
// the closed forms an isotropic table of the same mean square would give.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pecheck/convention.hpp"
#include "pecheck/npy_array.hpp"
#include "pecheck/properties/vocabulary_statistics.hpp"

namespace pecheck::validate {

struct VocabularyResult {
  std::string convention;    // the convention's name
  bool scale_given = false;  // false: s = sqrt(d) as pecheck's float32 computes it
  properties::VocabularyStatistics statistics;
};

// The statistics of `vocabulary` (a (V, d) float array, V >= 2) scaled by
// `scale` (default sqrt(d)) against the convention's encoding of positions
// 0..positions-1 in float32. Throws ValidationInputError naming `file` and
// what was expected.
VocabularyResult measure_vocabulary(const NpyArray& vocabulary, const std::string& file, const Convention& convention,
                                    std::optional<double> scale, std::int64_t positions);

std::string vocabulary_text(const VocabularyResult& result, const std::string& file);
std::string vocabulary_json(const VocabularyResult& result, const std::string& file);

}  // namespace pecheck::validate
