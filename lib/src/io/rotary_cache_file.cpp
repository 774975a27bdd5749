#include "pecheck/rotary_cache_file.hpp"

#include <functional>

#include "byte_source.hpp"
#include "npy_layout.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/npy_array.hpp"
#include "pecheck/table_file.hpp"

namespace pecheck {

namespace {

Table slice(const NpyArray& array, std::int64_t rows, std::int64_t cols,
            const std::function<std::size_t(std::int64_t, std::int64_t)>& index) {
  Table table = make_table(rows, cols, array.format);
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) table.set(r, c, array.values[index(r, c)]);
  }
  return table;
}

}  // namespace

RotaryCache read_combined_rotary_cache(const std::filesystem::path& path) {
  {
    // The rows from the header alone, before the payload is read: a cache
    // holds positions below 2^24, one per row.
    const detail::FileSource source(path);
    const std::vector<std::uint64_t>& s = detail::read_npy_layout(source).header.shape;
    const std::uint64_t rows = s.size() == 3 && s[0] == 2 ? s[1] : s.empty() ? 0 : s[0];
    if (rows > static_cast<std::uint64_t>(max_exact_position)) {
      throw TableFileError(source.name(), "shape", detail::npy_shape_text(s) + " is " + std::to_string(rows) + " rows",
                           "at most 2^24 rows, one per position below 2^24");
    }
  }
  const NpyArray array = read_npy_array(path);
  const std::string file = path.string();
  if (array.integer) throw TableFileError(file + ": dtype " + array.dtype + ": expected a float or complex cache");
  const auto& s = array.shape;
  const bool complex = array.dtype.size() >= 2 && array.dtype[1] == 'c';
  if (complex && s.size() == 3) {
    // read_npy_array gives a complex (L, d/2) array as (L, d/2, 2): real, imaginary.
    const std::int64_t rows = s[0], cols = s[1];
    const auto part = [&](std::int64_t k) {
      return slice(array, rows, cols,
                   [=](std::int64_t r, std::int64_t c) { return static_cast<std::size_t>((r * cols + c) * 2 + k); });
    };
    return {part(0), part(1)};
  }
  if (!complex && s.size() == 3 && s[0] == 2) {
    const std::int64_t rows = s[1], cols = s[2];
    const auto part = [&](std::int64_t k) {
      return slice(array, rows, cols,
                   [=](std::int64_t r, std::int64_t c) { return static_cast<std::size_t>((k * rows + r) * cols + c); });
    };
    return {part(0), part(1)};
  }
  throw TableFileError(file + ": shape " + shape_text(s) + " of '" + array.dtype +
                       "': expected a complex (positions, d/2) freqs_cis or a (2, positions, d) stack of cos and sin");
}

}  // namespace pecheck
