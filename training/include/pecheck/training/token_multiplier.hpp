// The number the subject's embedding operation multiplies a token's
// embedding by, measured by running the operation (not read from
// Subject::embedding_scale, which a faulty operation may not use as asked).
#pragma once

#include <cstdint>
#include <string>

#include "pecheck/subject.hpp"

namespace pecheck::training {

struct TokenMultiplier {
  double value = 1.0;     // the token table's multiplier: sqrt(d) rounded to float32 in a correct subject
  std::string operation;  // "add_embeddings" or "concat_embeddings": where it was measured
};

// Runs the subject's add_embeddings (position_width 0) or concat_embeddings
// (the encoding's position_width columns after token_width token columns) in
// float32 on a probe table, asking for `scale`, and returns the multiplier
// the output shows. Throws SubjectError when the output is not the probe
// times one number (or, concatenated, the encoding is not after the tokens):
// no run could then train what the subject computes.
TokenMultiplier measure_token_multiplier(const Subject& subject, std::int64_t token_width,
                                         std::int64_t position_width, double scale);

// A sentence naming what the scaled runs of width d multiply the token table
// by (adding, and concatenating at d/2), as measured, beside sqrt(d) and sqrt(d/2).
std::string describe_token_multipliers(const Subject& subject, std::int64_t d);

}  // namespace pecheck::training
