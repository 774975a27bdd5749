#!/usr/bin/env python3
"""Rotated queries or keys, as published RoPE code applies the rotation, with
NumPy (or PyTorch), for `pecheck validate OUT.npy --input IN.npy --positions POS.npy`.

  rotated_outputs.py (--preset NAME | --config CONFIG.json) --input IN.npy --positions POS.npy
                     --output OUT.npy [--shape S] [--length L] [--heads H] [--batch B]
                     [--first-position K] [--dtype F] [--form hf|meta|float32] [--layout L]
                     [--backend numpy|torch] [--seed N] [--layer-type T] [fault options]

The rope parameters (inv_freq by the scaling rule, attention_scaling) come from
rope_caches.py beside this file, which computes them as transformers'
modeling_rope_utils.py does. IN holds random normal values rounded to F
(float32, float16 or bfloat16; NumPy has no bfloat16, so bfloat16 arrays are
written as float32 holding bfloat16 values), head_dim columns, of which the
first d = int(head_dim * partial_rotary_factor) rotate; the rest pass through.

S (--shape) is the tensor's shape:
  ld    (L, d)          lhd   (L, H, d)        sbhd  (L, B, H, d)
  bshd  (B, L, H, d)    bhsd  (B, H, L, d)     thd   (T, H, d) packed: B sequences of L tokens
                                                     each, positions restarting per sequence
POS holds one int64 position per token: (L,) = K, K+1, ..., K+L-1, or (T,) for thd.

Forms (docs/CONVENTIONS.md, "Applying the rotation"):
  hf       transformers' apply_rotary_pos_emb: the float32 cos/sin cache (inv_freq x positions
           in float32, times attention_scaling) cast to F, then q*cos + rotate_half(q)*sin in F
  meta     Meta's apply_rotary_emb: pairs (2i, 2i+1) as complex numbers times freqs_cis
           (complex64), computed in float32 (.float()), rounded once to F (type_as)
  float32  cos and sin of float32 angles on the fly, the rotation in float32, rounded once to F
--layout rotate-half|interleaved overrides the pairing (hf default rotate-half, or the preset's;
meta: interleaved always).

Faults (each seen in real code; docs/CONVENTIONS.md and the issue's list):
  --positions-in float16|bfloat16   positions rounded to that format before the product
  --angles float16|bfloat16         the angles p * inv_freq rounded to that format
  --inv-freq float16|bfloat16       inv_freq rounded to that format (a module cast with .to())
  --cache float16|bfloat16          cos and sin held in that format before a float32 rotation
  --accumulate-frequencies          each pair's angle built by repeated float32 multiplication,
                                    theta *= theta_scale, theta_scale = base^(-2/d) (ggml)
  --fast-trig                       sin and cos after a float32 range reduction by the float32
                                    2 pi (error about |angle| 2^-24, as fast intrinsics give)
  --base B, --scaling none, --scaling-factor X   another rope_theta or scaling rule
  --direction reverse               rotation by -theta
  --attention-factor missing|twice  attention_scaling not applied, or applied twice
  --rotary-width W                  W columns rotate instead of d (a partial-width mismatch)
  --position-offset K               the kernel rotates by POS + K while POS.npy holds POS
  --proportional                    a partial rotary in the proportional form: frequencies over
                                    head_dim, pairs (i, i + head_dim/2) (pie-project/pie PR 603)

M-RoPE (a config with mrope_section: Qwen2-VL runs, Qwen3-VL mrope_interleaved): POS is (3, L),
the temporal, height and width ids (3, T for thd); --mrope-ids image (the default) gives the
tokens an 8 x 8 grid per frame (t = K + r // 64, h = K + (r // 8) % 8, w = K + r % 8), text the
same ids in all three rows; --mrope-batch-ids (sbhd, bshd, bhsd) writes (3, B, L), batch entry
b's ids the first one's plus 7 b. Pair i turns by the id of its section, as
apply_multimodal_rotary_pos_emb and apply_interleaved_mrope pick them. Faults:
  --mrope-fault ids-off-by-one       the kernel's height and width ids one ahead (vllm 16878)
  --mrope-fault sections-ignored     every pair at the temporal id
  --mrope-fault other-split          runs where the config interleaves, or the reverse
"""
import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rope_caches  # noqa: E402  (the rope parameters, computed once, as transformers does)

SHAPES = ("ld", "lhd", "sbhd", "bshd", "bhsd", "thd")


def rounder(dtype):
    """Rounds float32 values to the activation dtype, kept in float32."""
    if dtype == "float32":
        return lambda x: np.asarray(x, dtype=np.float32)
    return lambda x: rope_caches.round_to(np.asarray(x, dtype=np.float32), dtype)


