#!/usr/bin/env python3
"""Rotary (RoPE) cos and sin caches computed as Hugging Face transformers
computes them, with NumPy (or PyTorch), for `pecheck` to check.

  rope_caches.py (--preset NAME | --config CONFIG.json) --rows N --cos COS.npy --sin SIN.npy
                 [--first-position K] [--dtype F] [--layout L] [--sequence-length S]
                 [--backend numpy|torch] [--inv-freq-out INV.npy] [fault options]

--preset is one of PRESETS below (each an HF config.json fragment with its
source), --config an HF config.json (rope_theta, rope_scaling, head_dim or
hidden_size / num_attention_heads, partial_rotary_factor,
max_position_embeddings). Row r of each cache holds position K + r.
F (--dtype) is float64, float32 (default), float16 or bfloat16; NumPy has no
bfloat16, so a bfloat16 cache is written as float32 holding bfloat16 values.
L (--layout) is rotate-half (default: columns c and c + d/2 share an angle),
interleaved (columns 2i and 2i + 1) or complex (d/2 columns, Meta's
precompute_freqs_cis as cos and sin). S is the current length for dynamic NTK
and for LongRoPE's choice of long or short factors (default: 0, none).

The computation follows transformers' modeling_rope_utils.py and
LlamaRotaryEmbedding.forward:
  inv_freq = 1.0 / (base ** (arange(0, d, 2, int64).float() / d))   float32,
             with the scaling rule's own steps (linear, dynamic, yarn,
             longrope, llama3), Python-float parameters as HF derives them
  freqs    = inv_freq (float32) x positions (float32): one float32 product each
  cos, sin = cos(emb) * attention_scaling, sin(emb) * attention_scaling  (float32)
  output   = cast to F
--backend torch does the same with torch tensors (needs PyTorch).
--inv-freq-out writes the float32 inv_freq the caches were built from (d/2 values,
after any fault): NumPy's float32 power is not correctly rounded (about one
frequency in five differs by 1 ULP from the correctly rounded steps), so a
checker needs it to tell a frequency's rounding from a cos's.

Faults (each seen in real code; docs/CONVENTIONS.md):
  --positions float16|bfloat16   positions rounded to that format before the product
  --angles float16|bfloat16      the product p * inv_freq rounded to that format
                                 (computed in float32, then rounded)
  --angles float64               not a fault: float64 angles from the float32 inv_freq
  --inv-freq float16|bfloat16    inv_freq rounded to that format (a module cast with .to())
  --base B                       a wrong rope_theta
  --scaling none                 the config's rope_scaling ignored
  --scaling-factor X             rope_scaling's factor replaced
  --swap-cos-sin                 the two caches exchanged
  --attention-factor missing|twice|log-twice   attention_scaling not applied, applied twice, or
                                 fed through 0.1 ln(s) + 1 again (sglang issue 33558)
  --partial-over-head-dim        partial rotary's exponent 2i/head_dim instead of 2i/d (pie issue 603)
  --yarn-truncate always         the YaRN correction range rounded although the config sets
                                 truncate false (vllm issue 27722, sglang issue 14270)
  --longrope-factors by-allocated-context   LongRoPE's long factors chosen by
                                 max_position_embeddings, not the sequence length (llama.cpp 24823)

Not faults, rules no preset has:
  --custom half-zero             the second half of the pairs at frequency 0 (never rotated)
  --custom ladder:HIGH:LOW       inv_freq a geometric ladder from HIGH to LOW (float32)
--accumulate builds the angles as ggml does (theta *= theta_scale in float32: frequency-accumulation).

--layer-type T picks one rule of a config with several (transformers v5 rope_parameters by layer
type; Gemma 3: full_attention at rope_theta with rope_scaling, sliding_attention at
rope_local_base_freq unscaled). Fields are read from text_config when the config has one.
"""
import argparse
import json
import math
import sys

import numpy as np

