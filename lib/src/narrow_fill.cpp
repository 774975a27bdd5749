#include "narrow_fill.hpp"

// GCC 12 reports its own AVX-512 headers as reading an uninitialised value
// (the pass-through operand of an all-ones mask, never read), once they are
// inlined here: a false positive, as in sincos_turns.cpp.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <algorithm>

#include <type_traits>

#include "row_blocks.hpp"
#include "stream_store.hpp"
#include "unit_rounding_avx512.hpp"

namespace pecheck {

NarrowLayout narrow_layout(const std::vector<ColumnSpec>& columns) {
  NarrowLayout layout;
  layout.dim = static_cast<std::int64_t>(columns.size());
  std::int64_t frequencies = 0;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].kind == ColumnKind::zero) {
      layout.zero_columns.push_back(static_cast<std::int64_t>(c));
    } else {
      frequencies = std::max(frequencies, columns[c].frequency_index + 1);
    }
  }
  std::vector<std::int64_t> sin_column(static_cast<std::size_t>(frequencies), -1);
  std::vector<std::int64_t> cos_column(static_cast<std::size_t>(frequencies), -1);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const auto i = static_cast<std::size_t>(columns[c].frequency_index);
    if (columns[c].kind == ColumnKind::sin) sin_column[i] = static_cast<std::int64_t>(c);
    if (columns[c].kind == ColumnKind::cos) cos_column[i] = static_cast<std::int64_t>(c);
  }
  const auto sin_at = [&](std::int64_t i) { return sin_column[static_cast<std::size_t>(i)]; };
  const auto cos_at = [&](std::int64_t i) { return cos_column[static_cast<std::size_t>(i)]; };
  const auto both = [&](std::int64_t i) { return sin_at(i) >= 0 && cos_at(i) >= 0; };

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

#if PECHECK_UNIT_ROUNDING_AVX512
// rotate_pair on eight lanes, the same operations in the same order, and
// the running minimum of product_magnitude_bits.
inline void rotate_eight_pairs(const double* anchor_sin, const double* anchor_cos, const double* step_sin,
                         const double* step_cos, __m512d& s, __m512d& c, __m512i& smallest_bits) {
  const __m512d s0 = _mm512_loadu_pd(anchor_sin);
  const __m512d c0 = _mm512_loadu_pd(anchor_cos);
  const __m512d sj = _mm512_loadu_pd(step_sin);
  const __m512d cj = _mm512_loadu_pd(step_cos);
  s = _mm512_add_pd(_mm512_mul_pd(s0, cj), _mm512_mul_pd(c0, sj));
  c = _mm512_sub_pd(_mm512_mul_pd(c0, cj), _mm512_mul_pd(s0, sj));
  const __m512i magnitude = _mm512_and_si512(_mm512_castpd_si512(_mm512_mul_pd(s, c)),
                                             _mm512_set1_epi64(0x7fffffffffffffff));
  smallest_bits = _mm512_min_epu64(smallest_bits, magnitude);
}
#endif

// The hot loops: one pass over part of a paired run, rotating, rounding and
// storing, returning the smallest |sin cos| met (product_magnitude_bits).
// Three shapes, so the compiler sees each store pattern plainly and
// vectorises it: sin and cos side by side (interleaved layouts), two
// contiguous blocks (halves layouts), and any other stride (no preset has
// one).
template <class Output>
std::uint64_t rotate_interleaved(const double* __restrict anchor_sin, const double* __restrict anchor_cos,
                                 const double* __restrict step_sin, const double* __restrict step_cos,
                                 std::int64_t count, typename Output::Value* __restrict dest) {
  std::uint64_t smallest = ~std::uint64_t{0};
  std::int64_t k = 0;
#if PECHECK_UNIT_ROUNDING_AVX512
  if constexpr (std::is_same_v<Output, Float16Output> || std::is_same_v<Output, BFloat16Output>) {
    __m512i smallest_bits = _mm512_set1_epi64(-1);
    for (; k + 8 <= count; k += 8) {
      __m512d s;
      __m512d c;
      rotate_eight_pairs(anchor_sin + k, anchor_cos + k, step_sin + k, step_cos + k, s, c, smallest_bits);
      if constexpr (std::is_same_v<Output, Float16Output>) {
        avx512::store_float16_interleaved(s, c, dest + 2 * k);
      } else {
        avx512::store_bfloat16_interleaved(s, c, dest + 2 * k);
      }
    }
    smallest = _mm512_reduce_min_epu64(smallest_bits);
  }
#endif
  for (; k < count; ++k) {
    double s;
    double c;
    rotate_pair(anchor_sin[k], anchor_cos[k], step_sin[k], step_cos[k], s, c);
    dest[2 * k] = Output::convert(s);
    dest[2 * k + 1] = Output::convert(c);
    smallest = std::min(smallest, product_magnitude_bits(s, c));
  }
  return smallest;
}

