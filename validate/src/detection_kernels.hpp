// Detection's hot loops, compiled once per instruction-set variant
// (cmake/PecheckDispatch.cmake; validate/CMakeLists.txt lists the sources):
// estimate_frequencies calls the selected variant's estimate_lanes once per
// eight pairs, and the pass over every value of a rotary cache its
// float_block_extent once per block. Eight angles at a time and the lanes' line fits are vector
// code: compiled for the x86-64 baseline (SSE2) alone they took 1.75x the
// native build's CPU time, most of what `pecheck validate` of a table spent
// beyond the native build's (docs/performance.md). What the entry calls
// outside these sources (the library's atan2 for special pairs) is the
// baseline's code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "frequency_fit.hpp"
#include "pecheck/convention.hpp"
#include "pecheck/table.hpp"

namespace pecheck::validate {

// Pairs are fitted this many at a time, one lane each (frequency_lanes.cpp).
constexpr std::size_t frequency_lanes = 8;

// The estimates of pairs[first, first + frequency_lanes) (fewer at the end)
// over the consecutive rows `run`, into found[0, that many); each left empty
// when an angle of its pair is not finite. `angles` and `buffer` are scratch
// space, reused from call to call.
using EstimateLanes = void (*)(const Table& table, std::span<const std::int64_t> run,
                               std::span<const FrequencyColumns> pairs, std::size_t first, double angle_noise,
                               std::span<std::optional<FrequencyEstimate>> found, std::vector<double>& angles,
                               std::vector<double>& buffer);

// How many of float32 values[0, n) are not finite, and the bits of the
// largest finite magnitude (0 when none is finite); n below 2^32. The pass
// over every value of a rotary cache (rotary_value_hazards.hpp).
using FloatBlockExtent = void (*)(const void* values, std::size_t n, std::uint32_t& outside, std::uint32_t& largest);

struct DetectionKernels {
  EstimateLanes estimate_lanes;
  FloatBlockExtent float_block_extent;
};

// The selected variant's (pecheck/isa.hpp); variant i of isa::variants() for
// the tests that compare them.
const DetectionKernels& detection_kernels();
const DetectionKernels& detection_kernels(std::size_t variant);

// frequency_lanes.cpp: this variant's entry.
void estimate_lanes(const Table& table, std::span<const std::int64_t> run, std::span<const FrequencyColumns> pairs,
                    std::size_t first, double angle_noise, std::span<std::optional<FrequencyEstimate>> found,
                    std::vector<double>& angles, std::vector<double>& buffer);
// value_extent_lanes.cpp: this variant's entry.
void float_block_extent(const void* values, std::size_t n, std::uint32_t& outside, std::uint32_t& largest);

}  // namespace pecheck::validate
