#!/usr/bin/env python3
"""A Transformer input layer x = s * E[id] + PE[pos] computed with NumPy the way
frameworks compute it, with the embedding-scale faults of CONVENTIONS.md (fault 7),
for `pecheck validate OUTPUT --vocabulary VOCAB --ids IDS`.

  numpy_input_layer.py CONVENTION BATCH LENGTH DIM DTYPE SCALE PREFIX [--vocabulary V] [--first-position P]
      [--angles float32|float16] [--positions bfloat16|float16] [--encoding-dtype float32]

CONVENTION is a preset of numpy_tables.py (vaswani, tensor2tensor, ...). DTYPE is the
activation dtype: float64, float32, float16 or bfloat16 (the embedding table and the
encoding are held in it, as a model's weights and buffers are; bfloat16 is written as
float32 holding bfloat16 values). SCALE is
  sqrt             s = sqrt(d) as a Python float, multiplied in the framework's opmath
                   (float32 for float32, float16 and bfloat16 tensors, as PyTorch does)
  sqrt-bfloat16    s = sqrt(d) rounded to bfloat16 first (Gemma: bf16(sqrt(3072)) = 55.5)
  sqrt-float16     s = sqrt(d) rounded to float16 first
  one              sqrt(d) missing
  twice            sqrt(d) applied twice: s = d
  divided          divided by sqrt(d) instead of multiplied: s = 1 / sqrt(d)
  a number         that scale
The files written: PREFIX.output.npy (BATCH, LENGTH, DIM), PREFIX.vocab.npy (V, DIM),
PREFIX.ids.npy (BATCH, LENGTH) int64 and, with --first-position, PREFIX.positions.npy
(LENGTH,) int32 holding P..P+LENGTH-1. --angles and --positions compute the encoding
with numpy_tables.py's faults 2 and 1 (angles, or integer positions, in that format)
inside a layer whose scale is right. --encoding-dtype float32 holds the encoding in float32
rather than the activation dtype (a float32 buffer added to the narrow embedding, the sum rounded
once to the activation dtype). E is normal with standard deviation d^-0.5
(tensor2tensor's and fairseq's initialisation); the seed is fixed (20240611).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_tables  # noqa: E402

SEED = 20240611


def round_act(x, dtype):
    """Values rounded once to the activation dtype, as float64."""
    if dtype == "bfloat16":
        return numpy_tables.round_bfloat16(x)
    return np.asarray(x, dtype=np.float64).astype(numpy_tables.FLOAT[dtype]).astype(np.float64)


def scale_value(name, dim):
    root = math.sqrt(dim)
    named = {
        "sqrt": root,
        "sqrt-bfloat16": float(numpy_tables.round_bfloat16(root)),
        "sqrt-float16": float(np.float16(root)),
        "one": 1.0,
        "twice": float(dim),
        "divided": 1.0 / root,
    }
    return named[name] if name in named else float(name)


def input_layer(convention, batch, length, dim, dtype, scale, vocabulary, first, angles="longdouble",
                positions=None, encoding_dtype=None):
    rng = np.random.default_rng(SEED)
    table = round_act(rng.normal(0.0, dim**-0.5, (vocabulary, dim)), dtype)
    ids = rng.integers(0, vocabulary, (batch, length), dtype=np.int64)
    pe = round_act(numpy_tables.table(convention, length, dim, first, angles, positions), encoding_dtype or dtype)
    s = scale_value(scale, dim)
    if dtype != "float64":
        s = float(np.float32(s))  # PyTorch's opmath for float32, float16 and bfloat16 tensors is float32
    embedded = round_act(table[ids] * s, dtype)  # tensor * scalar rounds to the tensor's dtype
    # The sum of two values of a format narrower than float64 is exact in float64
    # here (their exponents are close), so this rounds once, as the add does.
    output = round_act(embedded + pe[None, :, :], dtype)
    return table, ids, output


def write(args):
    options = {"--vocabulary": "97", "--first-position": None, "--angles": "longdouble", "--positions": None,
               "--encoding-dtype": None}
    positional = []
    k = 0
    while k < len(args):
        if args[k] in options:
            options[args[k]] = args[k + 1]
            k += 2
        else:
            positional.append(args[k])
            k += 1
    convention, batch, length, dim, dtype, scale, prefix = positional
    first = int(options["--first-position"] or 0)
    table, ids, output = input_layer(convention, int(batch), int(length), int(dim), dtype, scale,
                                     int(options["--vocabulary"]), first, options["--angles"], options["--positions"],
                                     options["--encoding-dtype"])
    stored = np.float32 if dtype == "bfloat16" else numpy_tables.FLOAT[dtype]
    np.save(prefix + ".output.npy", output.astype(stored))
    np.save(prefix + ".vocab.npy", table.astype(stored))
    np.save(prefix + ".ids.npy", ids)
    if options["--first-position"] is not None:
        np.save(prefix + ".positions.npy", np.arange(first, first + int(length), dtype=np.int32))


if __name__ == "__main__":
    if len(sys.argv) < 8:
        raise SystemExit(__doc__)
    write(sys.argv[1:])