template <class Output>
std::uint64_t rotate_strided(const double* __restrict anchor_sin, const double* __restrict anchor_cos,
                            const double* __restrict step_sin, const double* __restrict step_cos, std::int64_t count,
                            std::int64_t stride, typename Output::Value* __restrict sin_dest,
                            typename Output::Value* __restrict cos_dest) {
  std::uint64_t smallest = ~std::uint64_t{0};
  for (std::int64_t k = 0; k < count; ++k) {
    double s;
    double c;
    rotate_pair(anchor_sin[k], anchor_cos[k], step_sin[k], step_cos[k], s, c);
    sin_dest[k * stride] = Output::convert(s);
    cos_dest[k * stride] = Output::convert(c);
    smallest = std::min(smallest, product_magnitude_bits(s, c));
  }
  return smallest;
}

template <class Output>
std::uint64_t rotate_contiguous(const double* __restrict anchor_sin, const double* __restrict anchor_cos,
                                const double* __restrict step_sin, const double* __restrict step_cos,
                                std::int64_t count, typename Output::Value* __restrict sin_dest,
                                typename Output::Value* __restrict cos_dest) {
  std::uint64_t smallest = ~std::uint64_t{0};
  std::int64_t k = 0;
#if PECHECK_UNIT_ROUNDING_AVX512
  if constexpr (std::is_same_v<Output, Float16Output> || std::is_same_v<Output, BFloat16Output>) {
    __m512i smallest_bits = _mm512_set1_epi64(-1);
    for (; k + 8 <= count; k += 8) {
      __m512d s;
      __m512d c;
      rotate_eight_pairs(anchor_sin + k, anchor_cos + k, step_sin + k, step_cos + k, s, c, smallest_bits);
      if constexpr (std::is_same_v<Output, Float16Output>) {
        avx512::store_float16(s, sin_dest + k);
        avx512::store_float16(c, cos_dest + k);
      } else {
        avx512::store_bfloat16(s, sin_dest + k);
        avx512::store_bfloat16(c, cos_dest + k);
      }
    }
    smallest = _mm512_reduce_min_epu64(smallest_bits);
  }
#endif
  return std::min(smallest, rotate_strided<Output>(anchor_sin + k, anchor_cos + k, step_sin + k, step_cos + k,
                                                   count - k, 1, sin_dest + k, cos_dest + k));
}

// Runs are processed in chunks of this many frequencies, so a pair that
// fails the check is looked for among 64, not among all of a run.
constexpr std::int64_t chunk_frequencies = 64;

template <class Output>
class RowFiller {
 public:
  using Value = typename Output::Value;

  RowFiller(const NarrowLayout& layout, const TurnsView& turns, const RotationTable& table)
      : layout_(layout), turns_(turns), table_(table), anchor_(turns) {}

