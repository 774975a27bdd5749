#include "rotated_workload.hpp"

#include <cmath>
#include <vector>

#include "pecheck/npy_tensor.hpp"
#include "pecheck/table.hpp"

namespace pecheck::bench {

namespace {

constexpr double rope_base = 10000.0;

// Input values in [-2, 2) from a 64-bit LCG (Knuth's MMIX constants), rounded to bfloat16 by the table.
Table input_values(std::int64_t rows) {
  Table in = make_table(rows, rotated_head_dim, FormatId::bfloat16);
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < rotated_head_dim; ++c) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      in.set(r, c, static_cast<double>(state >> 11) * 0x1p-51 - 2.0);
    }
  }
  return in;
}

// The rotation of IN by p * inv_freq, in double, rounded once to bfloat16: a
// correct kernel's output (within half an ULP and the double evaluation's
// few 2^-50 of the exact rotation).
Table rotated_values(const Table& in, std::int64_t length, std::int64_t heads) {
  constexpr std::int64_t half = rotated_head_dim / 2;
  Table out = make_table(in.rows, rotated_head_dim, FormatId::bfloat16);
  for (std::int64_t p = 0; p < length; ++p) {
    for (std::int64_t i = 0; i < half; ++i) {
      const double t = static_cast<double>(p) * rotated_inv_freq(i);
      const double c = std::cos(t), s = std::sin(t);
      for (std::int64_t h = 0; h < heads; ++h) {
        const std::int64_t r = p * heads + h;  // (1, L, H, d): row (p, h)
        const double xa = in.at(r, i), xb = in.at(r, i + half);
        out.set(r, i, xa * c - xb * s);
        out.set(r, i + half, xa * s + xb * c);
      }
    }
  }
  return out;
}

}  // namespace

double rotated_inv_freq(std::int64_t pair) {
  return std::pow(rope_base, -2.0 * static_cast<double>(pair) / static_cast<double>(rotated_head_dim));
}

RotatedFiles write_rotated_files(const std::filesystem::path& dir, const std::string& tag, std::int64_t length,
                                 std::int64_t heads) {
  RotatedFiles files{dir / (tag + "-out.npy"), dir / (tag + "-in.npy"), dir / (tag + "-pos.npy")};
  const std::vector<std::int64_t> shape = {1, length, heads, rotated_head_dim};
  const Table in = input_values(length * heads);
  write_npy_tensor(files.in, in.view(), shape);
  write_npy_tensor(files.out, rotated_values(in, length, heads).view(), shape);
  std::vector<std::int64_t> positions(static_cast<std::size_t>(length));
  for (std::int64_t p = 0; p < length; ++p) positions[static_cast<std::size_t>(p)] = p;
  write_npy_positions(files.positions, positions);
  files.files_bytes = static_cast<double>(std::filesystem::file_size(files.out) + std::filesystem::file_size(files.in));
  return files;
}

void remove_rotated_files(const RotatedFiles& files) {
  for (const auto& path : {files.out, files.in, files.positions}) std::filesystem::remove(path);
}

}  // namespace pecheck::bench
