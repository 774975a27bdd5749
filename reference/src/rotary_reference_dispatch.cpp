// The rotary reference's public entry points through the selected
// instruction-set variant's kernels (rotary_reference_kernels.hpp). Baseline
// code: compiled once, never with a variant's flags.
#include <array>

#include "pecheck/isa.hpp"
#include "pecheck_isa_variants.hpp"
#include "rotary_reference_kernels.hpp"

PECHECK_ISA_KERNEL_TABLES(pecheck::reference::RotaryReferenceKernels, rotary_reference_kernels,
                          rotary_reference_tables);

namespace pecheck::reference {

const RotaryReferenceKernels& rotary_reference_kernels() { return isa::pick(rotary_reference_tables); }
const RotaryReferenceKernels& rotary_reference_kernels(std::size_t variant) {
  return *rotary_reference_tables.at(variant);
}

RotaryReferenceCache rotary_reference_cache(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                            const std::optional<ComputationModel>& model, int threads,
                                            ExactValues exact) {
  return rotary_reference_kernels().build_cache(convention, request, model, threads, exact);
}

RotaryReferenceCounts rotary_reference_rows(const RotaryConvention& convention, const RotaryCacheRequest& request,
                                            const std::optional<ComputationModel>& model, int threads,
                                            ExactValues exact, const RotaryRowVisitor& visit) {
  const std::optional<ComputationModel> targets[] = {model};
  return rotary_reference_kernels()
      .visit_rows(convention, request, std::span<const std::optional<ComputationModel>>(targets), threads, exact,
                  [&](int worker, std::span<const RotaryReferenceRow> rows) { visit(worker, rows.front()); })
      .front();
}

std::vector<RotaryReferenceCounts> rotary_reference_rows(const RotaryConvention& convention,
                                                         const RotaryCacheRequest& request,
                                                         std::span<const std::optional<ComputationModel>> targets,
                                                         int threads, ExactValues exact,
                                                         const RotaryRowsVisitor& visit) {
  return rotary_reference_kernels().visit_rows(convention, request, targets, threads, exact, visit);
}

}  // namespace pecheck::reference
