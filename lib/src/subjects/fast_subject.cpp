#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "pecheck/embedding.hpp"
#include "pecheck/fast_encoding.hpp"
#include "pecheck/rotary_kernel.hpp"
#include "pecheck/subject.hpp"

namespace pecheck {

namespace {

// pecheck's own implementation: the fast encoding tables, and the embedding
// operations of embedding.hpp, with the float32 sum on the fused hot path,
// and the exact rotation of queries and keys (fast_rotate).
class FastSubject final : public Subject, public RotaryKernel {
 public:
  std::string name() const override { return "fast"; }

  SubjectCapabilities capabilities() const override {
    SubjectCapabilities capabilities;
    capabilities.embedding_operations = true;
    capabilities.rotary_caches = true;
    return capabilities;
  }

  Table encoding_table(const Convention& convention, const TableRequest& request, FormatId format) const override {
    return fast_table(convention, request, format);
  }

  RotaryCache rotary_cache(const RotaryConvention& convention, const RotaryCacheRequest& request) const override {
    return fast_rotary_cache(convention, request);
  }

  Table rotate(const RotaryConvention& convention, const TableView& input, std::span<const std::int64_t> positions,
               FormatId format) const override {
    return fast_rotate(convention, input, positions, format);
  }

  // sqrt(d) correctly rounded to the format: not sqrt in double rounded again
  // (see correctly_rounded_sqrt for why that is right here, and how it is verified).
  double embedding_scale(std::int64_t d, FormatId format) const override { return correctly_rounded_sqrt(d, format); }

  Table add_embeddings(const EmbeddingInput& input, FormatId format) const override {
    if (format != FormatId::float32) return pecheck::add_embeddings(input, format);
    // The fused loop computes the same bits as the generic path (lib/tests
    // asserts it). It reads float32 storage; a wider table of float32 values
    // (checked here) is converted first.
    check_embedding_input(input, format, "add_embeddings", true);
    std::optional<Table> converted_vocabulary;
    std::optional<Table> converted_encoding;
    const auto float32_storage = [](const Table& table, std::optional<Table>& converted) {
      if (table.format == FormatId::float32) return table.storage<float>();
      converted = convert_table(table, FormatId::float32);
      return std::as_const(*converted).storage<float>();
    };
    const std::span<const float> vocabulary = float32_storage(*input.embeddings, converted_vocabulary);
    const std::span<const float> encoding = float32_storage(*input.encoding, converted_encoding);
    Table table = make_uninitialized_table(static_cast<std::int64_t>(input.token_ids.size()), input.embeddings->cols,
                                           format);
    add_embeddings_float32(vocabulary, encoding, input.embeddings->cols,
                           input.token_ids, input.positions, static_cast<float>(input.scale), table.storage<float>());
    return table;
  }

  Table concat_embeddings(const EmbeddingInput& input, FormatId format) const override {
    return pecheck::concat_embeddings(input, format);
  }

  Table zero_pad(const Table& table, std::int64_t left, std::int64_t right) const override {
    return pecheck::zero_pad(table, left, right);
  }
};

}  // namespace

std::unique_ptr<Subject> make_fast_subject() { return std::make_unique<FastSubject>(); }

}  // namespace pecheck
