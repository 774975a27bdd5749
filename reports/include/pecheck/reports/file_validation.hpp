// `pecheck validate` on files: one entry point per kind of subject, each
// reading its files, validating them through the one pipeline
// (validate/validation.hpp), writing the report directory through the one
// adapter (validation_report.hpp) when asked, and printing the text or the
// JSON document. The command line only parses flags into these requests.
//
// Each returns the exit status: 0 conforms, 1 deviates or unknown. Bad input
// throws ConventionError with one line naming the file or flag (exit 2).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "pecheck/convention.hpp"
#include "pecheck/validate/rotary_validation.hpp"
#include "pecheck/validate/rotated_output.hpp"
#include "pecheck/validate/table_validation.hpp"

namespace pecheck::reports {

// How the result is handed back, the same for every kind.
struct ValidationOutput {
  bool json = false;
  std::string output_dir;  // also write validation.json, .txt and the report there (atomically)
  std::string reproduce;   // the command line that writes the same report
};

// An additive table (.npy, or a tensor of a .safetensors file).
struct TableFileRequest {
  std::string file;
  std::optional<std::string> tensor;
  validate::ValidationOptions options;
};
int validate_table_file(const TableFileRequest& request, const ValidationOutput& output, std::ostream& out);

// A rotary cache: cos and sin files, or one file holding both ((2, L, d)
// stacked, or complex (L, d/2)) when `sin` is empty.
struct RotaryFileRequest {
  std::string cos;
  std::string sin;
  validate::RotaryValidationOptions options;
};
int validate_rotary_files(const RotaryFileRequest& request, const ValidationOutput& output, std::ostream& out);

// A rotation kernel's output (queries or keys), its input of the same shape
// and the position of each token along the sequence axis.
struct RotatedFileRequest {
  std::string output, input, positions;
  validate::RotatedOptions options;
};
int validate_rotated_files(const RotatedFileRequest& request, const ValidationOutput& output, std::ostream& out);

// An input layer's output x = s E[id] + PE[pos], its vocabulary and ids
// (positions default to 0..L-1 in each sequence when `positions` is empty).
struct InputLayerRequest {
  std::string output, vocabulary, ids, positions;
  validate::ValidationOptions options;
};
int validate_input_layer_files(const InputLayerRequest& request, const ValidationOutput& output, std::ostream& out);

// A trained embedding table alone, measured with the report's input-layer
// statistics against `convention` over positions 0..context-1: observations,
// nothing asserted (exit 0).
struct VocabularyRequest {
  std::string vocabulary;
  Convention convention;
  std::optional<double> scale;  // default sqrt(d)
  std::int64_t context = 512;   // the paper's base model
};
int measure_vocabulary_file(const VocabularyRequest& request, bool json, std::ostream& out);

}  // namespace pecheck::reports
