// The named conventions: the absolute presets, the relative ones and the
// diffusion timestep embeddings, each with its source (CONVENTIONS.md), and
// the list every command looks a name up in.
#include "pecheck/convention.hpp"
#include "pecheck/number_text.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace pecheck {

namespace {

// A preset's required fields; the others keep Convention's defaults unless set after.
Convention preset(std::string name, Layout layout, FrequencyRule frequency, std::string source) {
  Convention convention;
  convention.name = std::move(name);
  convention.layout = layout;
  convention.frequency = frequency;
  convention.source = std::move(source);
  return convention;
}

const FrequencyRule paper_rule{FrequencyRuleKind::paper, 10000.0, 1.0, 1.0e4};
const FrequencyRule timescale_rule{FrequencyRuleKind::timescale, 10000.0, 1.0, 1.0e4};

// Relative: positions L-1 down; an odd width is a shape error in every
// original (d + 1 columns, or a failed slice assignment), so it is rejected.
Convention relative(std::string name, Layout layout, PositionSpan span, std::string source) {
  Convention convention = preset(std::move(name), layout, paper_rule, std::move(source));
  convention.position_step = -1;
  convention.span = span;
  convention.odd_dim = OddDimPolicy::reject;
  return convention;
}

}  // namespace

Convention timestep_convention(std::string name, const TimestepEmbedding& fields, std::string source) {
  if (fields.downscale_freq_shift < 0) {
    throw ConventionError("downscale_freq_shift is " + std::to_string(fields.downscale_freq_shift) +
                          ": expected a whole number >= 0");
  }
  if (!(std::isfinite(fields.scale) && fields.scale > 0.0)) {
    throw ConventionError("scale is " + significant(fields.scale, 6) + ": expected a positive finite number");
  }
  if (!(std::isfinite(fields.max_period) && fields.max_period > 1.0)) {
    throw ConventionError("max_period is " + significant(fields.max_period, 6) +
                          ": expected a finite number above 1");
  }
  Convention convention;
  convention.name = std::move(name);
  convention.layout = fields.flip_sin_to_cos ? Layout::cos_sin_halves : Layout::sin_cos_halves;
  convention.frequency.kind = FrequencyRuleKind::timestep;
  convention.frequency.max_period = fields.max_period;
  convention.frequency.downscale_freq_shift = fields.downscale_freq_shift;
  convention.frequency.scale = fields.scale;
  convention.odd_dim = OddDimPolicy::zero_column;  // torch.nn.functional.pad(emb, (0, 1, 0, 0))
  // n - shift >= 1 (check_dim says why when it is not).
  convention.min_dim = fields.downscale_freq_shift > 0 ? 2 * fields.downscale_freq_shift + 2 : 1;
  convention.source = std::move(source);
  return convention;
}

std::optional<TimestepEmbedding> timestep_fields(const Convention& convention) {
  if (convention.frequency.kind != FrequencyRuleKind::timestep || convention.layout == Layout::interleaved) {
    return std::nullopt;
  }
  TimestepEmbedding fields;
  fields.flip_sin_to_cos = convention.layout == Layout::cos_sin_halves;
  fields.downscale_freq_shift = convention.frequency.downscale_freq_shift;
  fields.scale = convention.frequency.scale;
  fields.max_period = convention.frequency.max_period;
  return fields;
}

const std::vector<Convention>& presets() {
  static const std::vector<Convention> all = [] {
    std::vector<Convention> list;
    list.push_back(preset("vaswani", Layout::interleaved, paper_rule, "Vaswani et al. 2017, section 3.5"));
    Convention tf = preset("tf-tutorial", Layout::sin_cos_halves, paper_rule,
                           "TensorFlow text tutorial 'Neural machine translation with a Transformer' (since 2022)");
    tf.odd_dim = OddDimPolicy::reject;
    list.push_back(tf);
    Convention t2t = preset("tensor2tensor", Layout::sin_cos_halves, timescale_rule,
                            "tensor2tensor common_attention.get_timing_signal_1d");
    t2t.odd_dim = OddDimPolicy::zero_column;
    list.push_back(t2t);
    // fairseq: row padding_idx (default 1) is zeroed; real tokens start at
    // padding_idx + 1. Its d/2 - 1 divisor makes d < 4 a division by zero.
    Convention fairseq = preset("fairseq", Layout::sin_cos_halves, timescale_rule,
                                "fairseq SinusoidalPositionalEmbedding.get_embedding");
    fairseq.zero_rows = {1};
    fairseq.odd_dim = OddDimPolicy::zero_column;
    fairseq.min_dim = 4;
    list.push_back(fairseq);
    // HF Musicgen copies fairseq's get_embedding with cos first: same divisor.
    Convention musicgen = preset("musicgen", Layout::cos_sin_halves, timescale_rule,
                                 "transformers MusicgenSinusoidalPositionalEmbedding.get_embedding");
    musicgen.odd_dim = OddDimPolicy::zero_column;
    musicgen.min_dim = 4;
    list.push_back(musicgen);
    list.push_back(
        preset("marian-hf", Layout::sin_cos_halves, paper_rule, "transformers MarianSinusoidalPositionalEmbedding"));
    return list;
  }();
  return all;
}