# HF config.json fragments (the fields HF's rope code reads), with sources.
PRESETS = {
    # meta-llama/Llama-2-7b-hf config.json: 4096 / 32 heads, rope_theta 10000 (default).
    "llama2": {"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 10000.0,
               "max_position_embeddings": 4096},
    # meta-llama/Meta-Llama-3-8B config.json.
    "llama3": {"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 500000.0,
               "max_position_embeddings": 8192},
    # meta-llama/Llama-3.1-8B config.json.
    "llama3.1": {"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 500000.0,
                 "max_position_embeddings": 131072,
                 "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                  "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}},
    # Qwen/Qwen2-7B config.json: 3584 / 28 heads.
    "qwen2": {"hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0,
              "max_position_embeddings": 32768},
    # mistralai/Mistral-7B-v0.3 config.json (v0.2 onwards: rope_theta 1e6).
    "mistral": {"hidden_size": 4096, "num_attention_heads": 32, "head_dim": 128, "rope_theta": 1000000.0,
                "max_position_embeddings": 32768},
    # EleutherAI/gpt-neox-20b config.json: 6144 / 64 heads, rotary_pct 0.25.
    "gpt-neox": {"hidden_size": 6144, "num_attention_heads": 64, "partial_rotary_factor": 0.25,
                 "rope_theta": 10000.0, "max_position_embeddings": 2048},
    # EleutherAI/gpt-j-6b config.json: 4096 / 16 heads, rotary_dim 64 (interleaved).
    "gpt-j": {"hidden_size": 4096, "num_attention_heads": 16, "partial_rotary_factor": 0.25,
              "rope_theta": 10000.0, "max_position_embeddings": 2048, "layout": "interleaved"},
    # Meta's reference llama/model.py precompute_freqs_cis (Llama 2 7B: dim 128, theta 10000).
    "llama2-meta": {"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 10000.0,
                    "max_position_embeddings": 4096, "layout": "complex"},
    # Llama 2 7B with rope_scaling {"type": "dynamic", "factor": 2.0}, as transformers' LlamaConfig
    # docs describe it; the base follows the current length (--sequence-length).
    "llama2-dynamic": {"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 10000.0,
                       "max_position_embeddings": 4096, "rope_scaling": {"type": "dynamic", "factor": 2.0}},
    # Qwen2.5 README, "Processing Long Texts": rope_scaling yarn, factor 4, original 32768.
    "yarn": {"hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0,
             "max_position_embeddings": 32768,
             "rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}},
}
# phi3-longrope needs its 48 + 48 factors: give its config.json with --config.

FLOATS = {"float64": np.float64, "float32": np.float32, "float16": np.float16}


