// An input layer's inputs: the values held or borrowed, and the command
// line's reading of the four files.
#include <utility>

#include "pecheck/npy_tensor.hpp"
#include "pecheck/validate/input_layer.hpp"

namespace pecheck::validate {

InputLayerValues owned_values(std::vector<std::int64_t> shape, Table values) {
  InputLayerValues held;
  held.shape = std::move(shape);
  auto owned = std::make_shared<const Table>(std::move(values));
  held.values = owned->view();
  held.owned = std::move(owned);
  return held;
}

InputLayerValues borrowed_values(std::vector<std::int64_t> shape, const TableView& values) {
  InputLayerValues held;
  held.shape = std::move(shape);
  held.values = values;
  return held;
}

InputLayerFiles read_input_layer_files(const std::filesystem::path& output, const std::filesystem::path& vocabulary,
                                       const std::filesystem::path& ids, const std::filesystem::path& positions) {
  InputLayerFiles files;
  // Typed, at the files' own size: read_npy_array's doubles would take two
  // to four times the files (a bfloat16 output is float32 in .npy).
  NpyTensor out = read_npy_tensor(output);
  files.output = owned_values(std::move(out.shape), std::move(out.values));
  NpyTensor vocab = read_npy_tensor(vocabulary);
  files.vocabulary = owned_values(std::move(vocab.shape), std::move(vocab.values));
  files.ids = read_npy_array(ids);
  if (!positions.empty()) files.positions = read_npy_array(positions);
  files.output_name = output.string();
  files.vocabulary_name = vocabulary.string();
  files.ids_name = ids.string();
  files.positions_name = positions.empty() ? "the default positions" : positions.string();
  return files;
}

}  // namespace pecheck::validate
