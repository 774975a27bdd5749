// What the sampled-variance and energy-ratio checks share: the paper's width,
// a draw of embeddings with the subject's scaled rows, and the intervals the
// mean squares are held to (derived in scaling_moments.cpp). Private to
// properties/src.
#pragma once

#include <cstdint>

#include "pecheck/format.hpp"
#include "pecheck/properties/tail_bounds.hpp"
#include "pecheck/subject.hpp"
#include "pecheck/table.hpp"

namespace pecheck::properties::scaling {

inline constexpr std::int64_t kPaperDim = 512;

struct ScaledDraw {
  Table embeddings;  // N(0, 1/d) stored in the format
  Table scaled;      // the subject's round(s E)
  double scale = 0.0;
};

// `vocab` rows of N(0, 1/d) in the format (tensor2tensor and fairseq's
// sigma = d^-0.5) and the subject's s * E with s = its sqrt(d).
ScaledDraw draw_scaled(const Subject& subject, std::uint64_t seed, std::int64_t vocab, std::int64_t d, FormatId id);

// The interval the mean square of `count` components of the subject's s*E
// (variance 1) or of E alone (variance 1/d) lies in but with probability delta.
Interval scaled_interval(const Format& format, double s, std::int64_t count, double delta);
Interval unscaled_interval(const Format& format, std::int64_t d, std::int64_t count, double delta);

}  // namespace pecheck::properties::scaling
