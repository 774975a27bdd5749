// The command line's reading of an input layer's four files: the output and the
// vocabulary held typed, at the files' own size.
#include "pecheck/validate/input_layer.hpp"

namespace pecheck::validate {

InputLayerFiles read_input_layer_files(const std::filesystem::path& output, const std::filesystem::path& vocabulary,
                                       const std::filesystem::path& ids, const std::filesystem::path& positions) {
  InputLayerFiles files;
  files.output = read_held_tensor(output);
  files.vocabulary = read_held_tensor(vocabulary);
  files.ids = read_npy_array(ids);
  if (!positions.empty()) files.positions = read_npy_array(positions);
  files.output_name = output.string();
  files.vocabulary_name = vocabulary.string();
  files.ids_name = ids.string();
  files.positions_name = positions.empty() ? "the default positions" : positions.string();
  return files;
}

}  // namespace pecheck::validate
