// The one translation unit that includes libtorch: a small causal
// transformer (attention written out, so rotary can rotate q and k), trained
// with Adam on one thread. Every parameter is initialised from a generator
// seeded by the run's seed, never libtorch's global one, so runs on parallel
// threads give the same numbers as alone.
#include <torch/torch.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "pecheck/training/run.hpp"
#include "tasks.hpp"

namespace pecheck::training {

namespace {

using torch::Tensor;

struct Layer {
  Tensor wq, wk, wv, wo, bq, bk, bv, bo;
  Tensor w1, b1, w2, b2;
  Tensor ln1_gain, ln1_bias, ln2_gain, ln2_bias;
};

class Model {
 public:
  Model(const RunSpec& spec, at::Generator& generator) : spec_(spec), sizes_(spec.sizes) {
    const Sizes& s = sizes_;
    const bool concatenated = spec.configuration.position == Position::sinusoid_concatenated;
    token_width_ = concatenated ? s.dim / 2 : s.dim;
    if (s.dim % s.heads != 0 || (s.dim / s.heads) % 2 != 0 || (concatenated && s.dim % 2 != 0)) {
      throw std::invalid_argument(
          "training: the width must split into heads of even width (and halves to concatenate)");
    }
    const Configuration& c = spec.configuration;
    embedding_ = torch::empty({s.vocabulary + 1, token_width_});
    if (c.uniform_bound > 0) {
      embedding_.uniform_(-c.uniform_bound, c.uniform_bound, generator);
    } else {
      const double sigma =
          c.sigma_scales_with_width ? c.sigma_factor / std::sqrt(double(token_width_)) : c.sigma_factor;
      embedding_.normal_(0.0, sigma, generator);
    }
    add(embedding_);
    if (c.position == Position::learned_added) {
      // Matched to the sinusoid: each of its components has mean square 1/2.
      learned_ = torch::empty({s.sequence(), s.dim}).normal_(0.0, std::sqrt(0.5), generator);
      add(learned_);
    }
    if (c.position == Position::sinusoid_added || c.position == Position::sinusoid_concatenated) {
      const std::int64_t width = concatenated ? s.dim - token_width_ : s.dim;
      if (static_cast<std::int64_t>(spec.encoding.size()) != s.sequence() * width) {
        throw std::invalid_argument("training: the encoding table must hold one row of width " + std::to_string(width) +
                                    " per position");
      }
      encoding_ = torch::from_blob(const_cast<float*>(spec.encoding.data()), {s.sequence(), width}).clone();
    }
    for (int l = 0; l < s.layers; ++l) {
      Layer layer;
      layer.wq = linear(s.dim, s.dim, generator, layer.bq);
      layer.wk = linear(s.dim, s.dim, generator, layer.bk);
      layer.wv = linear(s.dim, s.dim, generator, layer.bv);
      layer.wo = linear(s.dim, s.dim, generator, layer.bo);
      layer.w1 = linear(s.dim, s.hidden, generator, layer.b1);
      layer.w2 = linear(s.hidden, s.dim, generator, layer.b2);
      for (Tensor* gain : {&layer.ln1_gain, &layer.ln2_gain}) add(*gain = torch::ones({s.dim}));
      for (Tensor* bias : {&layer.ln1_bias, &layer.ln2_bias}) add(*bias = torch::zeros({s.dim}));
      layers_.push_back(layer);
    }
    add(final_gain_ = torch::ones({s.dim}));
    add(final_bias_ = torch::zeros({s.dim}));
    output_ = linear(s.dim, s.vocabulary, generator, output_bias_);
    // Rotary angles for positions 0 .. 2L-1 over the head's width, base 10000, halves layout.
    const int head = s.dim / s.heads;
    const Tensor inverse = torch::pow(10000.0, -torch::arange(0, head, 2, torch::kFloat) / head);
    const Tensor angles = torch::outer(torch::arange(s.sequence(), torch::kFloat), inverse);
    cos_ = angles.cos();
    sin_ = angles.sin();
    mask_ = torch::full({s.sequence(), s.sequence()}, -INFINITY).triu(1);
  }

  const std::vector<Tensor>& parameters() const { return parameters_; }

  // Logits for the answer positions L .. 2L-1: [batch, L, vocabulary].
  Tensor forward(const Tensor& inputs) const {
    const Sizes& s = sizes_;
    const Configuration& c = spec_.configuration;
    Tensor x = embedding_.index({inputs}) * spec_.scale;
    if (c.position == Position::sinusoid_added) x = x + encoding_;
    if (c.position == Position::learned_added) x = x + learned_;
    if (c.position == Position::sinusoid_concatenated) {
      x = torch::cat({x, encoding_.unsqueeze(0).expand({x.size(0), s.sequence(), encoding_.size(1)})}, 2);
    }
    const bool pre = spec_.norm == Norm::pre_ln;
    for (const Layer& layer : layers_) {
      if (pre) {
        x = x + attention(norm(x, layer.ln1_gain, layer.ln1_bias), layer);
        x = x + feed_forward(norm(x, layer.ln2_gain, layer.ln2_bias), layer);
      } else {
        x = norm(x + attention(x, layer), layer.ln1_gain, layer.ln1_bias);
        x = norm(x + feed_forward(x, layer), layer.ln2_gain, layer.ln2_bias);
      }
    }
    if (pre) x = norm(x, final_gain_, final_bias_);
    x = x.narrow(1, s.length, s.length);
    return torch::addmm(output_bias_, x.reshape({-1, s.dim}), output_).reshape({x.size(0), s.length, s.vocabulary});
  }

