// `pecheck validate OUTPUT --vocabulary VOCAB --ids IDS`: a user's input layer
// x = s * E[id] + PE[pos] checked from its output, for fault 7 of
// CONVENTIONS.md ("sqrt(d) missing, applied twice, divided instead of
// multiplied, or rounded in the activation dtype") and, through the
// recovered PE, every fault `validate` finds in an encoding table.
//
// Why the scale can be measured without knowing PE: two tokens a, b at the
// same position p share PE[p], so x_a - x_b = s (E[a] - E[b]) up to rounding.
// Within the group G of tokens at one position, centring removes PE:
//   x_i - mean_G(x) = s (E[id_i] - mean_G(E)) + (d_i - mean_G(d))
// (d the rounding error), and least squares over every group gives
//   s_hat = sum <x_c, e_c> / sum <e_c, e_c>,
// the same estimate as least squares over all pairs of each group (a pair sum
// of products is n times the centred sum). Since sum_G e_c = 0,
//   s_hat - s = sum_i <e_c,i, d_i> / sum <e_c, e_c>   exactly,
// which is what the tolerance in input_layer_scale.cpp is derived from.
// With a single sequence (no position holding two different ids), any s fits
// with some PE: the scale is not identifiable from the output alone. With the
// convention given, its encoding stands for PE and s is fitted against it;
// without, the input is refused, saying what is needed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pecheck/format.hpp"
#include "pecheck/npy_array.hpp"
#include "pecheck/table.hpp"
#include "pecheck/validate/held_tensor.hpp"
#include "pecheck/validate/table_validation.hpp"
#include "pecheck/validate/validation.hpp"

namespace pecheck::validate {

// The four inputs, with their names for messages. The ids and positions are
// one integer per token (small beside the output): held as read.
// validate_input_layer checks their dtypes and shapes.
struct InputLayerFiles {
  HeldTensor output;      // (B, L, d), (B * L, d), or (L, d) when B = 1: floats
  HeldTensor vocabulary;  // (V, d): floats
  NpyArray ids;                 // (B, L) or (L,): integers
  std::optional<NpyArray> positions;  // as ids, or (L,) for every sequence; default 0..L-1
  std::string output_name = "OUTPUT", vocabulary_name = "VOCAB", ids_name = "IDS", positions_name = "POS";
};

// The command line's reading: OUTPUT and VOCAB into typed storage at the
// files' own size (npy_tensor.hpp), IDS and POS (when not empty) as integers.
// Throws TableFileError naming the file and the field.
InputLayerFiles read_input_layer_files(const std::filesystem::path& output, const std::filesystem::path& vocabulary,
                                       const std::filesystem::path& ids, const std::filesystem::path& positions);

// Every candidate for width d, conforming ones first (the first listed wins
// when two have the same value, as for d = 64 where sqrt(d) = 8 in every format).
std::vector<ScaleCandidate> scale_candidates(std::int64_t dim);

// Throws ValidationInputError for an estimate that cannot be made (no position
// holds two different ids, or their embeddings do not differ).
ScaleDiagnosis diagnose_scale(const ScaleEstimate& estimate, std::int64_t dim);

// Throws ValidationInputError naming the file, the shape found and the shape
// expected, or the first id out of range and its index.
Validation validate_input_layer(const InputLayerFiles& files, const ValidationOptions& options = {});


}  // namespace pecheck::validate
