#!/usr/bin/env python3
"""RoPE kernels in PyTorch for `pecheck validate --kernel --exec`: pecheck writes the queries IN.npy
((L, H, d) or (B, L, H, d)) and the positions POS.npy ((L,) int64); this writes the rotated OUT.npy.

  rope_kernels.py (--preset NAME | --config CONFIG.json) [--form F] [--fault X] INPUT POSITIONS OUTPUT DTYPE
  rope_kernels.py (--preset NAME | --config CONFIG.json) [--form F] [--fault X] --serve
        (--exec-protocol lines: one request per stdin line, DTYPE INPUT POSITIONS OUTPUT; answers ok)

  pecheck validate --kernel --rope llama2 --exec 'python3 rope_kernels.py --preset llama2 {input} {positions} \
      {output} {dtype}' --exec-dtype float32 --exec-dtype bfloat16

Forms, each as published code writes it (docs/CONVENTIONS.md, "Applying the rotation"):
  hf       a transformers-style module: a LlamaRotaryEmbedding-like module makes cos and sin in float32
           from its inv_freq buffer and casts them to the activation dtype; apply_rotary_pos_emb then
           computes q*cos + rotate_half(q)*sin in that dtype
  meta     Meta's complex form: freqs_cis = polar(1, outer(t, inv_freq)); view_as_complex(x.float())
           * freqs_cis, view_as_real, type_as(x) (pairs 2i, 2i+1: interleaved)
  float32  cos and sin of float32 angles, the rotation in float32 (rotate-half), rounded once
Faults (--fault, each seen in real code):
  positions-bfloat16  position ids held in bfloat16 before the product (steps of 64 past 2^14)
  angles-float16      the angles p * inv_freq held in float16
  inv-freq-bfloat16   the inv_freq buffer rounded to bfloat16 (a module cast with .to(torch.bfloat16))
  cache-bfloat16      cos and sin held in bfloat16 before a float32 rotation
  accumulate          each pair's angle built by repeated float32 multiplication (ggml's theta *= theta_scale)
  reverse             rotation by -theta
  interleaved         pairs (2i, 2i+1) where the convention pairs (i, i + d/2): NEOX against NORMAL
The attention factor of the scaling rule (yarn, longrope) multiplies cos and sin in every form.
"""
import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exec_protocol  # noqa: E402
import rope_caches  # noqa: E402

DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16, "float64": torch.float64}
FAULTS = ("positions-bfloat16", "angles-float16", "inv-freq-bfloat16", "cache-bfloat16", "accumulate", "reverse",
          "interleaved")


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class RotaryEmbedding(torch.nn.Module):
    """cos and sin of position_ids x inv_freq in float32, times the attention factor (transformers' module)."""

    def __init__(self, inv_freq, attention, fault, base, dim):
        super().__init__()
        if fault == "inv-freq-bfloat16":
            inv_freq = inv_freq.to(torch.bfloat16).float()
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self.attention, self.fault, self.base, self.dim = attention, fault, base, dim

    def angles(self, position_ids):  # (L,) -> (L, d/2) float32
        pos = position_ids.float()
        if self.fault == "positions-bfloat16":
            pos = pos.to(torch.bfloat16).float()
        if self.fault == "accumulate":
            scale = torch.tensor(self.base, dtype=torch.float32) ** torch.tensor(-2.0 / self.dim, dtype=torch.float32)
            theta, columns = pos.clone(), []
            for _ in range(self.inv_freq.numel()):
                columns.append(theta)
                theta = theta * scale
            return torch.stack(columns, dim=-1)
        angles = pos[:, None] * self.inv_freq[None, :]
        if self.fault == "angles-float16":
            return angles.half().float()  # the float32 angles held in float16 (cactus PR 688)
        return angles

    def forward(self, position_ids):
        freqs = self.angles(position_ids).float()
        cos, sin = freqs.cos() * self.attention, freqs.sin() * self.attention
        if self.fault == "reverse":
            sin = -sin
        if self.fault == "cache-bfloat16":
            cos, sin = cos.to(torch.bfloat16).float(), sin.to(torch.bfloat16).float()
        return cos, sin


def apply(q, cos, sin, form, fault):
    """q: (..., L, H, d) in its dtype; cos, sin: (L, d/2) float32. The first 2 * d/2 columns rotate."""
    width = 2 * cos.shape[-1]
    rot, rest = q[..., :width], q[..., width:]
    cos, sin = cos[:, None, :], sin[:, None, :]  # broadcast over the heads
    if form == "meta" or fault == "interleaved":
        freqs_cis = torch.complex(cos, sin)
        xc = torch.view_as_complex(rot.float().reshape(*rot.shape[:-1], -1, 2).contiguous())
        out = torch.view_as_real(xc * freqs_cis).flatten(-2).type_as(rot)
    elif form == "hf":
        c = torch.cat((cos, cos), dim=-1).to(q.dtype)
        s = torch.cat((sin, sin), dim=-1).to(q.dtype)
        out = rot * c + rotate_half(rot) * s
    else:
        x = rot.float()
        c, s = torch.cat((cos, cos), dim=-1), torch.cat((sin, sin), dim=-1)
        out = (x * c + rotate_half(x) * s).to(q.dtype)
    return torch.cat((out, rest), dim=-1)


def load(path, dtype):
    """IN as the dtype asked for (bfloat16 arrives as float32 holding bfloat16 values)."""
    return torch.from_numpy(np.load(path)).to(DTYPES[dtype])


def save(path, tensor):
    values = tensor.float() if tensor.dtype == torch.bfloat16 else tensor  # NumPy has no bfloat16
    np.save(path, values.numpy())


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--preset", choices=sorted(rope_caches.PRESETS))
    source.add_argument("--config")
    parser.add_argument("--form", default="hf", choices=["hf", "meta", "float32"])
    parser.add_argument("--fault", choices=FAULTS)
    parser.add_argument("--serve", action="store_true")
    parser.add_argument("request", nargs="*", help="INPUT POSITIONS OUTPUT DTYPE")
    args = parser.parse_args(argv)
    args.base = args.scaling = args.scaling_factor = None  # rope_parameters' overrides: none here
    config = rope_caches.load_config(args, "rope_kernels.py")
    dim, base, kind, scaling, config = rope_caches.rope_parameters(config, args)
    inv_freq, attention = rope_caches.inv_freq_and_attention(dim, base, kind, scaling, config, 0)
    module = RotaryEmbedding(torch.from_numpy(np.asarray(inv_freq, dtype=np.float32)), attention, args.fault, base,
                             dim)

    def rotate(dtype, input_path, positions_path, output_path):
        q = load(input_path, dtype)
        positions = torch.from_numpy(np.load(positions_path))
        with torch.no_grad():
            cos, sin = module(positions)
            save(output_path, apply(q, cos, sin, args.form, args.fault))

    if args.serve:
        if args.request:
            parser.error("--serve reads its requests from stdin: give no INPUT POSITIONS OUTPUT DTYPE")
        exec_protocol.serve_lines(lambda line: rotate(*line.split(" ", 3)))
        return 0
    if len(args.request) != 4:
        parser.error("expected INPUT POSITIONS OUTPUT DTYPE (or --serve)")
    input_path, positions_path, output_path, dtype = args.request
    rotate(dtype, input_path, positions_path, output_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