def token_positions(args):
    """POS (what the file says) and the positions of each token along the sequence axis."""
    if args.shape == "thd":
        pos = np.concatenate([np.arange(args.first_position, args.first_position + args.length)] * args.batch)
    else:
        pos = np.arange(args.first_position, args.first_position + args.length)
    return pos.astype(np.int64)


def shape_of(args, head_dim):
    L, H, B, d = args.length, args.heads, args.batch, head_dim
    return {"ld": (L, d), "lhd": (L, H, d), "sbhd": (L, B, H, d), "bshd": (B, L, H, d),
            "bhsd": (B, H, L, d), "thd": (B * L, H, d)}[args.shape]


def sequence_axis(shape_name):
    return {"ld": 0, "lhd": 0, "sbhd": 0, "bshd": 1, "bhsd": 2, "thd": 0}[shape_name]


def mrope_rows(section, interleaved, n):
    """The id row (0 temporal, 1 height, 2 width) of each of n frequencies."""
    rows = np.zeros(n, dtype=np.int64)
    if interleaved:  # apply_interleaved_mrope: slice(dim, 3 * section[dim], 3) from row dim
        for dim in (1, 2):
            rows[dim:min(3 * section[dim], n):3] = dim
        return rows
    bounds = np.cumsum(section)  # apply_multimodal_rotary_pos_emb: runs t, h, w
    return np.where(np.arange(n) < bounds[0], 0, np.where(np.arange(n) < bounds[1], 1, 2))


