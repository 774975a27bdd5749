#include <cmath>
#include <numbers>

#include "sweeps.hpp"

namespace pecheck::reports::detail {

namespace {

// SplitMix64 (Steele, Lea and Flood 2014): a fixed, portable stream, so the
// sample is the same on every standard library (std::normal_distribution is not).
class Stream {
 public:
  explicit Stream(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in (0, 1): 53 random bits, never 0.
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }
  // Box-Muller: a standard normal deviate.
  double normal() {
    return std::sqrt(-2.0 * std::log(uniform())) * std::cos(2.0 * std::numbers::pi * uniform());
  }

 private:
  std::uint64_t state_;
};

}  // namespace

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
    for (double value : pe.values) pe_energy += value * value;
    pe_energy /= static_cast<double>(pe.rows);

    Stream stream(seed ^ (static_cast<std::uint64_t>(d) * 0x9e3779b97f4a7c15ULL));
    const double sigma = 1.0 / std::sqrt(static_cast<double>(d));
    double embedding_energy = 0.0;
    for (int t = 0; t < tokens; ++t) {
      for (std::int64_t c = 0; c < d; ++c) {
        const double e = sigma * stream.normal();
        embedding_energy += e * e;
      }
    }
    embedding_energy /= tokens;
    const double scale = curve.subject_scale ? subject.embedding_scale(d, FormatId::float32)
                                             : std::sqrt(static_cast<double>(d));
    curve.dims.push_back(static_cast<double>(d));
    curve.with_scale.push_back(scale * scale * embedding_energy / pe_energy);
    curve.without_scale.push_back(embedding_energy / pe_energy);
  }
  return curve;
}

}  // namespace pecheck::reports::detail
