#include "pecheck/rotary_cache_file.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "byte_io.hpp"
#include "byte_source.hpp"
#include "float_bits.hpp"
#include "npy_array_dtype.hpp"
#include "npy_layout.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/memory_limit.hpp"
#include "pecheck/npy_array.hpp"
#include "pecheck/table_errors.hpp"
#include "pecheck/table_file.hpp"
#include "table_codec.hpp"

namespace pecheck {

namespace {

// Bytes of the file decoded at a time by the element-wise path: the payload
// is never held whole, so the peak is the two tables (the file's size) plus this.
constexpr std::size_t block_bytes = std::size_t{1} << 20;

// The stored order of the entries (part k: 0 cos, 1 sin; row r; column c) as
// an odometer over the three indices, the fastest first: a complex (L, d/2)
// array stores r, c, k (k fastest); a Fortran-order (2, L, d) stack stores
// c, r, k.
struct StoredOrder {
  std::array<std::uint64_t, 3> extent;  // of k, r, c
  std::array<int, 3> fastest_first;     // indices into extent
};

// The two tables from the payload, element by element, in blocks.
RotaryCache read_parts(const detail::ByteSource& source, std::uint64_t offset, std::uint64_t rows, std::uint64_t cols,
                       FormatId format, ByteOrder byte_order, const StoredOrder& order) {
  RotaryCache cache{make_uninitialized_table(static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols), format),
                    make_uninitialized_table(static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols), format)};
  const std::array<std::span<std::byte>, 2> out{cache.cos.mutable_bytes(), cache.sin.mutable_bytes()};
  const auto itemsize = static_cast<std::uint64_t>(detail::storage_bytes(format));
  const bool swap = (byte_order == ByteOrder::little) != (std::endian::native == std::endian::little);
  const std::uint64_t entries = 2 * rows * cols;
  std::vector<std::byte> block(block_bytes);
  std::array<std::uint64_t, 3> index{0, 0, 0};  // k, r, c of the next stored entry
  for (std::uint64_t first = 0; first < entries;) {
    const std::uint64_t count = std::min<std::uint64_t>(block_bytes / itemsize, entries - first);
    const std::span<std::byte> chunk(block.data(), count * itemsize);
    source.read(offset + first * itemsize, chunk);
    for (std::uint64_t j = 0; j < count; ++j) {
      std::byte* to = out[index[0]].data() + (index[1] * cols + index[2]) * itemsize;
      std::memcpy(to, chunk.data() + j * itemsize, itemsize);
      if (swap) std::reverse(to, to + itemsize);
      for (const int axis : order.fastest_first) {
        if (++index[axis] < order.extent[axis]) break;
        index[axis] = 0;
      }
    }
    first += count;
  }
  return cache;
}

}  // namespace

RotaryCache read_combined_rotary_cache(const std::filesystem::path& path) {
  const detail::FileSource source(path);
  const std::string_view name = source.name();
  const std::string file = path.string();
  const detail::NpyLayout layout = detail::read_npy_layout(source);
  const std::vector<std::uint64_t>& s = layout.header.shape;
  {
    // The rows from the header alone, before the payload is read: a cache
    // holds positions below 2^24, one per row.
    const std::uint64_t rows = s.size() == 3 && s[0] == 2 ? s[1] : s.empty() ? 0 : s[0];
    if (rows > static_cast<std::uint64_t>(max_exact_position)) {
      throw TableFileError(name, "shape", detail::npy_shape_text(s) + " is " + std::to_string(rows) + " rows",
                           "at most 2^24 rows, one per position below 2^24");
    }
  }
  const std::string& descr = layout.header.descr;
  const detail::ArrayDtype dtype = detail::parse_array_descr(descr, name);
  if (dtype.kind == 'i' || dtype.kind == 'u') {
    throw TableFileError(file + ": dtype " + descr + ": expected a float or complex cache");
  }
  const bool complex = dtype.components == 2;
  const bool fortran = layout.header.fortran_order && s.size() > 1;
  if (complex && fortran) {
    throw TableFileError(name, "fortran_order", "a Fortran-order complex array", "a complex array in C order");
  }
  // A complex (L, d/2) freqs_cis: cos the real parts, sin the imaginary parts.
  // Or a (2, L, d) stack, cos then sin.
  const bool stack = !complex && s.size() == 3 && s[0] == 2;
  if (!(complex && s.size() == 2) && !stack) {
    std::vector<std::int64_t> shown(s.begin(), s.end());
    if (complex) shown.push_back(2);  // as the complex array reads: its float parts last
    throw TableFileError(file + ": shape " + shape_text(shown) + " of '" + descr +
                         "': expected a complex (positions, d/2) freqs_cis or a (2, positions, d) stack of cos and sin");
  }
  const std::uint64_t rows = complex ? s[0] : s[1];
  const std::uint64_t cols = complex ? s[1] : s[2];
  // rows <= 2^24: 2 * rows cannot overflow; the product is checked by division.
  detail::checked_entries(2 * rows, cols, dtype.itemsize, source.size() - layout.data_start, name, "shape",
                          detail::npy_shape_text(s) + " of " + detail::quoted_excerpt(descr));
  const FormatId format =
      dtype.itemsize == 2 ? FormatId::float16 : dtype.itemsize == 4 ? FormatId::float32 : FormatId::float64;
  const std::uint64_t part_bytes = rows * cols * static_cast<std::uint64_t>(dtype.itemsize);
  try {
    // Both tables at once: each alone might fit where the two do not.
    check_memory_available(2 * part_bytes, "a " + std::to_string(rows) + " x " + std::to_string(cols) + " " +
                                               std::string(detail::format_name(format)) + " cos and sin pair");
    if (stack && !fortran) {
      // Each part is a row-major table of its own: read straight into its storage.
      return {detail::read_table_payload(source, layout.data_start, rows, cols, format, dtype.byte_order,
                                         StorageOrder::row_major),
              detail::read_table_payload(source, layout.data_start + part_bytes, rows, cols, format,
                                         dtype.byte_order, StorageOrder::row_major)};
    }
    const StoredOrder order = complex ? StoredOrder{{2, rows, cols}, {0, 2, 1}} : StoredOrder{{2, rows, cols}, {0, 1, 2}};
    return read_parts(source, layout.data_start, rows, cols, format, dtype.byte_order, order);
  } catch (const MemoryLimitError& error) {
    throw TableFileError(name, "shape", error.what(), "a cache that fits in memory");
  } catch (const TableShapeError& error) {
    throw TableFileError(name, "shape", error.what(), "a cache that fits in memory");
  }
}

}  // namespace pecheck
