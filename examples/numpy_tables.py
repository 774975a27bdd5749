#!/usr/bin/env python3
"""Sinusoidal positional-encoding tables written with NumPy, the way public
implementations compute them, for `pecheck validate`.

  numpy_tables.py CONVENTION ROWS DIM OFFSET DTYPE OUTPUT [--angles F] [--positions F] [--noise]
  numpy_tables.py --batch FILE     one set of the arguments above per line, or
                                   "input-layer ARGS" for numpy_input_layer.py ARGS
  numpy_tables.py --serve CONVENTION [--angles F] [--positions F] [--noise]
                                   answer --exec-protocol lines requests
                                   (ROWS DIM OFFSET DTYPE OUTPUT per stdin line)

CONVENTION is one of pecheck's presets (vaswani, tf-tutorial, tensor2tensor,
fairseq, musicgen, marian-hf; the relative transformer-xl, espnet-rel, nemo-rel
and speechbrain-rel, built as relative_tables.py says, OFFSET 0) or pytorch-tutorial (vaswani computed as the
PyTorch tutorial does: frequencies, positions and angles in float32). Row r of
the table holds the convention's row r + OFFSET. DTYPE is float64, float32,
float16 or bfloat16 (NumPy has no bfloat16: it is written as float32 holding
bfloat16 values, rounded once from float64). OUTPUT is a .npy file.

Unless a fault is asked for, angles p * w are computed in long double (64-bit
significand on x86) and each value is rounded once to DTYPE: a table within
pecheck's third-party ULP budget at every position below 2^24. `--angles
float64` computes them as ordinary float64 code does: p * w's own rounding,
about p 2^-53, is many ULP of any value near a zero of sin, so such a table
conforms by pecheck's float64-angle bound instead, not by the ULP budget.
Faults seen in real code (CONVENTIONS.md, "Numeric faults seen in real code"):
  --angles float32|float16   frequencies, positions and p * w in that format
  --angles bfloat16          the same in bfloat16, as a module cast with .to(torch.bfloat16)
                             computes them: frequencies in float32 rounded to bfloat16,
                             positions `t.type_as(inv_freq)` and the product rounded to bfloat16
  (--angles float64 is not a fault: see above)
  --positions bfloat16|float16  integer positions rounded to that format first
  --noise                    a random normal table (a table overwritten by initialisation)
  --buffer n1d|1nd|11nd      saved as a registered buffer is: (N, 1, D), (1, N, D) or (1, 1, N, D)
  --scale sqrt-d|inv-sqrt-d|S  the table times sqrt(D), 1/sqrt(D) or S (NeMo's xscale, sockeye's
                             scale-down, x-transformers' ScaledSinusoidalEmbedding), rounded once

It doubles as an --exec command, started per table or once:
  pecheck validate --exec 'python3 numpy_tables.py vaswani {rows} {dim} {offset} {dtype} {output}' --convention vaswani
  pecheck validate --exec 'python3 numpy_tables.py --serve vaswani' --exec-protocol lines --convention vaswani
"""
import math
import shlex
import sys

import numpy as np

import relative_tables

PRESETS = {
    # name: (layout, rule, odd-width policy, zero rows)
    "vaswani": ("interleaved", "paper", "extra-sin", ()),
    "tf-tutorial": ("sin-cos", "paper", "reject", ()),
    "tensor2tensor": ("sin-cos", "timescale", "zero-column", ()),
    "fairseq": ("sin-cos", "timescale", "zero-column", (1,)),  # padding_idx 1
    "musicgen": ("cos-sin", "timescale", "zero-column", ()),
    "marian-hf": ("sin-cos", "paper", "extra-sin", ()),
    "pytorch-tutorial": ("interleaved", "paper", "extra-sin", ()),
}
FLOAT = {"longdouble": np.longdouble, "float64": np.float64, "float32": np.float32, "float16": np.float16}


def round_bfloat16(x):
    """-> nearest bfloat16 (ties to even), rounded once, as float64."""
    x = np.asarray(x, dtype=np.longdouble)
    mantissa, exponent = np.frexp(x)  # x = mantissa * 2^exponent, 0.5 <= |mantissa| < 1
    return np.ldexp(np.rint(mantissa * 256), exponent - 8).astype(np.float64)  # 8 significant bits


def round_to(x, dtype):
    """Rounded once from long double (NumPy's long double -> float16 goes through
    float64, a second rounding that can only matter exactly at a tie)."""
    if dtype == "bfloat16":
        return round_bfloat16(x).astype(np.float32)
    return np.asarray(x, dtype=np.longdouble).astype(FLOAT[dtype])


