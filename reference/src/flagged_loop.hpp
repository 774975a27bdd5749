// A loop over a row's entries whose per-entry verdict is a byte (done, ok):
// the entries go by blocks of eight, their verdicts into eight 64-bit lanes,
// and the block's bytes are stored after it. Written as one loop that stores
// each byte, GCC 12 vectorised it sixty-four entries at a time (to store a
// whole 512-bit vector of bytes): eight vectors of every double in flight,
// spilled to the stack. The angle-sum tier's exact entries took 2.67 ns a
// (cos, sin) pair that way and 1.30 ns in blocks of eight (Zen 4, rows of 64
// frequencies, the same arithmetic, so the same bits); 2.97 and 2.12 ns
// compiled for x86-64-v3. `pecheck validate` of a 65536 x 128 float32
// llama3.1 cache: 92 -> 87 ms of CPU (perf stat, three alternated runs of ten).
//
// The verdict should use no type narrower than 64 bits (no byte, no float):
// one makes GCC look for more than eight lanes, and the block stays scalar
// (the float-angle tier, which rounds to float32, was slower this way: its
// own loop is kept).
//
// Compiled for a target without AVX-512 (x86-64-v3), a verdict with a
// floating-point operation under a condition stays scalar, block or no
// block: only masks make an operation that may raise an exception
// unconditional. GCC moves an operation whose result one arm of a select
// alone uses into that arm, even when written before it, so such a value is
// made on the bits instead (narrow_rounding, nonzero_rounding). A verdict too
// large for the inliner leaves the block a loop of calls: the double tier's
// were, until marked always_inline.
//
// Included by the oracle's kernels, each compiled once per instruction-set
// variant: the anonymous namespace keeps every variant's copy its own.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pecheck::reference {
namespace {  // each kernel's own (see above)

inline constexpr std::size_t flag_block = 8;

// flags[i] = verdict(i) ? 1 : 0 for i in [0, count), in order of i within
// each block; verdict may write other arrays at i. Returns how many flags
// are set: counted from the lanes, since reading the bytes back right after
// storing them one at a time waits on each store (the angle-sum tier's row,
// which counted its settled entries so, 2.4% of that command's samples, 0.9%
// with the count from here).
template <typename Verdict>
inline std::size_t flagged_loop(std::size_t count, unsigned char* flags, Verdict&& verdict) {
  std::size_t i = 0;
  std::int64_t set = 0;
  for (; i + flag_block <= count; i += flag_block) {
    std::int64_t block[flag_block];
    // Vectorised as a loop of eight, not unrolled first for the basic-block
    // vectoriser (which gave up on some of these bodies).
#pragma GCC ivdep
#pragma GCC unroll 1
    for (std::size_t j = 0; j < flag_block; ++j) block[j] = verdict(i + j) ? 1 : 0;
    for (std::size_t j = 0; j < flag_block; ++j) {
      flags[i + j] = static_cast<unsigned char>(block[j]);
      set += block[j];
    }
  }
  for (; i < count; ++i) {
    const bool v = verdict(i);
    flags[i] = v ? 1 : 0;
    set += v ? 1 : 0;
  }
  return static_cast<std::size_t>(set);
}

// The same for two verdicts an entry (sin and cos): verdict(i) returns both
// as the bits of a 64-bit code, first = code & 1, second = code >> 1.
// Blocks of eight where a vector holds eight doubles (AVX-512); one loop
// otherwise: compiled for x86-64-v3 (four doubles a vector, thirty-two bytes)
// the double tier's rows were 8 to 17% slower in blocks of eight than as one
// loop, natively 3 to 14% faster (rows of 64 and 512 frequencies). With
// narrow_rounding and nonzero_rounding made without a condition (their
// comments), `pecheck table --impl reference` of an 8192 x 1024 float64
// table took 211 -> 128 ms of user time natively (20 alternated runs).
template <typename Verdict>
inline void flagged_pair_loop(std::size_t count, unsigned char* first, unsigned char* second, Verdict&& verdict) {
  std::size_t i = 0;
#if defined(__AVX512F__)
  for (; i + flag_block <= count; i += flag_block) {
    std::int64_t first_block[flag_block], second_block[flag_block];
#pragma GCC ivdep
#pragma GCC unroll 1
    for (std::size_t j = 0; j < flag_block; ++j) {
      const std::int64_t code = verdict(i + j);
      first_block[j] = code & 1;
      second_block[j] = code >> 1;
    }
    for (std::size_t j = 0; j < flag_block; ++j) first[i + j] = static_cast<unsigned char>(first_block[j]);
    for (std::size_t j = 0; j < flag_block; ++j) second[i + j] = static_cast<unsigned char>(second_block[j]);
  }
#endif
  unsigned char* __restrict first_rest = first;
  unsigned char* __restrict second_rest = second;
#pragma GCC ivdep
  for (; i < count; ++i) {
    const std::int64_t code = verdict(i);
    first_rest[i] = static_cast<unsigned char>(code & 1);
    second_rest[i] = static_cast<unsigned char>(code >> 1);
  }
}

// Two flags as flagged_pair_loop's code.
inline std::int64_t pair_code(bool first, bool second) {
  return static_cast<std::int64_t>(first) | (static_cast<std::int64_t>(second) << 1);
}

}  // namespace
}  // namespace pecheck::reference
