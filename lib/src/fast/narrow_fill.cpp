#include "narrow_fill.hpp"

// GCC 12 reports its own AVX-512 headers as reading an uninitialised value
// (_mm512_undefined_epi32(), the pass-through operand of an all-ones mask,
// never read), once they are inlined here: a false positive, as in
// sincos_turns.cpp.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include <algorithm>

#include <type_traits>
#include <utility>

#include "narrow_rotation_avx512.hpp"
#include "row_blocks.hpp"
#include "stream_store.hpp"

namespace pecheck {

NarrowLayout narrow_layout(const std::vector<ColumnSpec>& columns) {
  NarrowLayout layout;
  layout.dim = static_cast<std::int64_t>(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].kind == ColumnKind::zero) layout.zero_columns.push_back(static_cast<std::int64_t>(c));
    if (columns[c].kind == ColumnKind::sin) layout.sin_columns.push_back(static_cast<std::int64_t>(c));
  }
  const std::vector<FrequencyColumns> by_frequency = columns_by_frequency(columns);
  const auto frequencies = static_cast<std::int64_t>(by_frequency.size());
  const auto sin_at = [&](std::int64_t i) { return by_frequency[static_cast<std::size_t>(i)].sin_column; };
  const auto cos_at = [&](std::int64_t i) { return by_frequency[static_cast<std::size_t>(i)].cos_column; };
  const auto both = [&](std::int64_t i) { return by_frequency[static_cast<std::size_t>(i)].paired(); };

  std::int64_t i = 0;
  while (i < frequencies) {
    if (!both(i)) {
      if (sin_at(i) >= 0) layout.lone.push_back({ColumnKind::sin, i, sin_at(i)});
      if (cos_at(i) >= 0) layout.lone.push_back({ColumnKind::cos, i, cos_at(i)});
      ++i;
      continue;
    }
    PairedRun run{i, 1, sin_at(i), cos_at(i), 1};
    if (i + 1 < frequencies && both(i + 1) && sin_at(i + 1) - sin_at(i) == cos_at(i + 1) - cos_at(i) &&
        sin_at(i + 1) > sin_at(i)) {
      run.column_stride = sin_at(i + 1) - sin_at(i);
    }
    std::int64_t k = i + 1;
    while (k < frequencies && both(k) && sin_at(k) == run.sin_column + (k - i) * run.column_stride &&
           cos_at(k) == run.cos_column + (k - i) * run.column_stride) {
      ++k;
    }
    run.count = k - i;
    layout.pairs.push_back(run);
    i = k;
  }
  return layout;
}

