#include "pecheck/subject.hpp"

#include <string>

namespace pecheck {

// A subject offers the embedding operations only when it says so in its
// capabilities; the defaults refuse with a message naming the subject and
// the operation, which checks report as "not applicable" or a failure.
namespace {

[[noreturn]] void not_offered(const Subject& subject, const char* operation) {
  throw SubjectError("subject '" + subject.name() + "' does not offer " + operation +
                     " (it produces encoding tables only)");
}

}  // namespace

double Subject::embedding_scale(std::int64_t, FormatId) const { not_offered(*this, "embedding_scale"); }

Table Subject::add_embeddings(const EmbeddingInput&, FormatId) const { not_offered(*this, "add_embeddings"); }

Table Subject::concat_embeddings(const EmbeddingInput&, FormatId) const { not_offered(*this, "concat_embeddings"); }

Table Subject::zero_pad(const Table&, std::int64_t, std::int64_t) const { not_offered(*this, "zero_pad"); }

RotaryCache Subject::rotary_cache(const RotaryConvention&, const RotaryCacheRequest&) const {
  not_offered(*this, "rotary_cache");
}

}  // namespace pecheck
