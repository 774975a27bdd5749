// One training run of a small transformer on a synthetic task, described in
// plain types so that only transformer.cpp sees libtorch (its headers compile
// slowly). A run is a pure function of its RunSpec: the same spec, the same
// numbers, on one thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pecheck::training {

// Tasks that need both the token and where it stands. Each sequence is
// x_0 .. x_{L-1}, a separator, then the answer y_0 .. y_{L-1} predicted one
// token at a time under a causal mask (so a model without any encoding, NoPE,
// is trained on the same inputs as the others).
enum class Task {
  reverse,  // y_i = x_{L-1-i}: position decides which token to copy
  sort,     // y = x sorted ascending: rank decides, from every token's identity
};

enum class Norm { post_ln, pre_ln };

// Where position enters the model.
enum class Position {
  sinusoid_added,         // s*E[t] + PE[p]
  sinusoid_concatenated,  // [s*E[t], PE[p]], each half of the width
  learned_added,          // s*E[t] + P[p], P a trained table
  rotary,                 // q and k rotated in every attention layer (RoPE); no input encoding
  none,                   // nothing: the causal mask alone (NoPE)
};

// How the token embedding is initialised and scaled, and where position enters.
struct Configuration {
  std::string id;    // "paper", "unit-scaled", ...: the statistic keys carry it
  std::string name;  // what a reader sees: "N(0, 1/d), s = sqrt(d), sinusoid added"
  // The token table: N(0, sigma^2) with sigma = sigma_factor / sqrt(width)
  // when sigma_scales_with_width, else sigma_factor; uniform(-u, u) when uniform_bound > 0.
  double sigma_factor = 1.0;
  bool sigma_scales_with_width = true;
  double uniform_bound = 0.0;
  bool scaled = true;  // ask the subject's operation for its embedding scale sqrt(width)
  Position position = Position::sinusoid_added;
};

struct Sizes {
  int length = 8;       // L: tokens to reverse or sort
  int vocabulary = 16;  // content tokens; one more is the separator
  int dim = 64;         // d, the model's width (concatenation: d/2 token + d/2 position)
  int layers = 2;
  int heads = 4;
  int hidden = 128;  // the feed-forward layer's width
  int batch = 64;
  int steps = 300;
  int eval_every = 10;   // a point of the learning curve every so many steps
  int eval_batch = 256;  // held-out sequences, the same for every step of a run
  double learning_rate = 1e-3;
  int sequence() const { return 2 * length; }
};

struct RunSpec {
  Task task = Task::reverse;
  Norm norm = Norm::post_ln;
  Configuration configuration;
  Sizes sizes;
  std::uint64_t seed = 1;
  // What the subject's embedding operation multiplies the token table by,
  // asked for its scale for the table's width (for 1 when not scaled).
  double scale = 1.0;
  // The subject's sinusoidal table, row-major, sequence() rows of the
  // encoding's width (d, or d/2 concatenated); empty when none is used.
  std::vector<float> encoding;
};

struct RunResult {
  std::vector<double> steps;     // where the curve was measured (0 = before training)
  std::vector<double> accuracy;  // held-out answer tokens right, teacher forced
  std::vector<double> loss;      // held-out cross-entropy at those steps
  std::int64_t parameters = 0;   // trained parameters, the embeddings included
};

// Trains on one thread (the caller sets at::set_num_threads(1) once) with
// every random draw from generators seeded by spec.seed: initialisation,
// batches and held-out set. Throws std::invalid_argument for sizes that do
// not fit (odd widths where halves are needed).
RunResult train(const RunSpec& spec);

// Makes libtorch run every operation on the calling thread, so runs on
// separate threads stay deterministic; called before the first train().
void use_one_thread_per_run();

}  // namespace pecheck::training
