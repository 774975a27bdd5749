// The joint (token, position) decoder's bounded search returns the same pair
// as scoring all V x P pairs, at scales from far below to far above sqrt(d),
// on sums with and without noise; and on exact sums it recovers every pair.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "pecheck/properties/generators.hpp"
#include "pecheck/properties/joint_decoder.hpp"

namespace pecheck::properties {
namespace {

// The paper's interleaved sinusoid, in double: structured like the real
// encoding (nearby rows close), which is what makes the bound work hard.
std::vector<double> sinusoid(std::int64_t positions, std::int64_t dim) {
  std::vector<double> pe(static_cast<std::size_t>(positions * dim));
  for (std::int64_t p = 0; p < positions; ++p) {
    for (std::int64_t c = 0; c < dim; ++c) {
      const double w = std::pow(10000.0, -static_cast<double>(c - c % 2) / static_cast<double>(dim));
      const double angle = static_cast<double>(p) * w;
      pe[static_cast<std::size_t>(p * dim + c)] = c % 2 == 0 ? std::sin(angle) : std::cos(angle);
    }
  }
  return pe;
}

struct Sums {
  DecoderTables tables;
  std::vector<double> queries;
  std::vector<std::int64_t> tokens, positions;
};

// Queries s*E[t] + PE[p] + noise with t, p spread over the tables.
Sums sums(std::int64_t vocabulary, std::int64_t positions, std::int64_t dim, double scale, double noise,
            std::uint64_t seed) {
  Sums s;
  s.tables =
      make_decoder_tables(table_doubles(gen::gaussian_table(
                              seed, vocabulary, dim, 1.0 / std::sqrt(static_cast<double>(dim)), FormatId::float64)),
                          vocabulary, sinusoid(positions, dim), positions, dim);
  const std::int64_t count = 40;
  const std::vector<double> jitter =
      table_doubles(gen::gaussian_table(seed + 1, count, dim, noise > 0.0 ? noise : 1.0, FormatId::float64));
  for (std::int64_t j = 0; j < count; ++j) {
    const std::int64_t t = (j * 7919) % vocabulary, p = (j * 104729 + 3) % positions;
    s.tokens.push_back(t);
    s.positions.push_back(p);
    for (std::int64_t c = 0; c < dim; ++c) {
      const auto at = [&](std::int64_t row) { return static_cast<std::size_t>(row * dim + c); };
      s.queries.push_back(scale * s.tables.tokens[at(t)] + s.tables.encoding[at(p)] +
                          (noise > 0.0 ? jitter[at(j)] : 0.0));
    }
  }
  return s;
}

TEST(JointDecoder, boundedSearchFindsTheBruteForceMinimiserAtEveryScale) {
  const std::int64_t vocabulary = 97, positions = 64, dim = 16;
  for (double scale : {0.05, 1.0, std::sqrt(16.0), 16.0, 200.0}) {
    for (double noise : {0.0, 0.3, 2.0}) {
      const Sums s = sums(vocabulary, positions, dim, scale, noise, 77);
      const std::vector<Decoded> fast = decode(s.tables, s.queries, scale);
      for (std::size_t j = 0; j < fast.size(); ++j) {
        const std::vector<double> row(s.queries.begin() + static_cast<std::ptrdiff_t>(j * dim),
                                      s.queries.begin() + static_cast<std::ptrdiff_t>((j + 1) * dim));
        const Decoded brute = joint_brute_force(s.tables, row, scale);
        EXPECT_EQ(fast[j].joint_token, brute.joint_token) << "s = " << scale << ", noise " << noise << ", query " << j;
        EXPECT_EQ(fast[j].joint_position, brute.joint_position) << "s = " << scale << ", noise " << noise;
        EXPECT_EQ(fast[j].naive_token, brute.naive_token);
        EXPECT_EQ(fast[j].naive_position, brute.naive_position);
        EXPECT_LE(fast[j].pairs_evaluated, vocabulary * positions + 1);
      }
    }
  }
}

TEST(JointDecoder, exactSumsAreRecoveredAndTheBoundPrunesAtTheRealisticSize) {
  const std::int64_t vocabulary = 4096, positions = 512, dim = 512;
  for (double scale : {1.0, std::sqrt(512.0), 512.0}) {
    const Sums s = sums(vocabulary, positions, dim, scale, 0.0, 5);
    const std::vector<Decoded> decoded = decode(s.tables, s.queries, scale);
    std::int64_t evaluated = 0;
    for (std::size_t j = 0; j < decoded.size(); ++j) {
      EXPECT_EQ(decoded[j].joint_token, s.tokens[j]) << "s = " << scale;
      EXPECT_EQ(decoded[j].joint_position, s.positions[j]) << "s = " << scale;
      evaluated += decoded[j].pairs_evaluated;
    }
    // The point of the bound: far fewer than V x P pairs scored per query.
    EXPECT_LT(evaluated, static_cast<std::int64_t>(decoded.size()) * vocabulary * positions / 10) << "s = " << scale;
  }
}

}  // namespace
}  // namespace pecheck::properties
