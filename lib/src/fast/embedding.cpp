#include "pecheck/embedding.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "row_blocks.hpp"
#include "stream_store.hpp"

namespace pecheck {

// Why computing in double and rounding once per operation is exact.
//
// The operations here are a product s * e and a sum a + b of values of a
// format with p <= 24 significand bits (float32 24, float16 11, bfloat16 8).
// IEEE arithmetic in that format returns the exact result rounded once. We
// compute the double result (rounded to 53 bits) and round that to p bits,
// which rounds twice; it is still the correctly rounded result:
//
// - Product: the significands multiply to at most 2p <= 48 bits, and the
//   exponent of a nonzero product of two such values lies in [-298, 256]
//   (float32's extremes, subnormals included), inside double's normal range.
//   So the double product is the exact product: only one rounding happens.
// - Sum, |a| >= |b|: the exact sum spans the bits from ulp(b) up to 2^(e_a + 1),
//   e_a - e_b + p + 1 bits. If e_a - e_b <= 52 - p it fits in 53 bits and the
//   double sum is exact. Otherwise |b| < 2^(e_b + 1) <= 2^(e_a + p - 52)
//   = ulp_p(a) * 2^(2p - 53) <= ulp_p(a) / 32, which is less than half the
//   spacing of the format on either side of a (the spacing below a power of two
//   a is ulp_p(a) / 2). Then both the exact sum and its double rounding (which
//   lies between a and the exact sum, a being a double) round to a.
//
// Signed zeros and the rest of IEEE's special cases come out as the format's
// own arithmetic gives them: double arithmetic follows the same rules
// (-0 + +0 = +0 in round-to-nearest, s * -0 = -0 for s > 0, inf and NaN
// propagate), and round_to_format keeps the sign of a zero, overflows to
// infinity and keeps NaN. The build uses -ffp-contract=off, so s * e + pe is
// never fused into one FMA (which would round once instead of twice).
//
// float64 is double arithmetic itself.

namespace {

// round_to_format on the hot conversions: the hardware's double -> float
// conversion (round to nearest even, subnormals included) inside float's
// range, format.hpp's inline half conversions for float16 and bfloat16. The
// same results as round_to_format (the add_embeddings properties in lib/tests
// hold them to an oracle built on round_to_format, overflow included).
double round_to(double x, FormatId id, const Format& format) {
  switch (id) {
    case FormatId::float64: return x;
    case FormatId::float32:
      if (std::fabs(x) <= static_cast<double>(std::numeric_limits<float>::max())) {
        return static_cast<double>(static_cast<float>(x));
      }
      return round_to_format(x, format);  // overflow and NaN by the general rule
    case FormatId::float16: return float16_bits_to_double(round_to_float16_bits(x));
    case FormatId::bfloat16: return bfloat16_bits_to_double(round_to_bfloat16_bits(x));
  }
  return round_to_format(x, format);
}

// Whether x is a value of the format (NaN counts: it has a NaN of its own).
bool is_format_value(double x, FormatId id, const Format& format) {
  if (std::isnan(x) || id == FormatId::float64) return true;
  if (id == FormatId::float32 && std::fabs(x) <= static_cast<double>(std::numeric_limits<float>::max())) {
    return static_cast<double>(static_cast<float>(x)) == x;
  }
  return is_representable(x, format);
}

// x = e * scale + pe for n floats, each operation rounded in float32. The
// pointers never overlap, which lets the compiler vectorise the loop.
void scale_and_add(const float* __restrict e, float scale, const float* __restrict pe, float* __restrict x,
                   std::size_t n) {
  for (std::size_t c = 0; c < n; ++c) x[c] = e[c] * scale + pe[c];
}

// The order to compute the tokens of a large pass in: by position (a
// counting sort, stable), so that the tokens sharing a position, one per
// sequence of a batch, use its encoding row while it is in L1 instead of
// fetching it again a sequence later. Empty (the given order) for small
// passes, or when there are many more positions than tokens.
std::vector<std::int64_t> position_order(std::span<const std::int64_t> positions, std::int64_t position_rows,
                                         bool large) {
  std::vector<std::int64_t> order;
  const auto tokens = static_cast<std::int64_t>(positions.size());
  if (!large || position_rows > 4 * tokens) return order;
  std::vector<std::int64_t> start(static_cast<std::size_t>(position_rows) + 1, 0);
  for (const std::int64_t p : positions) ++start[static_cast<std::size_t>(p) + 1];
  for (std::size_t p = 1; p < start.size(); ++p) start[p] += start[p - 1];
  order.resize(positions.size());
  for (std::int64_t j = 0; j < tokens; ++j) {
    order[static_cast<std::size_t>(start[static_cast<std::size_t>(positions[static_cast<std::size_t>(j)])]++)] = j;
  }
  return order;
}

const char* kind_name(bool is_embedding) { return is_embedding ? "embedding" : "encoding"; }

// An operand of the format's arithmetic must be a value of the format.
void require_format_value(double value, FormatId id, const Format& format, const char* operation, bool is_embedding,
                          std::int64_t row, std::int64_t col) {
  if (!is_format_value(value, id, format)) {
    throw SubjectError(std::string(operation) + ": " + kind_name(is_embedding) + " table value " + hex_float(value) +
                       " at row " + std::to_string(row) + ", column " + std::to_string(col) + " is not a " +
                       std::string(format.name) + " value (round the table to the format first)");
  }
}

void require_format_row(const Table& table, std::int64_t row, FormatId id, const Format& format, const char* operation,
                        bool is_embedding) {
  for (std::int64_t c = 0; c < table.cols; ++c) {
    require_format_value(table.at(row, c), id, format, operation, is_embedding, row, c);
  }
}

}  // namespace

void check_embedding_input(const EmbeddingInput& input, FormatId format_id, const char* operation, bool same_width) {
  const std::string op = operation;
  if (input.embeddings == nullptr || input.encoding == nullptr) {
    throw SubjectError(op + ": the embedding and encoding tables must both be given");
  }
  if (input.token_ids.size() != input.positions.size()) {
    throw SubjectError(op + ": " + std::to_string(input.token_ids.size()) + " token ids but " +
                       std::to_string(input.positions.size()) + " positions (one position per token expected)");
  }
  if (same_width && input.embeddings->cols != input.encoding->cols) {
    throw SubjectError(op + ": the embedding table has " + std::to_string(input.embeddings->cols) +
                       " columns and the encoding table " + std::to_string(input.encoding->cols) +
                       " (adding needs equal widths; zero_pad them first)");
  }
  const Format& format = format_of(format_id);
  if (!is_format_value(input.scale, format_id, format)) {
    throw SubjectError(op + ": the scale " + hex_float(input.scale) + " is not a " + std::string(format.name) +
                       " value (round it to the format first)");
  }
  for (std::size_t j = 0; j < input.token_ids.size(); ++j) {
    const std::int64_t t = input.token_ids[j];
    const std::int64_t p = input.positions[j];
    if (t < 0 || t >= input.embeddings->rows) {
      throw SubjectError(op + ": token id " + std::to_string(t) + " at index " + std::to_string(j) +
                         " is outside the embedding table's " + std::to_string(input.embeddings->rows) + " rows");
    }
    if (p < 0 || p >= input.encoding->rows) {
      throw SubjectError(op + ": position row " + std::to_string(p) + " at index " + std::to_string(j) +
                         " is outside the encoding table's " + std::to_string(input.encoding->rows) + " rows");
    }
    require_format_row(*input.embeddings, t, format_id, format, operation, true);
    require_format_row(*input.encoding, p, format_id, format, operation, false);
  }
}

Table add_embeddings(const EmbeddingInput& input, FormatId format_id) {
  check_embedding_input(input, format_id, "add_embeddings", true);
  const Format& format = format_of(format_id);
  const double scale = input.scale;
  const std::int64_t d = input.embeddings->cols;
  Table out = make_table(static_cast<std::int64_t>(input.token_ids.size()), d, format_id);
  for (std::int64_t j = 0; j < out.rows; ++j) {
    const std::int64_t t = input.token_ids[static_cast<std::size_t>(j)];
    const std::int64_t p = input.positions[static_cast<std::size_t>(j)];
    for (std::int64_t c = 0; c < d; ++c) {
      const double scaled = round_to(scale * input.embeddings->at(t, c), format_id, format);
      out.set(j, c, round_to(scaled + input.encoding->at(p, c), format_id, format));
    }
  }
  return out;
}

Table concat_embeddings(const EmbeddingInput& input, FormatId format_id) {
  check_embedding_input(input, format_id, "concat_embeddings", false);
  const Format& format = format_of(format_id);
  const double scale = input.scale;
  const std::int64_t d_t = input.embeddings->cols;
  const std::int64_t d_p = input.encoding->cols;
  Table out = make_table(static_cast<std::int64_t>(input.token_ids.size()), d_t + d_p, format_id);
  for (std::int64_t j = 0; j < out.rows; ++j) {
    const std::int64_t t = input.token_ids[static_cast<std::size_t>(j)];
    const std::int64_t p = input.positions[static_cast<std::size_t>(j)];
    for (std::int64_t c = 0; c < d_t; ++c) out.set(j, c, round_to(scale * input.embeddings->at(t, c), format_id, format));
    for (std::int64_t c = 0; c < d_p; ++c) out.set(j, d_t + c, input.encoding->at(p, c));
  }
  return out;
}

Table zero_pad(const Table& table, std::int64_t left, std::int64_t right) {
  if (left < 0 || right < 0) {
    throw SubjectError("zero_pad: the padding widths must not be negative (left " + std::to_string(left) +
                       ", right " + std::to_string(right) + ")");
  }
  Table out = make_table(table.rows, left + table.cols + right, table.format);  // zero-filled: +0
  for (std::int64_t r = 0; r < table.rows; ++r) {
    for (std::int64_t c = 0; c < table.cols; ++c) out.set(r, left + c, table.at(r, c));
  }
  return out;
}

Table rounded_to(const Table& table, FormatId format_id) { return convert_table(table, format_id); }

// sqrt(d) in double is correctly rounded (IEEE 754 requires it of sqrt), and
// rounding that double to a narrower format rounds twice, which in general
// goes wrong when the first rounding lands exactly on a midpoint between two
// values of the narrow format. For the widths pecheck accepts it cannot: a
// midpoint is m = M 2^k with M odd of p + 1 bits, and for d < 2^16 (so
// sqrt(d) < 2^8 <= M) k is negative. Then d 2^-2k is a multiple of 4 while M^2
// is odd, so d != m^2 and |d - m^2| >= 2^2k = m^2 / M^2
// > m^2 2^-(2p+2). That puts sqrt(d) at a relative distance above 2^-(2p+3)
// >= 2^-51 from m (p <= 24), farther than double's rounding moves it (at most
// 2^-53 relative): the double never sits on a midpoint. This is Figueroa's
// "When is double rounding innocuous?" (1995) condition for sqrt, q >= 2p + 2
// with q = 53, specialised to integers.
//
// We do not rely on the argument: the candidate is verified exactly, for any
// d up to 2^53. The midpoints between neighbouring format values have at most
// 25 bits, so their squares (at most 50 bits) are exact in double, as is d;
// comparing d with them decides the correct rounding, ties to the even
// significand.
double correctly_rounded_sqrt(std::int64_t d, FormatId format_id) {
  constexpr std::int64_t max_exact_integer = std::int64_t{1} << 53;
  if (d < 1 || d > max_exact_integer) {
    throw SubjectError("embedding_scale: the width d must be in [1, 2^53], got " + std::to_string(d));
  }
  const Format& format = format_of(format_id);
  const double exact_d = static_cast<double>(d);
  double rounded = round_to_format(std::sqrt(exact_d), format);
  if (format.precision > 25 || std::isinf(rounded)) return rounded;  // float64 is sqrt itself; overflow is decided by round_to_format

  const auto neighbour = [&](double value, int step) {
    return from_bits(to_bits(value, format) + static_cast<std::uint64_t>(step), format);
  };
  const auto odd = [&](double value) { return (to_bits(value, format) & 1U) != 0; };
  for (;;) {  // too small? (the midpoint with the next value up is below sqrt(d))
    const double up = neighbour(rounded, +1);
    if (std::isinf(up)) break;
    const double mid = (rounded + up) / 2;
    const double mid_squared = mid * mid;
    if (exact_d > mid_squared || (exact_d == mid_squared && odd(rounded))) {
      rounded = up;
      continue;
    }
    break;
  }
  for (;;) {  // too large? (sqrt(d) >= 1, so the value below is positive)
    const double down = neighbour(rounded, -1);
    const double mid = (down + rounded) / 2;
    const double mid_squared = mid * mid;
    if (exact_d < mid_squared || (exact_d == mid_squared && odd(rounded))) {
      rounded = down;
      continue;
    }
    break;
  }
  return rounded;
}

void add_embeddings_float32(std::span<const float> vocabulary, std::span<const float> encoding, std::int64_t d,
                            std::span<const std::int64_t> token_ids, std::span<const std::int64_t> positions,
                            float scale, std::span<float> out, int threads) {
  const std::string op = "add_embeddings_float32";
  if (d < 0) throw SubjectError(op + ": negative width " + std::to_string(d));
  const auto width = static_cast<std::size_t>(d);
  if (token_ids.size() != positions.size()) {
    throw SubjectError(op + ": " + std::to_string(token_ids.size()) + " token ids but " +
                       std::to_string(positions.size()) + " positions");
  }
  if (out.size() != token_ids.size() * width) {
    throw SubjectError(op + ": the output holds " + std::to_string(out.size()) + " values, expected " +
                       std::to_string(token_ids.size() * width) + " (tokens x d)");
  }
  if (width == 0) return;
  if (vocabulary.size() % width != 0 || encoding.size() % width != 0) {
    throw SubjectError(op + ": the vocabulary (" + std::to_string(vocabulary.size()) + " values) and the encoding (" +
                       std::to_string(encoding.size()) + " values) must both be whole rows of d = " +
                       std::to_string(d));
  }
  const auto vocabulary_rows = static_cast<std::int64_t>(vocabulary.size() / width);
  const auto encoding_rows = static_cast<std::int64_t>(encoding.size() / width);
  for (std::size_t j = 0; j < token_ids.size(); ++j) {
    if (token_ids[j] < 0 || token_ids[j] >= vocabulary_rows) {
      throw SubjectError(op + ": token id " + std::to_string(token_ids[j]) + " at index " + std::to_string(j) +
                         " is outside the vocabulary's " + std::to_string(vocabulary_rows) + " rows");
    }
    if (positions[j] < 0 || positions[j] >= encoding_rows) {
      throw SubjectError(op + ": position row " + std::to_string(positions[j]) + " at index " + std::to_string(j) +
                         " is outside the encoding's " + std::to_string(encoding_rows) + " rows");
    }
  }
  // One pass, row by row (for a large pass in position order, see
  // position_order), the rows split across threads; scale_and_add is
  // float * float then + float, each rounded in float32 (no FMA contraction,
  // see the top of this file). A large output is built a row at a time in a
  // buffer that stays in L1 and streamed to memory (stream_store.hpp), so its
  // lines are never read first; the values are the same either way. Each
  // vocabulary row is a fresh page the hardware prefetcher knows nothing
  // about, so while a row is computed the next two rows to compute are
  // prefetched into L2, 16 lines of each per 16 lines computed. Measured on
  // the build machine (two threads, 8192 random rows of 32000 x 1024, caches
  // cold): about a triad's time this way, 1.1 to 1.3 times with only the
  // next row prefetched, 1.3 to 1.7 with bursts of L1 prefetches a few rows
  // ahead (the L1 miss buffers are few).
  const auto tokens = static_cast<std::int64_t>(token_ids.size());
  constexpr std::size_t line_floats = 64 / sizeof(float);
  constexpr std::size_t chunk_floats = 16 * line_floats;
  const bool streaming = worth_streaming(out.size() * sizeof(float));
  const std::vector<std::int64_t> order = position_order(positions, encoding_rows, streaming);
  for_each_row_block(tokens, thread_count(threads, static_cast<std::int64_t>(out.size())),
                     [&](std::int64_t first, std::int64_t count) {
                       LineAlignedBuffer<float> buffer(streaming ? width : 0);
                       const auto token_at = [&](std::int64_t q) {
                         return static_cast<std::size_t>(order.empty() ? q : order[static_cast<std::size_t>(q)]);
                       };
                       const auto row_of = [&](std::int64_t q) {
                         return vocabulary.data() + static_cast<std::size_t>(token_ids[token_at(q)]) * width;
                       };
                       for (std::int64_t q = first; q < first + count; ++q) {
                         const std::size_t at = token_at(q);
                         const float* row = row_of(q);
                         const float* next = row_of(std::min(q + 1, first + count - 1));
                         const float* after_next = row_of(std::min(q + 2, first + count - 1));
                         const float* pe = encoding.data() + static_cast<std::size_t>(positions[at]) * width;
                         float* dest = out.data() + at * width;
                         float* x = streaming ? buffer.data() : dest;
                         for (std::size_t c = 0; c < width; c += chunk_floats) {
                           const std::size_t n = std::min(chunk_floats, width - c);
                           for (std::size_t k = 0; k < n; k += line_floats) {
                             __builtin_prefetch(next + c + k, 0, 2);
                             __builtin_prefetch(after_next + c + k, 0, 2);
                           }
                           scale_and_add(row + c, scale, pe + c, x + c, n);
                         }
                         if (streaming) stream_copy(dest, x, width * sizeof(float));
                       }
                       if (streaming) stream_fence();
                     });
}

}  // namespace pecheck