 private:
  void add(const Tensor& parameter) {
    parameter.set_requires_grad(true);
    parameters_.push_back(parameter);
  }

  // PyTorch's nn.Linear initialisation, U(-1/sqrt(in), 1/sqrt(in)) for the
  // weight (stored in x out) and the bias, drawn from the run's generator.
  Tensor linear(int in, int out, at::Generator& generator, Tensor& bias) {
    const double bound = 1.0 / std::sqrt(double(in));
    Tensor weight = torch::empty({in, out}).uniform_(-bound, bound, generator);
    bias = torch::empty({out}).uniform_(-bound, bound, generator);
    add(weight);
    add(bias);
    return weight;
  }

  Tensor norm(const Tensor& x, const Tensor& gain, const Tensor& bias) const {
    return torch::layer_norm(x, {sizes_.dim}, gain, bias, 1e-5);
  }

  // [batch, heads, T, head] rotated by each position's angles (RoPE, halves layout).
  Tensor rotate(const Tensor& t) const {
    const std::int64_t half = t.size(3) / 2;
    const Tensor a = t.narrow(3, 0, half), b = t.narrow(3, half, half);
    return torch::cat({a * cos_ - b * sin_, a * sin_ + b * cos_}, 3);
  }

  Tensor attention(const Tensor& x, const Layer& layer) const {
    const Sizes& s = sizes_;
    const std::int64_t batch = x.size(0), t = x.size(1), head = s.dim / s.heads;
    const auto heads = [&](const Tensor& w, const Tensor& b) {
      return (x.matmul(w) + b).view({batch, t, s.heads, head}).transpose(1, 2);
    };
    Tensor q = heads(layer.wq, layer.bq), k = heads(layer.wk, layer.bk), v = heads(layer.wv, layer.bv);
    if (spec_.configuration.position == Position::rotary) {
      q = rotate(q);
      k = rotate(k);
    }
    const Tensor scores = q.matmul(k.transpose(2, 3)) / std::sqrt(double(head)) + mask_;
    const Tensor mixed = torch::softmax(scores, -1).matmul(v).transpose(1, 2).reshape({batch, t, s.dim});
    return mixed.matmul(layer.wo) + layer.bo;
  }

  Tensor feed_forward(const Tensor& x, const Layer& layer) const {
    return torch::relu(x.matmul(layer.w1) + layer.b1).matmul(layer.w2) + layer.b2;
  }

  const RunSpec& spec_;
  Sizes sizes_;
  std::int64_t token_width_ = 0;
  Tensor embedding_, learned_, encoding_, output_, output_bias_, final_gain_, final_bias_, cos_, sin_, mask_;
  std::vector<Layer> layers_;
  std::vector<Tensor> parameters_;
};

Tensor as_tensor(const std::vector<std::int64_t>& values, std::int64_t rows) {
  return torch::tensor(values, torch::kLong).view({rows, -1});
}

}  // namespace

void use_one_thread_per_run() { at::set_num_threads(1); }

RunResult train(const RunSpec& spec) {
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(spec.seed);
  Model model(spec, generator);
  // The data has its own stream, so a configuration with more parameters
  // draws the same batches as one with fewer.
  std::mt19937_64 data(spec.seed ^ 0x9e3779b97f4a7c15ULL);
  const Batch held_out = draw_batch(spec.task, spec.sizes, spec.sizes.eval_batch, data);
  const Tensor held_inputs = as_tensor(held_out.inputs, held_out.count);
  const Tensor held_answers = as_tensor(held_out.answers, held_out.count);
  torch::optim::Adam optimiser(model.parameters(), torch::optim::AdamOptions(spec.sizes.learning_rate));
  RunResult result;
  for (const Tensor& p : model.parameters()) result.parameters += p.numel();
  const auto evaluate = [&](int step) {
    torch::NoGradGuard no_grad;
    const Tensor logits = model.forward(held_inputs);
    const Tensor loss =
        torch::cross_entropy_loss(logits.reshape({-1, spec.sizes.vocabulary}), held_answers.reshape(-1));
    result.steps.push_back(step);
    result.loss.push_back(loss.item<double>());
    result.accuracy.push_back(logits.argmax(2).eq(held_answers).to(torch::kDouble).mean().item<double>());
  };
  evaluate(0);
  for (int step = 1; step <= spec.sizes.steps; ++step) {
    const Batch batch = draw_batch(spec.task, spec.sizes, spec.sizes.batch, data);
    const Tensor logits = model.forward(as_tensor(batch.inputs, batch.count));
    const Tensor loss = torch::cross_entropy_loss(logits.reshape({-1, spec.sizes.vocabulary}),
                                                  as_tensor(batch.answers, batch.count).reshape(-1));
    optimiser.zero_grad();
    loss.backward();
    optimiser.step();
    if (step % spec.sizes.eval_every == 0 || step == spec.sizes.steps) evaluate(step);
  }
  return result;
}

}  // namespace pecheck::training