  void fill(std::int64_t position, Value* row) {
    const std::int64_t j = position % table_.spacing();
    anchor_.move_to(position - j);
    const double* s0 = anchor_.sin();
    const double* c0 = anchor_.cos();
    const double* sj = table_.sin_at(j);
    const double* cj = table_.cos_at(j);
    // At j = 0 the step is (0, 1) exactly, the rotation returns the anchor
    // (the kernel's own pair) unchanged, and recomputing would give it again.
    const bool checked = j != 0;

    for (const PairedRun& run : layout_.pairs) {
      const bool interleaved = run.column_stride == 2 && run.cos_column == run.sin_column + 1;
      for (std::int64_t start = 0; start < run.count; start += chunk_frequencies) {
        const std::int64_t count = std::min(chunk_frequencies, run.count - start);
        const std::int64_t i = run.first_frequency + start;
        Value* sin_dest = row + run.sin_column + start * run.column_stride;
        Value* cos_dest = row + run.cos_column + start * run.column_stride;
        std::uint64_t smallest = 0;
        if (interleaved) {
          smallest = rotate_interleaved<Output>(s0 + i, c0 + i, sj + i, cj + i, count, sin_dest);
        } else if (run.column_stride == 1) {
          smallest = rotate_contiguous<Output>(s0 + i, c0 + i, sj + i, cj + i, count, sin_dest, cos_dest);
        } else {
          smallest =
              rotate_strided<Output>(s0 + i, c0 + i, sj + i, cj + i, count, run.column_stride, sin_dest, cos_dest);
        }
        if (checked && any_must_recompute(smallest)) {
          recompute(position, i, count, run.column_stride, s0, c0, sj, cj, sin_dest, cos_dest);
        }
      }
    }
    for (const LoneEntry& entry : layout_.lone) {
      double s;
      double c;
      const auto i = static_cast<std::size_t>(entry.frequency);
      rotate_pair(s0[i], c0[i], sj[i], cj[i], s, c);
      if (checked && must_recompute(s, c)) kernel_pair(turns_, position, entry.frequency, s, c);
      row[entry.column] = Output::convert(entry.kind == ColumnKind::sin ? s : c);
    }
    for (const std::int64_t c : layout_.zero_columns) row[c] = Value{0};
  }

 private:
  // Rare (a few rows in a hundred): stores the kernel's pair over every pair
  // of a chunk that failed the check.
  void recompute(std::int64_t position, std::int64_t first_frequency, std::int64_t count, std::int64_t stride,
                 const double* s0, const double* c0, const double* sj, const double* cj, Value* sin_dest,
                 Value* cos_dest) const {
    for (std::int64_t k = 0; k < count; ++k) {
      const std::int64_t i = first_frequency + k;
      double s;
      double c;
      rotate_pair(s0[i], c0[i], sj[i], cj[i], s, c);
      if (!must_recompute(s, c)) continue;
      kernel_pair(turns_, position, i, s, c);
      sin_dest[k * stride] = Output::convert(s);
      cos_dest[k * stride] = Output::convert(c);
    }
  }

  const NarrowLayout& layout_;
  TurnsView turns_;
  const RotationTable& table_;
  AnchorRow anchor_;
};

}  // namespace

template <class Output>
void fill_narrow_rows(const Convention& convention, const NarrowLayout& layout, const TurnsView& turns,
                      const RotationTable& table, std::int64_t first_row, std::int64_t row_count,
                      std::int64_t row_offset, typename Output::Value* out, int threads) {
  using Value = typename Output::Value;
  if (row_count <= 0) return;
  const std::int64_t dim = layout.dim;
  const bool streaming = worth_streaming(static_cast<std::size_t>(row_count * dim) * sizeof(Value));
  for_each_row_block(row_count, threads, [&](std::int64_t first, std::int64_t count) {
    RowFiller<Output> filler(layout, turns, table);
    std::vector<Value> buffer(static_cast<std::size_t>(streaming ? dim : 0));
    for (std::int64_t r = first; r < first + count; ++r) {
      Value* dest = out + r * dim;
      Value* row = streaming ? buffer.data() : dest;
      const std::int64_t convention_row = first_row + r + row_offset;
      if (is_zero_row(convention, convention_row)) {
        std::fill(row, row + dim, Value{0});
      } else {
        filler.fill(position_of_row(convention, convention_row), row);
      }
      if (streaming) stream_copy(dest, row, static_cast<std::size_t>(dim) * sizeof(Value));
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
