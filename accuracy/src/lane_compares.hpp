// Comparisons of the ULP kernel's eight doubles (ulp_lanes.hpp) as a mask,
// made of compares of the target's own vector width. GCC 12 lowers a compare
// of a vector wider than the target's registers (eight doubles where AVX2
// holds four) lane by lane in scalar code: vcomisd, setcc, neg and an insert
// for every lane, 112 of them an iteration in the plain pass, where AVX-512
// makes one vcmppd. The x86-64-v3 variant of `pecheck validate` spent 44% of
// its samples there (perf, a 65536 x 128 float32 rotary cache; 16% for an
// additive table's plain pass), against 8% to 12% in the AVX-512 variant.
// Compared piece by piece the same lanes give the same masks: only the
// instructions differ. Included by ulp_lanes.hpp alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pecheck::accuracy {
namespace {  // the kernel's own, as in ulp_kernel.cpp

// The widest compare the target makes in one instruction, in bytes.
#if defined(__AVX512F__)
constexpr std::size_t compare_bytes = 64;
#elif defined(__AVX__)
constexpr std::size_t compare_bytes = 32;
#else
constexpr std::size_t compare_bytes = 16;
#endif

// Doubles of each piece width (spelled out: GCC 12 drops vector_size with
// a template-dependent size in an alias).
template <std::size_t Bytes>
struct PieceOf;
template <>
struct PieceOf<16> {
  using type = double __attribute__((vector_size(16)));
};
template <>
struct PieceOf<32> {
  using type = double __attribute__((vector_size(32)));
};

// out = compare(a, b) lane by lane (-1 true, 0 false), as pieces of Bytes
// (the target's width unless a test asks for another). By reference: see
// ulp_lanes.hpp's helpers.
template <std::size_t Bytes = compare_bytes, typename DoubleLanes, typename MaskLanes, typename Compare>
[[gnu::always_inline]] inline void compare_lanes(const DoubleLanes& a, const DoubleLanes& b, MaskLanes& out,
                                                 Compare compare) {
  static_assert(sizeof(DoubleLanes) == sizeof(MaskLanes) && sizeof(DoubleLanes) % Bytes == 0);
  if constexpr (sizeof(DoubleLanes) == Bytes) {
    out = compare(a, b);
  } else {
    using Piece = typename PieceOf<Bytes>::type;
    for (std::size_t at = 0; at < sizeof(DoubleLanes); at += Bytes) {
      Piece x;
      Piece y;
      std::memcpy(&x, reinterpret_cast<const char*>(&a) + at, Bytes);
      std::memcpy(&y, reinterpret_cast<const char*>(&b) + at, Bytes);
      const auto mask = compare(x, y);
      static_assert(sizeof mask == Bytes);
      std::memcpy(reinterpret_cast<char*>(&out) + at, &mask, Bytes);
    }
  }
}

// The comparisons, for compare_lanes.
struct Less {
  template <typename V>
  auto operator()(const V& a, const V& b) const {
    return a < b;
  }
};
struct LessEqual {
  template <typename V>
  auto operator()(const V& a, const V& b) const {
    return a <= b;
  }
};
struct Equal {
  template <typename V>
  auto operator()(const V& a, const V& b) const {
    return a == b;
  }
};
struct NotEqual {
  template <typename V>
  auto operator()(const V& a, const V& b) const {
    return a != b;
  }
};

}  // namespace
}  // namespace pecheck::accuracy
