// The data of the rotated_cli figure, shared by the command's timing
// (rotated_figure.cpp) and the Python call's (python_figures.cpp), so both
// read the same files: a llama2 kernel's rotated queries, (1, L, H, 128)
// bfloat16, the input drawn from a fixed generator and the output its
// rotation in double rounded once to bfloat16 (a correct kernel's output).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace pecheck::bench {

// llama2's rotary rule at head_dim 128: inv_freq_i = 10000^(-2i / 128), rotate-half.
inline constexpr std::int64_t rotated_head_dim = 128;
inline constexpr const char* rotated_preset = "llama2";
double rotated_inv_freq(std::int64_t pair);

struct RotatedFiles {
  std::filesystem::path out, in, positions;
  double files_bytes = 0.0;  // OUT and IN together
};

// Writes OUT, IN (shape (1, length, heads, 128), bfloat16) and POS (0 to
// length - 1) as TAG-out.npy, TAG-in.npy and TAG-pos.npy in dir.
RotatedFiles write_rotated_files(const std::filesystem::path& dir, const std::string& tag, std::int64_t length,
                                 std::int64_t heads);
void remove_rotated_files(const RotatedFiles& files);

}  // namespace pecheck::bench