def mrope_ids(args):
    """(3, L) ids of the L distinct tokens (the rows of `unique`)."""
    r = np.arange(args.length, dtype=np.int64)
    k = args.first_position
    if args.mrope_ids == "text":
        return np.stack([k + r] * 3)
    return np.stack([k + r // 64, k + (r // 8) % 8, k + r % 8])


def angles_float32(inv_freq, positions, args, base, dim):
    """(L, n) float32 angles, with the angle faults."""
    pos = positions.astype(np.float32)
    if args.positions_in:
        pos = rope_caches.round_to(pos, args.positions_in)
    if args.accumulate_frequencies:
        # ggml's rope: theta_scale = powf(freq_base, -2.0f/n_dims); theta = p; then for each
        # pair theta *= theta_scale, every product rounded to float32 (no scaling rule).
        scale = np.float32(np.power(np.float32(base), np.float32(-2.0) / np.float32(dim)))
        theta = pos.copy()
        out = np.empty((pos.size, inv_freq.size), dtype=np.float32)
        for i in range(inv_freq.size):
            out[:, i] = theta
            theta = (theta * scale).astype(np.float32)
        return out
    freqs = np.outer(pos, inv_freq).astype(np.float32)
    if args.angles:
        freqs = rope_caches.round_to(freqs, args.angles).astype(np.float32)
    return freqs


def cos_sin_numpy(freqs, attention, args):
    if args.fast_trig:
        # Range reduction by the float32 2 pi, every step in float32: the reduced
        # angle is off by about k (2 pi - float32(2 pi)) for k turns.
        two_pi = np.float32(2 * math.pi)
        k = np.rint((freqs / two_pi).astype(np.float32)).astype(np.float32)
        freqs = (freqs - (k * two_pi).astype(np.float32)).astype(np.float32)
    cos = (np.cos(freqs) * np.float32(attention)).astype(np.float32)
    sin = (np.sin(freqs) * np.float32(attention)).astype(np.float32)
    if args.direction == "reverse":
        sin = -sin
    if args.cache:
        cos, sin = rope_caches.round_to(cos, args.cache), rope_caches.round_to(sin, args.cache)
    return cos.astype(np.float32), sin.astype(np.float32)


def pair_columns(layout, width):
    n = width // 2
    if layout == "interleaved":
        return np.arange(0, width, 2), np.arange(1, width, 2)
    return np.arange(0, n), np.arange(n, width)


def rotate_numpy(x, cos, sin, layout, width, form, dtype):
    """x: (M, D) float32 values of the dtype; cos, sin: (M, n) float32."""
    rd = rounder(dtype)
    first, second = pair_columns(layout, width)
    a, b = x[:, first], x[:, second]
    out = x.copy()
    if form == "hf":
        c, s = rd(cos), rd(sin)  # the cache cast to the activation dtype
        out[:, first] = rd(rd(a * c) + rd(-b * s))
        out[:, second] = rd(rd(b * c) + rd(a * s))
    else:  # meta and float32: float32 products and sums, one rounding at the end
        out[:, first] = rd(((a * cos).astype(np.float32) - (b * sin).astype(np.float32)).astype(np.float32))
        out[:, second] = rd(((a * sin).astype(np.float32) + (b * cos).astype(np.float32)).astype(np.float32))
    return out


def rotate_torch(x, cos, sin, layout, width, form, dtype):
    import torch
    tdtype = getattr(torch, dtype)
    q = torch.from_numpy(x).to(tdtype)
    c32, s32 = torch.from_numpy(cos), torch.from_numpy(sin)
    rot, rest = q[:, :width], q[:, width:]
    n = width // 2
    if form == "hf":
        # transformers' apply_rotary_pos_emb (rotate_half, or GPT-J's rotate_every_two).
        if layout == "interleaved":
            c = torch.repeat_interleave(c32, 2, dim=-1).to(tdtype)
            s = torch.repeat_interleave(s32, 2, dim=-1).to(tdtype)
            x1, x2 = rot[:, ::2], rot[:, 1::2]
            rotated = torch.stack((-x2, x1), dim=-1).flatten(-2)
        else:
            c = torch.cat((c32, c32), dim=-1).to(tdtype)
            s = torch.cat((s32, s32), dim=-1).to(tdtype)
            rotated = torch.cat((-rot[:, n:], rot[:, :n]), dim=-1)
        out = rot * c + rotated * s
    elif form == "meta" or layout == "interleaved":
        # Meta's apply_rotary_emb: view_as_complex(x.float()) * freqs_cis, type_as.
        freqs_cis = torch.complex(c32, s32)
        xc = torch.view_as_complex(rot.float().reshape(rot.shape[0], n, 2).contiguous())
        out = torch.view_as_real(xc * freqs_cis).flatten(1).type_as(rot)
    else:
        x1, x2 = rot[:, :n].float(), rot[:, n:].float()
        out = torch.cat((x1 * c32 - x2 * s32, x2 * c32 + x1 * s32), dim=-1).to(tdtype)
    result = torch.cat((out, rest), dim=-1).float().numpy()
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--preset", choices=sorted(rope_caches.PRESETS))
    source.add_argument("--config")
    parser.add_argument("--input", required=True)
    parser.add_argument("--positions", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--shape", default="lhd", choices=SHAPES)
    parser.add_argument("--length", type=int, default=64)
    parser.add_argument("--heads", type=int, default=2)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--first-position", type=int, default=0)
    parser.add_argument("--dtype", default="float32", choices=["float32", "float16", "bfloat16"])
    parser.add_argument("--form", default="hf", choices=["hf", "meta", "float32"])
    parser.add_argument("--layout", choices=["rotate-half", "interleaved"])
    parser.add_argument("--backend", default="numpy", choices=["numpy", "torch"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sequence-length", type=int, default=0)
    parser.add_argument("--positions-in", choices=["float16", "bfloat16"])
    parser.add_argument("--angles", choices=["float16", "bfloat16"])
    parser.add_argument("--inv-freq", choices=["float16", "bfloat16"])
    parser.add_argument("--cache", choices=["float16", "bfloat16"])
    parser.add_argument("--accumulate-frequencies", action="store_true")
    parser.add_argument("--fast-trig", action="store_true")
    parser.add_argument("--base", type=float)
    parser.add_argument("--scaling", choices=["none"])
    parser.add_argument("--scaling-factor", type=float)
    parser.add_argument("--direction", default="forward", choices=["forward", "reverse"])
    parser.add_argument("--attention-factor", default="applied", choices=["applied", "missing", "twice"])
    parser.add_argument("--rotary-width", type=int)
    parser.add_argument("--position-offset", type=int, default=0)
    parser.add_argument("--layer-type")
    parser.add_argument("--proportional", action="store_true")
    parser.add_argument("--mrope-ids", default="image", choices=["image", "text"])
    parser.add_argument("--mrope-fault", choices=["ids-off-by-one", "sections-ignored", "other-split"])
    parser.add_argument("--mrope-batch-ids", action="store_true")
    args = parser.parse_args()

    config = rope_caches.load_config(args, "rotated_outputs.py")
    dim, base, kind, scaling, config = rope_caches.rope_parameters(config, args)
    head_dim = config["_head_dim"]
    inv_freq, attention = rope_caches.inv_freq_and_attention(dim, base, kind, scaling, config, args.sequence_length)
    if args.inv_freq:
        inv_freq = rope_caches.round_to(inv_freq, args.inv_freq).astype(np.float32)
    attention = {"applied": attention, "missing": 1.0, "twice": attention * attention}[args.attention_factor]
    width = args.rotary_width or dim
    if width % 2 or width > head_dim:
        raise SystemExit(f"rotated_outputs.py: --rotary-width {width}: expected an even width up to {head_dim}")
    if width != dim:
        # The kernel's own width: frequencies base^(-2i/width), as a kernel built for that width computes them.
        exponent = np.arange(0, width, 2, dtype=np.int64).astype(np.float32) / width
        inv_freq = (1.0 / (base ** exponent)).astype(np.float32)
    if args.proportional:
        # pie PR 603: the first d/2 pairs at base^(-2i/head_dim), paired across the whole head.
        width = head_dim
        rotated = np.arange(0, dim, 2, dtype=np.int64).astype(np.float32) / head_dim
        inv_freq = np.concatenate([(1.0 / (base ** rotated)).astype(np.float32),
                                   np.zeros((head_dim - dim) // 2, dtype=np.float32)])
    layout = "interleaved" if args.form == "meta" else (args.layout or config.get("layout", "rotate-half"))
    if layout == "complex":
        layout = "interleaved"

    rng = np.random.default_rng(args.seed)
    shape = shape_of(args, head_dim)
    x = rounder(args.dtype)(rng.standard_normal(shape).astype(np.float32))
    pos_file = token_positions(args)
    unique = np.arange(args.first_position, args.first_position + args.length) + args.position_offset
    freqs = angles_float32(inv_freq.astype(np.float32), unique, args, base, width)
    section = scaling.get("mrope_section")
    batch_ids = args.mrope_batch_ids and args.shape in ("sbhd", "bshd", "bhsd")
    if section:
        interleaved = bool(scaling.get("mrope_interleaved", False)) != (args.mrope_fault == "other-split")
        rows_of = mrope_rows(section, interleaved, width // 2)

        def mrope_freqs(ids):
            """Each id row's float32 angles (inv_freq @ position_ids per row), then each pair's
            from its section's row, with the kernel's faults."""
            kernel_ids = ids.copy()
            if args.mrope_fault == "ids-off-by-one":
                kernel_ids[1:] += 1
            elif args.mrope_fault == "sections-ignored":
                kernel_ids[1:] = kernel_ids[0]
            by_row = [angles_float32(inv_freq.astype(np.float32), kernel_ids[s] + args.position_offset, args, base,
                                     width) for s in range(3)]
            return np.stack([by_row[rows_of[i]][:, i] for i in range(width // 2)], axis=1).astype(np.float32)

        ids = mrope_ids(args)
        if batch_ids:
            # (3, B, L): batch entry b's ids are the first one's plus 7 b (its own image place).
            all_ids = np.stack([ids + 7 * b for b in range(args.batch)], axis=1)
            freqs = np.concatenate([mrope_freqs(all_ids[:, b]) for b in range(args.batch)])
            pos_file = all_ids
        else:
            freqs = mrope_freqs(ids)
            pos_file = ids if args.shape != "thd" else np.tile(ids, (1, args.batch))
    cos, sin = cos_sin_numpy(freqs, attention, args)
    # Row-major rows of the tensor and the index of each row's position in `unique`
    # (with (3, B, L) ids, in the batch entry's block of L).
    axis = sequence_axis(args.shape)
    index_shape = [1] * (len(shape) - 1)
    index_shape[axis] = shape[axis]
    index = np.arange(shape[axis]) % args.length
    rows = np.broadcast_to(index.reshape(index_shape), shape[:-1]).reshape(-1)
    if section and batch_ids:
        batch_axis = 1 if axis == 0 else 0
        batch_shape = [1] * (len(shape) - 1)
        batch_shape[batch_axis] = shape[batch_axis]
        batch = np.broadcast_to(np.arange(shape[batch_axis]).reshape(batch_shape), shape[:-1]).reshape(-1)
        rows = batch * args.length + rows
    flat = x.reshape(-1, head_dim)
    # The angle and cache faults act on the float32 cache, the same for both backends.
    if args.backend == "torch":
        out = rotate_torch(flat, cos[rows], sin[rows], layout, width, args.form, args.dtype)
    else:
        out = rotate_numpy(flat, cos[rows], sin[rows], layout, width, args.form, args.dtype)
    out = out.reshape(shape)

    def save(path, values):
        if args.dtype == "float16":
            values = values.astype(np.float16)
        np.save(path, np.ascontiguousarray(values))

    save(args.input, x)
    save(args.output, out)
    np.save(args.positions, pos_file)


if __name__ == "__main__":
    sys.exit(main())