// CONVENTIONS.md, "Relative sinusoidal encodings". Their frequencies are the
// paper's, computed in float32 by the originals (inv_freq / div_term); the
// conventions are the exact values, as for every preset.
const std::vector<Convention>& relative_presets() {
  static const std::vector<Convention> all = [] {
    std::vector<Convention> list;
    list.push_back(relative("transformer-xl", Layout::sin_cos_halves, PositionSpan::down_to_zero,
                            "kimiyoung/transformer-xl pytorch/mem_transformer.py PositionalEmbedding: pos_seq = "
                            "arange(klen-1, -1, -1.0), inv_freq = 1 / 10000^(arange(0, d, 2) / d), cat([sin, cos], "
                            "-1); the TF version's positional_embedding is the same"));
    list.push_back(relative("espnet-rel", Layout::interleaved, PositionSpan::centred_on_zero,
                            "espnet espnet/nets/pytorch_backend/transformer/embedding.py RelPositionalEncoding (the "
                            "newer one, not LegacyRelPositionalEncoding): cat(flip(pe_positive), pe_negative[1:]), "
                            "div_term = exp(arange(0, d, 2) * -(ln 10000 / d)), sin at 0::2, cos at 1::2"));
    list.push_back(relative("nemo-rel", Layout::interleaved, PositionSpan::centred_on_zero,
                            "NVIDIA NeMo nemo/collections/asr/parts/submodules/multi_head_attention.py "
                            "RelPositionalEncoding.extend_pe: positions arange(L-1, -L, -1), PositionalEncoding's "
                            "create_pe (sin at 0::2, cos at 1::2, the paper's div_term); read from the public code "
                            "as remembered, not re-checked against a pinned release"));
    list.push_back(relative("speechbrain-rel", Layout::interleaved, PositionSpan::centred_on_zero,
                            "SpeechBrain speechbrain/nnet/attention.py RelPosEncXL.make_pe: cat(flip(pe_past), "
                            "pe_future[1:]) with pe_future's sin negated, sin at 0::2, cos at 1::2; read from the "
                            "public code as remembered, not re-checked against a pinned release"));
    return list;
  }();
  return all;
}

namespace {

// Kept out of presets(), the list the checks and the report sweep, whose
// figures are the six encodings' of CONVENTIONS.md; validate and the
// command line find these by name and detection names them.
std::vector<Convention> timestep_presets() {
  std::vector<Convention> list;
    // Diffusion timestep embeddings (CONVENTIONS.md): row r holds timestep r.
    TimestepEmbedding stable_diffusion;
    stable_diffusion.flip_sin_to_cos = true;
    stable_diffusion.downscale_freq_shift = 0;
    list.push_back(timestep_convention(
        "sd-timestep", stable_diffusion,
        "diffusers get_timestep_embedding with flip_sin_to_cos=True, downscale_freq_shift=0 (UNet2DConditionModel's "
        "time_proj; runwayml/stable-diffusion-v1-5 unet/config.json: flip_sin_to_cos true, freq_shift 0); CompVis "
        "ldm timestep_embedding"));
    list.push_back(timestep_convention(
        "ddpm-timestep", TimestepEmbedding{},
        "diffusers get_timestep_embedding's defaults (flip_sin_to_cos=False, downscale_freq_shift=1, scale=1, "
        "max_period=10000), as DDPM's get_timestep_embedding (Ho et al. 2020); tensor2tensor's table at every width from 4"));
  return list;
}

}  // namespace

const std::vector<Convention>& all_presets() {
  static const std::vector<Convention> all = [] {
    std::vector<Convention> list = presets();
    list.insert(list.end(), relative_presets().begin(), relative_presets().end());
    const std::vector<Convention> timesteps = timestep_presets();
    list.insert(list.end(), timesteps.begin(), timesteps.end());
    return list;
  }();
  return all;
}

}  // namespace pecheck
