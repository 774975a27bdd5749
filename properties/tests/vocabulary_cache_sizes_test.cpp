// The vocabulary statistics (what `validate --vocabulary` prints, and the
// validate corpus records to the last digit) are the same bits whatever cache
// sizes Eigen plans its products by. Eigen's blocked product splits its sums
// by the L1 and L2 sizes it reads from the processor at run time, so a product
// left to it gives other last bits on a host with other caches; the test sets
// the sizes of several hosts on this one with Eigen::setCpuCacheSizes.
#include <gtest/gtest.h>

#include <Eigen/Core>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pecheck/convention.hpp"
#include "pecheck/number_text.hpp"
#include "pecheck/properties/generators.hpp"
#include "pecheck/properties/vocabulary_statistics.hpp"
#include "pecheck/subject.hpp"
#include "pecheck/table.hpp"

namespace pecheck::properties {
namespace {

constexpr std::ptrdiff_t KiB = 1024, MiB = 1024 * 1024;

// Eigen's cache sizes set for one scope, the host's restored on leaving it,
// so no later test runs under made-up sizes.
class CacheSizes {
 public:
  CacheSizes(std::ptrdiff_t l1, std::ptrdiff_t l2) { Eigen::setCpuCacheSizes(l1, l2, host_l3_); }
  ~CacheSizes() { Eigen::setCpuCacheSizes(host_l1_, host_l2_, host_l3_); }
  CacheSizes(const CacheSizes&) = delete;
  CacheSizes& operator=(const CacheSizes&) = delete;

 private:
  std::ptrdiff_t host_l1_ = Eigen::l1CacheSize(), host_l2_ = Eigen::l2CacheSize(), host_l3_ = Eigen::l3CacheSize();
};

struct Measured {
  EncodingSummary encoding;
  VocabularyStatistics statistics;
};

// The vaswani encoding over `validate --vocabulary`'s default 512 positions,
// and a drawn float32 table of 64 tokens, as that command measures them.
struct Inputs {
  Table encoding;
  Table vocabulary;
};

Inputs inputs(std::int64_t dim) {
  const std::unique_ptr<Subject> fast = make_fast_subject();
  return {fast->encoding_table(*find_preset("vaswani"), {512, dim, 0}, FormatId::float32),
          gen::gaussian_table(2017 + static_cast<std::uint64_t>(dim), 64, dim, 1.0 / std::sqrt(static_cast<double>(dim)),
                              FormatId::float32)};
}

Measured measure(const Inputs& in, std::ptrdiff_t l1, std::ptrdiff_t l2) {
  const CacheSizes sizes(l1, l2);
  Measured m;
  m.encoding = summarise_encoding(in.encoding);
  m.statistics = vocabulary_statistics(in.vocabulary, m.encoding, std::sqrt(static_cast<double>(in.encoding.cols)));
  return m;
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

// How many entries differ in their bits (the lengths' difference counted too).
std::size_t differing(const std::vector<double>& a, const std::vector<double>& b) {
  std::size_t count = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k) count += same_bits(a[k], b[k]) ? 0 : 1;
  return count;
}

void expect_same_bits(double got, double want, const std::string& where, const char* name) {
  EXPECT_TRUE(same_bits(got, want)) << where << ": " << name << " " << round_trip(got) << " against " << round_trip(want);
}

void expect_same_bits(const Measured& got, const Measured& want, const std::string& where) {
  EXPECT_EQ(got.encoding.subspace_dimension, want.encoding.subspace_dimension) << where;
  EXPECT_EQ(differing(got.encoding.row_norms, want.encoding.row_norms), 0u) << where << ": the rows' norms";
  EXPECT_EQ(differing(got.encoding.basis, want.encoding.basis), 0u) << where << ": the subspace's basis";
  const VocabularyStatistics& g = got.statistics;
  const VocabularyStatistics& w = want.statistics;
  expect_same_bits(g.encoding_energy, w.encoding_energy, where, "encoding energy");
  expect_same_bits(g.component_mean_square, w.component_mean_square, where, "component mean square");
  expect_same_bits(g.energy_ratio, w.energy_ratio, where, "energy ratio");
  expect_same_bits(g.subspace_share, w.subspace_share, where, "subspace share");
  expect_same_bits(g.token_token_share, w.token_token_share, where, "token-token share");
  expect_same_bits(g.cross_share, w.cross_share, where, "cross share");
  expect_same_bits(g.position_position_share, w.position_position_share, where, "position-position share");
}

// d = 32 is the corpus case's width: its gram matrix sums over 512 positions,
// longer than an L1 block at every size here. At d = 256 the subspace
// product's sums over d are longer than a 16 KiB L1's blocks too (each of the
// two products left to Eigen's blocked product fails this test).
TEST(VocabularyStatisticsCacheSizes, areTheSameBitsUnderEveryL1AndL2Size) {
  for (std::int64_t dim : {32, 128, 256}) {
    const Inputs in = inputs(dim);
    const Measured want = measure(in, 32 * KiB, 1 * MiB);
    for (std::ptrdiff_t l1 : {16 * KiB, 32 * KiB, 48 * KiB}) {
      for (std::ptrdiff_t l2 : {256 * KiB, 1 * MiB, 2 * MiB}) {
        expect_same_bits(measure(in, l1, l2), want,
                         "d = " + std::to_string(dim) + ", L1 " + std::to_string(l1 / KiB) + " KiB, L2 " +
                             std::to_string(l2 / KiB) + " KiB");
      }
    }
  }
}

// The control: under the sizes above Eigen's blocked product of the same
// encoding (PE^T PE at d = 32) does give other bits, so the test above would
// see a product left to it.
TEST(VocabularyStatisticsCacheSizes, theSizesChangeWhatABlockedProductGives) {
  using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Inputs in = inputs(32);
  const std::vector<double> values = table_doubles(in.encoding);
  const Eigen::Map<const RowMatrix> pe(values.data(), in.encoding.rows, in.encoding.cols);
  const auto gram = [&](std::ptrdiff_t l1) {
    const CacheSizes sizes(l1, 1 * MiB);
    const Eigen::MatrixXd g = pe.transpose() * pe;
    return std::vector<double>(g.data(), g.data() + g.size());
  };
  EXPECT_GT(differing(gram(16 * KiB), gram(48 * KiB)), 0u);
}

}  // namespace
}  // namespace pecheck::properties
