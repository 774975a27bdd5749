#!/usr/bin/env python3
"""Rotary (RoPE) cos and sin caches built in PyTorch the way Hugging Face's
LlamaRotaryEmbedding builds them, for `pecheck validate --rope PRESET --exec`
(needs torch and numpy; Debian 12: apt-get install python3-torch, then
/usr/bin/python3).

  torch_rope.py [--base B] [--fault F] ROWS DIM OFFSET DTYPE OUTPUT
  torch_rope.py [--base B] [--fault F] --serve   answer --exec-protocol lines requests
                                                 (ROWS DIM OFFSET DTYPE OUTPUT per stdin line)

Row r holds position OFFSET + r; DIM is the rotary width d (head_dim times the
rotary fraction). The computation follows CONVENTIONS.md ("Rotary encodings"):
inv_freq = 1 / base ** (arange(0, d, 2).float() / d) in float32, the angles
inv_freq @ positions in float32 (autocast off), emb = cat(freqs, freqs) (the
rotate-half layout), cos and sin times attention_scaling (1 for the default
rope type), then cast to DTYPE. OUTPUT gets one (2, ROWS, DIM) array, cos then
sin (bfloat16 is saved as float32 holding the bfloat16 values: NumPy has none).
Only the default rope type (no rope_scaling) is written here: --base is
rope_theta (10000, Llama 2's, by default).

--fault F writes a faulty cache instead, as real code has (CONVENTIONS.md):
  bfloat16-positions  position_ids held in bfloat16 (candle PR 3520)
  float16-angles      the angles rounded to float16 (gpt-neox issue 1003)

As --exec commands:
  pecheck validate --rope llama2 --exec 'python3 torch_rope.py {rows} {dim} {offset} {dtype} {output}'
  pecheck validate --rope llama2 --exec 'python3 torch_rope.py --serve' --exec-protocol lines
"""
import argparse
import sys

import numpy as np
import torch


def rope_cache(rows, dim, offset, base, fault):
    """cos and sin, each (rows, dim) float32, of positions offset .. offset + rows - 1."""
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
    positions = torch.arange(offset, offset + rows, dtype=torch.int64)
    if fault == "bfloat16-positions":
        positions = positions.to(torch.bfloat16)
    # The angles as one float32 matrix product, (d/2, 1) @ (1, rows), each
    # entry one rounded product p * inv_freq_i, transposed to (rows, d/2).
    freqs = (inv_freq[:, None] @ positions[None, :].float()).T
    if fault == "float16-angles":
        freqs = freqs.to(torch.float16).float()
    emb = torch.cat((freqs, freqs), dim=-1)
    attention_scaling = 1.0
    return emb.cos() * attention_scaling, emb.sin() * attention_scaling


def write_cache(rows, dim, offset, dtype, output, base, fault):
    rows, dim, offset = int(rows), int(dim), int(offset)
    if dim % 2 != 0:
        raise ValueError(f"DIM {dim}: the rotary width must be even")
    cos, sin = rope_cache(rows, dim, offset, base, fault)
    stacked = torch.stack((cos, sin)).to(getattr(torch, dtype))
    if dtype == "bfloat16":
        stacked = stacked.to(torch.float32)  # exact: NumPy has no bfloat16
    np.save(output, stacked.numpy())


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=float, default=10000.0)
    parser.add_argument("--fault", choices=["bfloat16-positions", "float16-angles"])
    parser.add_argument("--serve", action="store_true")
    parser.add_argument("request", nargs="*", metavar="ROWS DIM OFFSET DTYPE OUTPUT")
    args = parser.parse_args(argv)

    def write(rows, dim, offset, dtype, output):
        write_cache(rows, dim, offset, dtype, output, args.base, args.fault)

    if args.serve:
        if args.request:
            parser.error("--serve reads its requests from stdin: give no ROWS DIM OFFSET DTYPE OUTPUT")
        import exec_protocol

        exec_protocol.serve(write)
        return
    if len(args.request) != 5:
        parser.error("expected ROWS DIM OFFSET DTYPE OUTPUT")
    write(*args.request)


if __name__ == "__main__":
    main(sys.argv[1:])
