// Faulty rotary caches, each seen in real code (CONVENTIONS.md, "Rotary
// encodings (RoPE)"): a subject that forwards everything but its rotary
// caches, which it computes the faulty way.
#include <cmath>
#include <functional>
#include <utility>

#include "pecheck/properties/faulty_subjects.hpp"
#include "pecheck/properties/rotary_values.hpp"

namespace pecheck::properties {

namespace {

using CacheFault = std::function<RotaryCache(const Subject& inner, const RotaryConvention&, const RotaryCacheRequest&)>;

class RotaryFaultSubject final : public ForwardingSubject {
 public:
  RotaryFaultSubject(std::shared_ptr<const Subject> inner, std::string name, CacheFault fault)
      : ForwardingSubject(std::move(inner), std::move(name)), fault_(std::move(fault)) {}
  RotaryCache rotary_cache(const RotaryConvention& convention, const RotaryCacheRequest& request) const override {
    return fault_(inner(), convention, request);
  }

 private:
  CacheFault fault_;
};

std::unique_ptr<Subject> make(std::shared_ptr<const Subject> inner, const char* name, CacheFault fault) {
  return std::make_unique<RotaryFaultSubject>(std::move(inner), std::string("fault:") + name, std::move(fault));
}

// The cache of a computation (rotary_values.hpp), each value rounded once to the request's format.
RotaryCache computed_cache(const RotaryConvention& convention, const RotaryCacheRequest& request,
                           const RotaryComputation& computation, double attention_factor) {
  std::vector<std::int64_t> positions;
  for (std::int64_t r = 0; r < request.rows; ++r) positions.push_back(request.first_position + r);
  const RotaryValues values = rotary_values(convention, positions, computation, attention_factor);
  const std::int64_t cols = rotary_columns(convention);
  RotaryCache cache{make_table(request.rows, cols, request.format), make_table(request.rows, cols, request.format)};
  for (std::int64_t r = 0; r < request.rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) {
      const auto k = static_cast<std::size_t>(r * values.frequencies + rotary_column_frequency(convention, c));
      cache.cos.set(r, c, values.cos[k]);
      cache.sin.set(r, c, values.sin[k]);
    }
  }
  return cache;
}

CacheFault computation(RotaryComputation how) {
  return [how](const Subject&, const RotaryConvention& convention, const RotaryCacheRequest& request) {
    return computed_cache(convention, request, how, rotary_derived(convention).attention_factor);
  };
}

CacheFault attention_factor_power(int power) {
  return [power](const Subject&, const RotaryConvention& convention, const RotaryCacheRequest& request) {
    const double factor = std::pow(rotary_derived(convention).attention_factor, power);
    return computed_cache(convention, request, {"exact", std::nullopt, std::nullopt, std::nullopt}, factor);
  };
}

}  // namespace

std::unique_ptr<Subject> make_rotary_bfloat16_position_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), "rotary-bfloat16-positions",
              computation({"positions in bfloat16", FormatId::float32, FormatId::bfloat16, FormatId::float32}));
}

std::unique_ptr<Subject> make_rotary_float16_computation_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), "rotary-float16-computation",
              computation({"float16", FormatId::float16, FormatId::float16, FormatId::float16}));
}

std::unique_ptr<Subject> make_rotary_bfloat16_inv_freq_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), "rotary-bfloat16-inv-freq",
              computation({"inv_freq in bfloat16", FormatId::bfloat16, FormatId::float32, FormatId::float32}));
}

std::unique_ptr<Subject> make_rotary_float16_cache_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), "rotary-float16-cache",
              [](const Subject& correct, const RotaryConvention& convention, const RotaryCacheRequest& request) {
                RotaryCache cache = correct.rotary_cache(convention, {request.first_position, request.rows, FormatId::float64});
                RotaryCache out{make_table(request.rows, cache.cos.cols, request.format),
                                make_table(request.rows, cache.cos.cols, request.format)};
                const Format& half = format_of(FormatId::float16);
                for (std::int64_t r = 0; r < request.rows; ++r) {
                  for (std::int64_t c = 0; c < cache.cos.cols; ++c) {
                    out.cos.set(r, c, round_to_format(cache.cos.at(r, c), half));
                    out.sin.set(r, c, round_to_format(cache.sin.at(r, c), half));
                  }
                }
                return out;
              });
}

std::unique_ptr<Subject> make_rotary_wrong_base_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), "rotary-wrong-base",
              [](const Subject& correct, RotaryConvention convention, const RotaryCacheRequest& request) {
                // Llama 2's rope_theta for Llama 3's, or the reverse.
                convention.base = convention.base == 10000.0 ? 500000.0 : 10000.0;
                return correct.rotary_cache(convention, request);
              });
}

std::unique_ptr<Subject> make_rotary_scaling_ignored_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), "rotary-scaling-ignored",
              [](const Subject& correct, RotaryConvention convention, const RotaryCacheRequest& request) {
                // The rope_scaling block dropped: the plain rule, same attention factor.
                convention.attention_factor = rotary_derived(convention).attention_factor;
                convention.scaling = RotaryScaling{};
                return correct.rotary_cache(convention, request);
              });
}

std::unique_ptr<Subject> make_rotary_cos_sin_swapped_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), "rotary-cos-sin-swapped",
              [](const Subject& correct, const RotaryConvention& convention, const RotaryCacheRequest& request) {
                RotaryCache cache = correct.rotary_cache(convention, request);
                std::swap(cache.cos, cache.sin);
                return cache;
              });
}

std::unique_ptr<Subject> make_rotary_attention_factor_missing_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), "rotary-attention-factor-missing", attention_factor_power(0));
}

std::unique_ptr<Subject> make_rotary_attention_factor_twice_subject(std::shared_ptr<const Subject> inner) {
  return make(std::move(inner), "rotary-attention-factor-twice", attention_factor_power(2));
}

}  // namespace pecheck::properties
