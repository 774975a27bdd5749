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

#include "pecheck/reference/rotary_reference.hpp"

namespace pecheck::reference {

// rotary_reference.cpp: rotary_reference_cache and rotary_reference_rows
// (pecheck/reference/rotary_reference.hpp) as this variant computes them.
RotaryReferenceCache build_rotary_reference_cache(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                                  const std::optional<ComputationModel>& model, int threads,
                                                  ExactValues exact);
RotaryReferenceCounts visit_rotary_reference_rows(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                                  const std::optional<ComputationModel>& model, int threads,
                                                  ExactValues exact, const RotaryRowVisitor& visit);

struct RotaryReferenceKernels {
  RotaryReferenceCache (*build_cache)(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                      const std::optional<ComputationModel>& model, int threads, ExactValues exact);
  RotaryReferenceCounts (*visit_rows)(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                      const std::optional<ComputationModel>& model, int threads, ExactValues exact,
                                      const RotaryRowVisitor& visit);
};

// The selected variant's (pecheck/isa.hpp); variant i of isa::variants() for
// the tests that compare them.
const RotaryReferenceKernels& rotary_reference_kernels();
const RotaryReferenceKernels& rotary_reference_kernels(std::size_t variant);

}  // namespace pecheck::reference
