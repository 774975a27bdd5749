// The rotary reference's entry points whose code is compiled once per
// instruction-set variant (cmake/PecheckDispatch.cmake; reference/CMakeLists.txt
// lists the sources): a whole cache, or a comparison's rows, with the tiers
// (rotary_tiers.cpp, rotary_model_angles.cpp, double_tier.cpp) inside them.
// rotary_reference_dispatch.cpp's public functions call the selected
// variant's once per cache; what the tiers leave to MPFR
// (RotaryEntryEvaluator) is the baseline's code in every variant.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "pecheck/reference/rotary_reference.hpp"

namespace pecheck::reference {

// rotary_reference.cpp: rotary_reference_cache (pecheck/reference/rotary_reference.hpp)
// as this variant computes it.
RotaryReferenceCache build_rotary_reference_cache(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                                  const std::optional<ComputationModel>& model, int threads,
                                                  ExactValues exact);
// rotary_row_streams.cpp: rotary_reference_rows of several targets.
std::vector<RotaryReferenceCounts> visit_rotary_reference_rows(const RotaryConvention& convention,
                                                               const RotaryCacheRequest& request,
                                                               std::span<const std::optional<ComputationModel>> targets,
                                                               int threads, ExactValues exact,
                                                               const RotaryRowsVisitor& visit);

struct RotaryReferenceKernels {
  RotaryReferenceCache (*build_cache)(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                      const std::optional<ComputationModel>& model, int threads, ExactValues exact);
  std::vector<RotaryReferenceCounts> (*visit_rows)(const RotaryConvention& convention,
                                                   const RotaryCacheRequest& request,
                                                   std::span<const std::optional<ComputationModel>> targets,
                                                   int threads, ExactValues exact, const RotaryRowsVisitor& visit);
};

// The selected variant's (pecheck/isa.hpp); variant i of isa::variants() for
// the tests that compare them.
const RotaryReferenceKernels& rotary_reference_kernels();
const RotaryReferenceKernels& rotary_reference_kernels(std::size_t variant);

}  // namespace pecheck::reference