def round_bfloat16(x):
    """float32 values rounded to bfloat16 (nearest, ties to even), kept in float32."""
    x = np.ascontiguousarray(x, dtype=np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return bits.astype(np.uint32).view(np.float32)


def round_to(x, name):
    """x rounded to the format `name`: float16 and bfloat16 values are kept in float32."""
    x = np.asarray(x)
    if name == "bfloat16":
        return round_bfloat16(x.astype(np.float32))  # from float64 this rounds twice; only faults use it
    if name == "float16":
        return x.astype(np.float16).astype(np.float32)
    return x.astype(FLOATS[name])


def layer_rules(config):
    """{layer type: (rope_theta, rule)}, the key None when the config has one rule: transformers
    v5's rope_parameters (one rule, or one per layer type), else rope_theta with rope_scaling,
    and Gemma 3's sliding layers at rope_local_base_freq with the default rule."""
    theta = config.get("rope_theta", 10000.0)
    params = config.get("rope_parameters")
    if params:
        if any(k in params for k in ("rope_type", "type", "rope_theta")):
            return {None: (params.get("rope_theta", theta), params)}
        return {layer: (rule.get("rope_theta", theta), rule) for layer, rule in params.items()}
    rule = config.get("rope_scaling") or {}
    if "rope_local_base_freq" in config:
        return {"full_attention": (theta, rule), "sliding_attention": (config["rope_local_base_freq"], {})}
    return {None: (theta, rule)}


def rope_parameters(config, args):
    """The fields HF's rope code reads, with the overrides a fault asks for."""
    config = config.get("text_config") or config  # multimodal configs (Gemma 3, Qwen3-VL)
    # DeepseekV3Config: the rotary width is qk_rope_head_dim.
    head_dim = config.get("qk_rope_head_dim") or config.get("head_dim") or \
        config["hidden_size"] // config["num_attention_heads"]
    rules = layer_rules(config)
    layer = getattr(args, "layer_type", None) or \
        (next(iter(rules)) if len(rules) == 1 else "full_attention")
    if layer not in rules:
        raise SystemExit(f"rope_caches.py: --layer-type {layer}: the config has {sorted(map(str, rules))}")
    theta, rule = rules[layer]
    if layer == "full_attention" and config.get("global_head_dim"):
        head_dim = config["global_head_dim"]  # Gemma 4: wider heads on full-attention layers
    config["_head_dim"] = head_dim
    fraction = rule.get("partial_rotary_factor", config.get("partial_rotary_factor", 1.0))
    dim = int(head_dim * fraction)
    if getattr(args, "partial_over_head_dim", None):
        args.partial_over_head_dim = head_dim
    base = args.base if args.base is not None else theta
    scaling = dict(rule)
    if args.scaling == "none":
        scaling = {}
    if args.scaling_factor is not None:
        scaling["factor"] = args.scaling_factor
    kind = scaling.get("rope_type", scaling.get("type", "default"))
    if kind == "su":
        kind = "longrope"
    if kind == "mrope":  # Qwen2-VL: the default rule; its sections only matter for 3-D position ids
        kind = "default"
    if kind == "proportional":
        # _compute_proportional_rope_parameters: the cache spans the whole head;
        # int(partial_rotary_factor * head_dim // 2) pairs rotate.
        dim = head_dim
        scaling["_rope_angles"] = int(fraction * head_dim // 2)
    if getattr(args, "yarn_truncate", "config") == "always":
        scaling["truncate"] = True
    return dim, float(base), kind, scaling, config


def inv_freq_and_attention(dim, base, kind, scaling, config, sequence_length, args=None):
    """inv_freq (float32) and attention_scaling (Python float), as modeling_rope_utils.py."""
    exponent = np.arange(0, dim, 2, dtype=np.int64).astype(np.float32) / dim
    if getattr(args, "partial_over_head_dim", None):  # pie-project/pie issue 603
        exponent = np.arange(0, dim, 2, dtype=np.int64).astype(np.float32) / args.partial_over_head_dim
    factor = scaling.get("factor", 1.0)
    max_pos = config.get("max_position_embeddings", 2048)
    attention = 1.0
    if kind == "dynamic":  # _compute_dynamic_ntk_parameters
        seq = sequence_length if sequence_length > max_pos else max_pos
        base = base * ((factor * seq / max_pos) - (factor - 1)) ** (dim / (dim - 2))
    if kind == "proportional":  # base^(-arange(0, 2 angles, 2) / head_dim), then zeros, / factor
        angles = scaling["_rope_angles"]
        rotated = np.arange(0, 2 * angles, 2, dtype=np.int64).astype(np.float32) / dim
        inv_freq = np.concatenate([(1.0 / (base ** rotated)).astype(np.float32),
                                   np.zeros(dim // 2 - angles, dtype=np.float32)])
        inv_freq = (inv_freq / factor).astype(np.float32)
    elif kind in ("default", "dynamic", "linear"):
        inv_freq = (1.0 / (base ** exponent)).astype(np.float32)
        if kind == "linear":  # _compute_linear_scaling_rope_parameters
            inv_freq = (inv_freq / factor).astype(np.float32)
    elif kind == "yarn":  # _compute_yarn_parameters
        original = scaling.get("original_max_position_embeddings", max_pos)
        beta_fast, beta_slow = scaling.get("beta_fast", 32), scaling.get("beta_slow", 1)

        def correction_dim(rotations):
            return (dim * math.log(original / (rotations * 2 * math.pi))) / (2 * math.log(base))

        low, high = correction_dim(beta_fast), correction_dim(beta_slow)
        if scaling.get("truncate", True):
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, dim - 1)
        if low == high:
            high += 0.001
        ramp = np.clip((np.arange(dim // 2, dtype=np.float32) - low) / (high - low), 0, 1).astype(np.float32)
        extrapolation_weight = (1 - ramp).astype(np.float32)
        pos_freqs = (base ** exponent).astype(np.float32)
        extrapolation = (1.0 / pos_freqs).astype(np.float32)
        interpolation = (1.0 / (factor * pos_freqs)).astype(np.float32)
        inv_freq = (interpolation * (1 - extrapolation_weight) + extrapolation * extrapolation_weight).astype(np.float32)

        def mscale(scale, m=1.0):
            return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0

        attention = scaling.get("attention_factor")
        if attention is None:
            if scaling.get("mscale") and scaling.get("mscale_all_dim"):
                attention = mscale(factor, scaling["mscale"]) / mscale(factor, scaling["mscale_all_dim"])
            else:
                attention = mscale(factor)
    elif kind == "longrope":  # _compute_longrope_parameters
        original = config.get("original_max_position_embeddings", max_pos)
        if "original_max_position_embeddings" in config:
            factor = max_pos / original
        attention = scaling.get("attention_factor")
        if attention is None:
            attention = 1.0 if factor <= 1.0 else math.sqrt(1 + math.log(factor) / math.log(original))
        chosen = scaling["long_factor"] if sequence_length > original else scaling["short_factor"]
        if getattr(args, "longrope_factors", None) == "by-allocated-context":  # llama.cpp issue 24823
            chosen = scaling["long_factor"] if max_pos > original else scaling["short_factor"]
        ext = np.array(chosen, dtype=np.float32)
        inv_freq = (1.0 / (ext * (base ** exponent).astype(np.float32))).astype(np.float32)
    elif kind == "llama3":  # _compute_llama3_parameters
        inv_freq = (1.0 / (base ** exponent)).astype(np.float32)
        original = scaling["original_max_position_embeddings"]
        low_ff, high_ff = scaling["low_freq_factor"], scaling["high_freq_factor"]
        wavelen = (2 * math.pi / inv_freq).astype(np.float32)
        llama = np.where(wavelen > original / low_ff, inv_freq / factor, inv_freq).astype(np.float32)
        smooth = ((original / wavelen - low_ff) / (high_ff - low_ff)).astype(np.float32)
        smoothed = ((1 - smooth) * llama / factor + smooth * llama).astype(np.float32)
        medium = ~(wavelen < original / high_ff) & ~(wavelen > original / low_ff)
        inv_freq = np.where(medium, smoothed, llama).astype(np.float32)
    else:
        raise SystemExit(f"rope_caches.py: rope_scaling type '{kind}' is not supported")
    if "attention_factor" in scaling and kind not in ("yarn", "longrope"):
        attention = scaling["attention_factor"]
    return inv_freq, float(attention)


def caches_numpy(inv_freq, positions, attention, angles):
    freqs = np.outer(positions, inv_freq).astype(np.float32)  # one float32 product per entry
    if angles == "float64":
        freqs = np.outer(positions.astype(np.float64), inv_freq.astype(np.float64))
    elif angles in ("float16", "bfloat16"):
        freqs = round_to(freqs, angles)
    return (np.cos(freqs) * np.float32(attention)).astype(freqs.dtype), \
        (np.sin(freqs) * np.float32(attention)).astype(freqs.dtype)


def caches_torch(inv_freq, positions, attention, angles):
    import torch  # LlamaRotaryEmbedding.forward, autocast off, float32
    inv = torch.from_numpy(inv_freq)[None, :, None].float()
    pos = torch.from_numpy(positions.astype(np.float32))[None, None, :].float()
    freqs = (inv @ pos).transpose(1, 2)[0]
    if angles == "float64":
        freqs = torch.from_numpy(inv_freq).double()[None, :] * torch.from_numpy(positions).double()[:, None]
    elif angles in ("float16", "bfloat16"):
        freqs = freqs.to(getattr(torch, angles)).float()
    return (freqs.cos() * attention).numpy(), (freqs.sin() * attention).numpy()


def caches_accumulated(dim, base, inv_freq, positions, attention):
    """ggml's rope (ggml-cpu rope_yarn cache init): pair i's angle is p * theta_scale^i by repeated
    float32 multiplication, theta_scale = powf(base, -2/d); the rule's own ratio to the plain
    ladder multiplies in as ggml's freq_factors divide."""
    theta_scale = np.float32(base) ** np.float32(-2.0 / dim)
    plain = (np.float64(base) ** (-np.arange(0, dim, 2) / dim))
    ratio = inv_freq.astype(np.float64) / plain
    ratio[np.abs(ratio - 1) < 1e-6] = 1.0  # the plain rule's float32 rounding is not a freq_factor
    theta = positions.astype(np.float32)
    angles = np.empty((len(positions), len(inv_freq)), dtype=np.float32)
    for i in range(len(inv_freq)):
        angles[:, i] = theta if ratio[i] == 1.0 else (theta * np.float32(ratio[i])).astype(np.float32)
        theta = (theta * theta_scale).astype(np.float32)
    return (np.cos(angles) * np.float32(attention)).astype(np.float32), \
        (np.sin(angles) * np.float32(attention)).astype(np.float32)


def arrange(half, layout):
    if layout == "rotate-half":
        return np.concatenate([half, half], axis=1)
    if layout == "interleaved":
        return np.repeat(half, 2, axis=1)
    return half


def load_config(args, script):
    """The config.json --config names, or the --preset's fragment; a file that
    cannot be read or parsed ends the script with one line naming it."""
    if not args.config:
        return PRESETS[args.preset]
    try:
        with open(args.config, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as error:
        raise SystemExit(f"{script}: {args.config}: {error}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--preset", choices=sorted(PRESETS))
    source.add_argument("--config")
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--first-position", type=int, default=0)
    parser.add_argument("--dtype", default="float32", choices=["float64", "float32", "float16", "bfloat16"])
    parser.add_argument("--layout", choices=["rotate-half", "interleaved", "complex"])
    parser.add_argument("--sequence-length", type=int, default=0)
    parser.add_argument("--backend", default="numpy", choices=["numpy", "torch"])
    parser.add_argument("--cos", required=True)
    parser.add_argument("--sin", required=True)
    parser.add_argument("--inv-freq-out")
    parser.add_argument("--positions", default="int", choices=["int", "float16", "bfloat16"])
    parser.add_argument("--angles", default="float32", choices=["float32", "float64", "float16", "bfloat16"])
    parser.add_argument("--inv-freq", default="float32", choices=["float32", "float16", "bfloat16"])
    parser.add_argument("--base", type=float)
    parser.add_argument("--scaling", choices=["none"])
    parser.add_argument("--scaling-factor", type=float)
    parser.add_argument("--swap-cos-sin", action="store_true")
    parser.add_argument("--attention-factor", default="applied", choices=["applied", "missing", "twice", "log-twice"])
    parser.add_argument("--layer-type")
    parser.add_argument("--custom", help="half-zero, or ladder:HIGH:LOW")
    parser.add_argument("--partial-over-head-dim", action="store_const", const=-1)
    parser.add_argument("--accumulate", action="store_true")
    parser.add_argument("--yarn-truncate", default="config", choices=["config", "always"])
    parser.add_argument("--longrope-factors", default="by-sequence-length",
                        choices=["by-sequence-length", "by-allocated-context"])
    args = parser.parse_args()

    config = load_config(args, "rope_caches.py")
    layout = args.layout or config.get("layout", "rotate-half")
    dim, base, kind, scaling, config = rope_parameters(config, args)
    inv_freq, attention = inv_freq_and_attention(dim, base, kind, scaling, config, args.sequence_length, args)
    if args.inv_freq != "float32":
        inv_freq = round_to(inv_freq, args.inv_freq)
    attention = {"applied": attention, "missing": 1.0, "twice": attention * attention,
                 # an attention_factor fed through 0.1 ln(s) + 1 once more (sglang issue 33558)
                 "log-twice": 0.1 * math.log(attention) + 1.0}[args.attention_factor]

    if args.custom == "half-zero":  # the second half of the pairs never rotates
        inv_freq = inv_freq.copy()
        inv_freq[len(inv_freq) // 2:] = 0
    elif args.custom:  # ladder:HIGH:LOW, a geometric ladder between two set frequencies
        high, low = (float(x) for x in args.custom.split(":")[1:])
        inv_freq = (high * (low / high) ** (np.arange(len(inv_freq)) / (len(inv_freq) - 1))).astype(np.float32)

    if args.inv_freq_out:
        np.save(args.inv_freq_out, inv_freq.astype(np.float32))
    positions = np.arange(args.first_position, args.first_position + args.rows, dtype=np.int64).astype(np.float32)
    if args.positions != "int":
        positions = round_to(positions, args.positions)
    compute = caches_torch if args.backend == "torch" else caches_numpy
    cos, sin = compute(inv_freq.astype(np.float32), positions, attention, args.angles)
    if args.accumulate:
        cos, sin = caches_accumulated(dim, base, inv_freq, positions, attention)
    if args.swap_cos_sin:
        cos, sin = sin, cos
    for table, path in ((cos, args.cos), (sin, args.sin)):
        out = arrange(table, layout)
        if args.dtype == "float16":
            out = out.astype(np.float16)
        elif args.dtype == "bfloat16":
            out = round_bfloat16(out.astype(np.float32))
        else:
            out = out.astype(FLOATS[args.dtype])
        np.save(path, np.ascontiguousarray(out))


if __name__ == "__main__":
    sys.exit(main())
