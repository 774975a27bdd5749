// The input layer's embedding operations: x = scale * E[t] + PE[p], its
// concatenating alternative [scale * E[t], PE[p]], zero padding, and the
// embedding scale sqrt(d) correctly rounded to a format.
//
// Every operation is rounded to the format exactly as IEEE arithmetic carried
// out in that format would round it (the argument is in embedding.cpp), so a
// table computed here is what a float16 or bfloat16 model would compute.
#pragma once

#include <cstdint>
#include <span>

#include "pecheck/format.hpp"
#include "pecheck/subject.hpp"
#include "pecheck/table.hpp"

namespace pecheck {

// x[j] = round(round(scale * E[token_ids[j]]) + PE[positions[j]]), one row per
// token id, every operation rounded to the format.
// Throws SubjectError when the tables are missing, their widths differ, an id
// or a position is outside its table, the id and position counts differ, or a
// table value or the scale is not a value of the format (round the operands
// first with rounded_to: a model holds them in its format).
Table add_embeddings(const EmbeddingInput& input, FormatId format);

// [round(scale * E[t]), PE[p]] row by row: d_t + d_p columns. With scale 1 the
// token part is E[t] itself, -0 included. The same preconditions as add_embeddings.
Table concat_embeddings(const EmbeddingInput& input, FormatId format);

// The table with `left` columns of +0 before and `right` after each row
// (torch.zeros / numpy.zeros padding). Throws SubjectError for negative widths.
Table zero_pad(const Table& table, std::int64_t left, std::int64_t right);

// Every value rounded to the format (a cast to the model's dtype).
Table rounded_to(const Table& table, FormatId format);

// sqrt(d) correctly rounded to the format (round to nearest, ties to even),
// for d >= 1. Throws SubjectError for d < 1.
double correctly_rounded_sqrt(std::int64_t d, FormatId format);

// The preconditions of add_embeddings (same_width true) and concat_embeddings
// (false), checked on the rows the ids and positions select; throws
// SubjectError naming `operation`, the table, the row and the column.
void check_embedding_input(const EmbeddingInput& input, FormatId format, const char* operation, bool same_width);

// The hot path in float32: out[j*d + c] = vocabulary[t*d + c] * scale + encoding[p*d + c]
// with t = token_ids[j], p = positions[j], in one pass; the same bits as
// add_embeddings in float32. vocabulary is rows x d and encoding positions x d,
// row-major. The tokens are split across `threads` threads (0: one per hardware
// thread when the output is large enough to pay for them), with the same bits
// whatever the count. Throws SubjectError for an id or position out of range
// or a size mismatch, std::invalid_argument for a negative thread count.
void add_embeddings_float32(std::span<const float> vocabulary, std::span<const float> encoding, std::int64_t d,
                            std::span<const std::int64_t> token_ids, std::span<const std::int64_t> positions,
                            float scale, std::span<float> out, int threads = 0);

}  // namespace pecheck
