#include <cmath>

#include "pecheck/properties/generators.hpp"
#include "sweeps.hpp"

namespace pecheck::reports::detail {

// For each d: tokens rows e ~ N(0, 1/d) (tensor2tensor and fairseq's
// sigma = d^-0.5), the mean of ||e||^2 over them, the mean of ||PE(p)||^2 over
// the subject's float32 rows p = 0..positions-1, and the ratios s^2 E||e||^2 /
// E||PE||^2 with s = sqrt(d) and s = 1. Expected: d * (1/d) * d / (d/2) = 2,
// and 2/d without the scale.
EnergyRatioCurve measure_energy_ratio(const Subject& subject, const Convention& convention, std::int64_t max_dim,
                                      int tokens, std::uint64_t seed) {
  EnergyRatioCurve curve;
  curve.tokens = tokens;
  curve.positions = 256;
  curve.subject_scale = subject.capabilities().embedding_operations;
  for (std::int64_t d = 8; d <= max_dim; d *= 2) {
    const Table pe = subject.encoding_table(convention, {curve.positions, d, 0}, FormatId::float32);
    double pe_energy = 0.0;
    for (double value : table_doubles(pe)) pe_energy += value * value;
    pe_energy /= static_cast<double>(pe.rows);

    // The families' sampler (splitmix64 and Box-Muller): the same seed gives
    // the same sample on every standard library. Entries stay doubles.
    const std::uint64_t stream = seed ^ (static_cast<std::uint64_t>(d) * 0x9e3779b97f4a7c15ULL);
    const Table sample =
        properties::gen::gaussian_table(stream, tokens, d, 1.0 / std::sqrt(static_cast<double>(d)), FormatId::float64);
    double embedding_energy = 0.0;
    for (double e : table_doubles(sample)) embedding_energy += e * e;
    embedding_energy /= static_cast<double>(tokens);
    const double scale =
        curve.subject_scale ? subject.embedding_scale(d, FormatId::float32) : std::sqrt(static_cast<double>(d));
    curve.dims.push_back(static_cast<double>(d));
    curve.with_scale.push_back(scale * scale * embedding_energy / pe_energy);
    curve.without_scale.push_back(embedding_energy / pe_energy);
  }
  return curve;
}

}  // namespace pecheck::reports::detail