def frequencies(rule, count, dim, n, ftype):
    """w_i for i < count, computed in ftype as the implementations do."""
    i = np.arange(count, dtype=ftype)
    # ln 10000 as the implementations hold it (a Python float), or in full
    # long double precision when long double is asked for.
    log_base = np.log(np.longdouble(10000.0)) if ftype == np.longdouble else math.log(10000.0)
    if rule == "paper":  # base^(-2i/d), the PyTorch tutorial's exp(2i * -(ln 10000 / d))
        return np.exp(i * ftype(2.0) * ftype(-log_base / dim))
    return np.exp(i * ftype(-log_base / max(n - 1, 1)))  # tensor2tensor / fairseq


def table(name, rows, dim, offset, angles="longdouble", positions=None):
    if name in relative_tables.NAMES:
        if offset != 0:
            raise SystemExit(f"{name}: a relative table starts at its own first row (OFFSET 0, got {offset})")
        return relative_tables.table(name, rows, dim, angles, positions)
    layout, rule, odd, zero_rows = PRESETS[name]
    if name == "pytorch-tutorial":
        angles = "float32"
    if dim % 2 == 1 and odd == "reject":
        raise SystemExit(f"{name} rejects odd widths (d = {dim})")
    n = dim // 2
    extra = dim % 2 == 1 and odd == "extra-sin"
    count = n + 1 if extra else n
    p = np.arange(offset, offset + rows, dtype=np.float64)
    if positions == "bfloat16" or angles == "bfloat16":
        p = round_bfloat16(p)
    elif positions is not None:
        p = p.astype(FLOAT[positions]).astype(np.float64)
    n_rule = count if rule == "timescale" else n
    if angles == "bfloat16":  # every operand and the product rounded to bfloat16
        w = round_bfloat16(frequencies(rule, count, dim, n_rule, np.float32))
        theta = round_bfloat16(p[:, None] * w[None, :])
    else:
        ftype = FLOAT[angles]
        theta = p.astype(ftype)[:, None] * frequencies(rule, count, dim, n_rule, ftype)[None, :]
    s = np.sin(theta)
    c = np.cos(theta[:, :n])
    out = np.zeros((rows, dim), dtype=np.longdouble)
    if layout == "interleaved":
        out[:, 0 : 2 * n : 2] = s[:, :n]
        out[:, 1 : 2 * n : 2] = c
        if extra:
            out[:, dim - 1] = s[:, n]
    elif layout == "sin-cos":
        out[:, :count] = s
        out[:, count : count + n] = c
    else:
        out[:, :n] = c
        out[:, n : n + count] = s
    for row in zero_rows:
        if offset <= row < offset + rows:
            out[row - offset, :] = 0.0
    return out


def write(args):
    if args and args[0] == "input-layer":  # a batch line for numpy_input_layer.py
        import numpy_input_layer

        numpy_input_layer.write(args[1:])
        return
    options = {}
    positional = []
    k = 0
    while k < len(args):
        if args[k] == "--noise":
            options["noise"] = True
        elif args[k] in ("--angles", "--positions", "--buffer", "--scale"):
            options[args[k][2:]] = args[k + 1]
            k += 1
        else:
            positional.append(args[k])
        k += 1
    name, rows, dim, offset, dtype, output = positional
    rows, dim, offset = int(rows), int(dim), int(offset)
    if options.get("noise"):
        values = np.random.default_rng(20240611).standard_normal((rows, dim))
    else:
        values = table(name, rows, dim, offset, options.get("angles", "longdouble"), options.get("positions"))
    scale = options.get("scale")
    if scale is not None:
        factor = {"sqrt-d": np.sqrt(np.longdouble(dim)), "inv-sqrt-d": 1 / np.sqrt(np.longdouble(dim))}
        values = values * (factor[scale] if scale in factor else np.longdouble(scale))
    values = round_to(values, dtype)
    buffer = options.get("buffer")
    if buffer is not None:
        values = {"n1d": values[:, None, :], "1nd": values[None], "11nd": values[None, None]}[buffer]
    np.save(output, values)


def main(argv):
    if len(argv) >= 2 and argv[0] == "--serve":
        import exec_protocol

        name, options = argv[1], argv[2:]
        exec_protocol.serve(
            lambda rows, dim, offset, dtype, output: write([name, str(rows), str(dim), str(offset), dtype, output] + options)
        )
        return
    if len(argv) == 2 and argv[0] == "--batch":
        with open(argv[1]) as lines:
            for line in lines:
                if line.strip():
                    write(shlex.split(line))
        return
    if len(argv) < 6:
        raise SystemExit(__doc__)
    write(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