namespace {

// The portable hot loops over whole blocks of pair rows (rotated_rows.hpp):
// rotating, rounding and storing, keeping the smallest |sin cos| met
// (product_magnitude_bits). Two shapes, so the compiler sees each store
// pattern plainly and vectorises it: sin and cos side by side (interleaved
// layouts), and sin and cos at a common stride (1 in the halves layouts; no
// preset has another).
template <class Output>
void rotate_interleaved(const double* __restrict anchor, const double* __restrict step, std::int64_t blocks,
                        typename Output::Value* __restrict dest, std::uint64_t& smallest) {
  std::uint64_t least = smallest;
  for (std::int64_t b = 0; b < blocks; ++b) {
    const double* a = anchor + 2 * pair_block * b;
    const double* t = step + 2 * pair_block * b;
    typename Output::Value* out = dest + 2 * pair_block * b;
    for (std::int64_t l = 0; l < pair_block; ++l) {
      double s;
      double c;
      rotate_pair(a[l], a[pair_block + l], t[l], t[pair_block + l], s, c);
      out[2 * l] = Output::convert(s);
      out[2 * l + 1] = Output::convert(c);
      least = std::min(least, product_magnitude_bits(s, c));
    }
  }
  smallest = least;
}

template <class Output>
void rotate_strided(const double* __restrict anchor, const double* __restrict step, std::int64_t blocks,
                    std::int64_t stride, typename Output::Value* __restrict sin_dest,
                    typename Output::Value* __restrict cos_dest, std::uint64_t& smallest) {
  std::uint64_t least = smallest;
  for (std::int64_t b = 0; b < blocks; ++b) {
    const double* a = anchor + 2 * pair_block * b;
    const double* t = step + 2 * pair_block * b;
    for (std::int64_t l = 0; l < pair_block; ++l) {
      double s;
      double c;
      rotate_pair(a[l], a[pair_block + l], t[l], t[pair_block + l], s, c);
      const std::int64_t k = pair_block * b + l;
      sin_dest[k * stride] = Output::convert(s);
      cos_dest[k * stride] = Output::convert(c);
      least = std::min(least, product_magnitude_bits(s, c));
    }
  }
  smallest = least;
}

template <class Value>
bool aligned_to(const Value* p, std::size_t bytes) {
  return reinterpret_cast<std::uintptr_t>(p) % bytes == 0;
}

// Whole blocks of a paired run: the AVX-512 loops where the build has them
// (narrow_rotation_avx512.hpp), the portable ones otherwise. `direct`: the
// destination is the output itself, and aligned vector stores there may be
// streaming ones. `checked`: pairs failing the check will be recomputed.
// Returns the smallest |sin cos| (product_magnitude_bits).
template <class Output>
std::uint64_t rotate_blocks(const PairedRun& run, const double* anchor, const double* step, std::int64_t blocks,
                            typename Output::Value* sin_dest, typename Output::Value* cos_dest, bool direct,
                            bool checked) {
  std::uint64_t smallest = ~std::uint64_t{0};
  const bool interleaved = run.column_stride == 2 && run.cos_column == run.sin_column + 1;
#if PECHECK_UNIT_ROUNDING_AVX512
  if constexpr (avx512::vectorised<Output>) {
    if (interleaved) {
      const bool stream = direct && aligned_to(sin_dest, avx512::interleaved_step_bytes<Output>);
      avx512::rotate_interleaved<Output>(anchor, step, blocks, sin_dest, stream, checked, smallest);
      return smallest;
    }
    if (run.column_stride == 1) {
      const std::size_t bytes = avx512::contiguous_step_bytes<Output>;
      const bool stream = direct && aligned_to(sin_dest, bytes) && aligned_to(cos_dest, bytes);
      avx512::rotate_contiguous<Output>(anchor, step, blocks, sin_dest, cos_dest, stream, checked, smallest);
      return smallest;
    }
  }
#endif
  (void)direct;
  (void)checked;
  if (interleaved) {
    rotate_interleaved<Output>(anchor, step, blocks, sin_dest, smallest);
  } else {
    rotate_strided<Output>(anchor, step, blocks, run.column_stride, sin_dest, cos_dest, smallest);
  }
  return smallest;
}

// Runs are processed in chunks of this many frequencies, so a pair that
// fails the check is looked for among 64, not among all of a run.
constexpr std::int64_t chunk_frequencies = 64;
static_assert(chunk_frequencies % pair_block == 0);

template <class Output>
class RowFiller {
 public:
  using Value = typename Output::Value;

  RowFiller(const NarrowLayout& layout, const TurnsView& turns, const RotationTable& table)
      : layout_(layout), turns_(turns), table_(table), anchor_(turns) {}

  // The row holding `position` into row (dim values); `direct`: row is the
  // output itself (see rotate_blocks).
  void fill(std::int64_t position, Value* row, bool direct) {
    const std::int64_t j = position % table_.spacing();
    anchor_.move_to(position - j);
    anchor_pairs_ = anchor_.pairs();
    step_pairs_ = table_.step(j);
    // At j = 0 the step is (0, 1) exactly, the rotation returns the anchor
    // (the kernel's own pair) unchanged, and recomputing would give it again.
    checked_ = j != 0;

    for (const PairedRun& run : layout_.pairs) {
      // Single pairs up to a whole block, whole blocks in chunks, single
      // pairs after the last whole block.
      const std::int64_t end = run.first_frequency + run.count;
      std::int64_t i = run.first_frequency;
      for (; i < end && i % pair_block != 0; ++i) fill_pair(position, run, i, row);
      while (end - i >= pair_block) {
        const std::int64_t count = std::min(chunk_frequencies, (end - i) / pair_block * pair_block);
        const std::int64_t k = i - run.first_frequency;
        Value* sin_dest = row + run.sin_column + k * run.column_stride;
        Value* cos_dest = row + run.cos_column + k * run.column_stride;
        const std::int64_t offset = i / pair_block * 2 * pair_block;
        const std::uint64_t smallest = rotate_blocks<Output>(run, anchor_pairs_ + offset, step_pairs_ + offset,
                                                             count / pair_block, sin_dest, cos_dest, direct,
                                                             checked_);
        if (checked_ && any_must_recompute(smallest)) {
          for (std::int64_t f = i; f < i + count; ++f) {
            if (must_recompute(rotated(f).first, rotated(f).second)) fill_pair(position, run, f, row);
          }
        }
        i += count;
      }
      for (; i < end; ++i) fill_pair(position, run, i, row);
    }
    for (const LoneEntry& entry : layout_.lone) {
      const auto [s, c] = pair_at(position, entry.frequency);
      row[entry.column] = Output::convert(entry.kind == ColumnKind::sin ? s : c);
    }
    for (const std::int64_t c : layout_.zero_columns) row[c] = Value{0};
  }

