#!/usr/bin/env python3
"""Diffusion timestep embeddings built from the public formula of diffusers'
get_timestep_embedding, for `pecheck validate`:

  timestep_embeddings.py ROWS DIM OFFSET OUTPUT [--flip-sin-to-cos] [--downscale-freq-shift S]
                         [--scale S] [--max-period P] [--compute exact|numpy|torch]
                         [--fault halves-swapped]

Row r holds timestep t = OFFSET + r. With n = DIM // 2 the embedding is
  w_i = exp(-ln(max_period) i / (n - downscale_freq_shift)),  angle = scale * t * w_i,
  [sin(angle) | cos(angle)], or [cos | sin] with --flip-sin-to-cos,
and an odd DIM gets one zero column last (the zero pad). The defaults are the
function's: no flip, downscale_freq_shift 1, scale 1, max_period 10000; Stable
Diffusion's UNet passes --flip-sin-to-cos --downscale-freq-shift 0.

--compute exact (default): the angles in long double and each value rounded
  once to float32, a table within pecheck's ULP budget.
--compute numpy | torch: float32 throughout, as the function runs: the
  exponent and exp in float32, t * w in float32, then scale times that.
  torch needs PyTorch; the output is float32 either way.
Faults seen in real code:
  --downscale-freq-shift 1 where the model has 0 (kohya-ss/sd-scripts PR 1187)
  --fault halves-swapped: [cos | sin] concatenated before the flip, so the
    flip makes [sin | cos] (flashinfer PR 3819)
"""
import argparse
import math
import sys

import numpy as np


def angles_exact(t, n, shift, scale, max_period):
    i = np.arange(n, dtype=np.longdouble)
    w = np.exp(-np.log(np.longdouble(max_period)) * i / np.longdouble(n - shift))
    return np.longdouble(scale) * (t.astype(np.longdouble)[:, None] * w[None, :])


def angles_numpy(t, n, shift, scale, max_period):
    exponent = np.float32(-math.log(max_period)) * np.arange(n, dtype=np.float32)
    exponent = exponent / np.float32(n - shift)
    w = np.exp(exponent)
    return np.float32(scale) * (t.astype(np.float32)[:, None] * w[None, :])


def embedding_torch(t, dim, args):
    import torch

    n = dim // 2
    exponent = -math.log(args.max_period) * torch.arange(0, n, dtype=torch.float32)
    exponent = exponent / (n - args.downscale_freq_shift)
    angle = args.scale * (torch.tensor(t, dtype=torch.float32)[:, None] * torch.exp(exponent)[None, :])
    first, second = torch.sin(angle), torch.cos(angle)
    if args.fault == "halves-swapped":
        first, second = second, first
    emb = torch.cat([first, second], dim=-1)
    if args.flip_sin_to_cos:
        emb = torch.cat([emb[:, n:], emb[:, :n]], dim=-1)
    if dim % 2 == 1:
        emb = torch.nn.functional.pad(emb, (0, 1, 0, 0))
    return emb.numpy()


def embedding(rows, dim, offset, args):
    t = np.arange(offset, offset + rows, dtype=np.int64)
    n = dim // 2
    if n - args.downscale_freq_shift < 1 and n > 0:
        raise SystemExit(f"DIM {dim}: DIM // 2 - downscale_freq_shift must be at least 1")
    if args.compute == "torch":
        return embedding_torch(t, dim, args)
    make = angles_exact if args.compute == "exact" else angles_numpy
    angle = make(t, n, args.downscale_freq_shift, args.scale, args.max_period)
    first, second = np.sin(angle), np.cos(angle)
    if args.fault == "halves-swapped":
        first, second = second, first
    halves = [second, first] if args.flip_sin_to_cos else [first, second]
    out = np.zeros((rows, dim), dtype=angle.dtype)
    out[:, :n] = halves[0]
    out[:, n : 2 * n] = halves[1]
    return out.astype(np.float32)  # long double -> float32: rounded once


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rows", type=int)
    parser.add_argument("dim", type=int)
    parser.add_argument("offset", type=int)
    parser.add_argument("output")
    parser.add_argument("--flip-sin-to-cos", action="store_true")
    parser.add_argument("--downscale-freq-shift", type=int, default=1)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--max-period", type=float, default=10000.0)
    parser.add_argument("--compute", choices=["exact", "numpy", "torch"], default="exact")
    parser.add_argument("--fault", choices=["halves-swapped"])
    args = parser.parse_args(argv)
    np.save(args.output, embedding(args.rows, args.dim, args.offset, args))


if __name__ == "__main__":
    main(sys.argv[1:])
