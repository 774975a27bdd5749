// The command line's reading of an input layer's four files: the output and the
// vocabulary held typed, at the files' own size.
#include <utility>

#include "pecheck/npy_tensor.hpp"
#include "pecheck/validate/input_layer.hpp"

namespace pecheck::validate {

InputLayerFiles read_input_layer_files(const std::filesystem::path& output, const std::filesystem::path& vocabulary,
                                       const std::filesystem::path& ids, const std::filesystem::path& positions) {
  InputLayerFiles files;
  // Typed, at the files' own size: read_npy_array's doubles would take two
  // to four times the files (a bfloat16 output is float32 in .npy).
  NpyTensor out = read_npy_tensor(output);
  files.output = owned_tensor(std::move(out.shape), std::move(out.values));
  NpyTensor vocab = read_npy_tensor(vocabulary);
  files.vocabulary = owned_tensor(std::move(vocab.shape), std::move(vocab.values));
  files.ids = read_npy_array(ids);
  if (!positions.empty()) files.positions = read_npy_array(positions);
  files.output_name = output.string();
  files.vocabulary_name = vocabulary.string();
  files.ids_name = ids.string();
  files.positions_name = positions.empty() ? "the default positions" : positions.string();
  return files;
}

}  // namespace pecheck::validate