 private:
  // The rotated pair of frequency i, before the check.
  std::pair<double, double> rotated(std::int64_t i) const {
    double s;
    double c;
    rotate_pair(sin_in(anchor_pairs_, i), cos_in(anchor_pairs_, i), sin_in(step_pairs_, i), cos_in(step_pairs_, i),
                s, c);
    return {s, c};
  }

  // The pair of frequency i as the narrow formats round it: rotated, or the
  // kernel's when the rotated pair fails the check.
  std::pair<double, double> pair_at(std::int64_t position, std::int64_t i) const {
    std::pair<double, double> pair = rotated(i);
    if (checked_ && must_recompute(pair.first, pair.second)) kernel_pair(turns_, position, i, pair.first, pair.second);
    return pair;
  }

  void fill_pair(std::int64_t position, const PairedRun& run, std::int64_t i, Value* row) const {
    const auto [s, c] = pair_at(position, i);
    const std::int64_t k = i - run.first_frequency;
    row[run.sin_column + k * run.column_stride] = Output::convert(s);
    row[run.cos_column + k * run.column_stride] = Output::convert(c);
  }

  const NarrowLayout& layout_;
  TurnsView turns_;
  const RotationTable& table_;
  AnchorRow anchor_;
  const double* anchor_pairs_ = nullptr;
  const double* step_pairs_ = nullptr;
  bool checked_ = false;
};

// -x of a stored value: the sign bit of a float16 or bfloat16 pattern.
inline float negated(float x) { return -x; }
inline double negated(double x) { return -x; }
inline std::uint16_t negated(std::uint16_t bits) { return static_cast<std::uint16_t>(bits ^ 0x8000u); }

}  // namespace

template <class Output>
void fill_narrow_rows(const Convention& convention, const NarrowLayout& layout, const TurnsView& turns,
                      const RotationTable& table, std::int64_t first_row, std::int64_t row_count,
                      std::int64_t row_offset, typename Output::Value* out, int threads) {
  using Value = typename Output::Value;
  if (row_count <= 0) return;
  const std::int64_t dim = layout.dim;
  const bool streaming = worth_streaming(static_cast<std::size_t>(row_count * dim) * sizeof(Value));
  // With the AVX-512 loops a large output is written directly, with
  // streaming stores; otherwise each row is built in an L1-sized buffer and
  // streamed out whole.
  bool direct = false;
#if PECHECK_UNIT_ROUNDING_AVX512
  direct = streaming && avx512::vectorised<Output>;
#endif
  const bool buffered = streaming && !direct;
  for_each_row_block(row_count, threads, [&](std::int64_t first, std::int64_t count) {
    RowFiller<Output> filler(layout, turns, table);
    LineAlignedBuffer<Value> buffer(static_cast<std::size_t>(buffered ? dim : 0));
    for (std::int64_t r = first; r < first + count; ++r) {
      Value* dest = out + r * dim;
      Value* row = buffered ? buffer.data() : dest;
      const std::int64_t convention_row = first_row + r + row_offset;
      if (is_zero_row(convention, convention_row)) {
        std::fill(row, row + dim, Value{0});
      } else {
        // sin(-x) = -sin(x), cos(-x) = cos(x): the row of a negative position
        // is its magnitude's row with the sin columns negated. Negation is
        // exact and round-to-nearest-even is symmetric, so every entry keeps
        // the error it has at |p| < 2^24, the bound sincos_turns.cpp derives.
        const std::int64_t position = position_of_row(convention, convention_row);
        // (Streamed stores are for rows written once: a negated row is not streamed.)
        filler.fill(position < 0 ? -position : position, row, direct && position >= 0);
        if (position < 0) {
          for (const std::int64_t c : layout.sin_columns) row[c] = negated(row[c]);
        }
      }
      if (buffered) stream_copy(dest, row, static_cast<std::size_t>(dim) * sizeof(Value));
    }
    if (streaming) stream_fence();
  });
}

template void fill_narrow_rows<Float32Output>(const Convention&, const NarrowLayout&, const TurnsView&,
                                              const RotationTable&, std::int64_t, std::int64_t, std::int64_t,
                                              float*, int);
template void fill_narrow_rows<Float16Output>(const Convention&, const NarrowLayout&, const TurnsView&,
                                              const RotationTable&, std::int64_t, std::int64_t, std::int64_t,
                                              std::uint16_t*, int);
template void fill_narrow_rows<BFloat16Output>(const Convention&, const NarrowLayout&, const TurnsView&,
                                              const RotationTable&, std::int64_t, std::int64_t, std::int64_t,
                                              std::uint16_t*, int);
template void fill_narrow_rows<SourceOutput>(const Convention&, const NarrowLayout&, const TurnsView&,
                                              const RotationTable&, std::int64_t, std::int64_t, std::int64_t,
                                              double*, int);

}  // namespace pecheck
