// The fast float implementation of a convention's encoding table.
//
// Row r of the output holds the convention's row r + row_offset. Every entry
// is within 1 float32 ulp of the exact value for every position below 2^24
// (the design and its error bounds are in lib/src/fast/sincos_turns.cpp and
// lib/src/fast/rotated_rows.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "pecheck/convention.hpp"
#include "pecheck/produced_table.hpp"
#include "pecheck/table.hpp"

namespace pecheck {

struct TableRequest {
  std::int64_t rows = 0;
  std::int64_t dim = 0;
  std::int64_t row_offset = 0;
};

// Throws ConventionError for an impossible request (d out of range, odd d the
// convention rejects, negative rows or offset, positions at or beyond 2^24).
void check_request(const Convention& convention, const TableRequest& request);

// Typed outputs for the hot path; out.size() must be rows * dim. The rows are
// split across `threads` threads (0: one per hardware thread when the table is
// large enough to pay for them); the bits do not depend on the thread count.
// float64 is the kernel's own result; float32, float16 and bfloat16 are one
// accurate double per entry rounded once (lib/src/fast/rotated_rows.cpp), within
// 1 float32 ulp of the exact value.
void fast_encoding(const Convention& convention, const TableRequest& request, std::span<double> out,
                   int threads = 0);
void fast_encoding(const Convention& convention, const TableRequest& request, std::span<float> out,
                   int threads = 0);
// float16 / bfloat16 storage bits, rounded once from the same accurate value as float32.
void fast_encoding_float16(const Convention& convention, const TableRequest& request, std::span<std::uint16_t> out,
                           int threads = 0);
void fast_encoding_bfloat16(const Convention& convention, const TableRequest& request, std::span<std::uint16_t> out,
                            int threads = 0);

class EncodingPlan;

// The fast path with its plan (the column layout and the frequencies) built
// once: for callers that ask for many runs of rows of one convention and
// width (validate's scans of sampled rows, a table written a block at a
// time), where building the plan per call costs more than the rows themselves.
class FastEncoder {
 public:
  FastEncoder(const Convention& convention, std::int64_t dim);
  ~FastEncoder();
  FastEncoder(FastEncoder&&) noexcept;
  FastEncoder& operator=(FastEncoder&&) noexcept;

  // fast_encoding(convention, request, out, 1), bit for bit; request.dim must be dim.
  void encode(const TableRequest& request, std::span<double> out) const;
  // The convention's rows [first_row, first_row + out.rows) into out, in out's
  // own format, on `threads` threads (0: as fast_encoding chooses); out.cols
  // must be dim. fast_table and fast_row_blocks are this.
  void fill(std::int64_t first_row, Table& out, int threads = 0) const;

 private:
  Convention convention_;
  std::int64_t dim_;
  std::unique_ptr<const EncodingPlan> plan_;
};

// Any format, as a Table in the format's own type: the same kernels as the
// typed entry points above, writing straight into the table's storage.
Table fast_table(const Convention& convention, const TableRequest& request, FormatId format, int threads = 0);
// The same table a block of rows at a time, for a writer that holds one block
// (write_table_file): the bits of every row are those fast_table gives. The
// request is checked here; the blocks share one plan, and `threads` (0:
// automatic) becomes the number of blocks filled at once.
ProducedTable fast_row_blocks(const Convention& convention, const TableRequest& request, FormatId format,
                          int threads = 0);

}  // namespace pecheck
