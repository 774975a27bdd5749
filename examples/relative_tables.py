"""Relative sinusoidal tables, whose rows run down from position L-1, built
the way each public implementation builds them (numpy_tables.py's relative
conventions). Each is given its table's row count: Transformer-XL's L rows
hold L-1 down to 0; ESPnet's, NeMo's and SpeechBrain's 2L-1 rows hold L-1
down to -(L-1). Every one uses the paper's frequencies; odd widths give the
originals a shape error, so they are refused here.

`angles` is the precision of the frequencies, positions and products:
"longdouble" (exact enough: the correct table), or "float32" / "float16" as
the originals compute them (torch.float32 by default). `positions`, when
given, rounds the integer positions to that format first (fault 1).
"""
import math

import numpy as np

FLOAT = {"longdouble": np.longdouble, "float64": np.float64, "float32": np.float32, "float16": np.float16}
NAMES = ("transformer-xl", "espnet-rel", "nemo-rel", "speechbrain-rel")


def _round_bfloat16(x):
    x = np.asarray(x, dtype=np.longdouble)
    mantissa, exponent = np.frexp(x)
    return np.ldexp(np.rint(mantissa * 256), exponent - 8).astype(np.float64)


def _held(p, positions):
    """Integer positions as float64, rounded to `positions` when given."""
    p = np.asarray(p, dtype=np.float64)
    if positions == "bfloat16":
        return _round_bfloat16(p)
    if positions is not None:
        return p.astype(FLOAT[positions]).astype(np.float64)
    return p


def _div_term(dim, ftype):
    """ESPnet, NeMo, SpeechBrain: exp(arange(0, d, 2) * -(ln 10000 / d))."""
    log_base = np.log(np.longdouble(10000.0)) if ftype == np.longdouble else math.log(10000.0)
    return np.exp(np.arange(0, dim, 2, dtype=ftype) * ftype(-log_base / dim))


def _inv_freq_xl(dim, ftype):
    """Transformer-XL: 1 / (10000 ** (arange(0.0, d, 2.0) / d))."""
    return ftype(1) / (ftype(10000.0) ** (np.arange(0.0, dim, 2.0, dtype=ftype) / ftype(dim)))


def _interleaved(sin, cos):
    out = np.zeros((sin.shape[0], 2 * sin.shape[1]), dtype=np.longdouble)
    out[:, 0::2] = sin
    out[:, 1::2] = cos
    return out


def table(name, rows, dim, angles="longdouble", positions=None):
    if dim % 2 == 1:
        raise SystemExit(f"{name}: odd widths are a shape error in the original (d = {dim})")
    ftype = FLOAT[angles]
    if name == "transformer-xl":
        # pos_seq = arange(klen-1, -1, -1.0); sinusoid_inp = ger(pos_seq, inv_freq); cat([sin, cos], -1)
        pos_seq = _held(np.arange(rows - 1, -1, -1.0), positions).astype(ftype)
        theta = np.outer(pos_seq, _inv_freq_xl(dim, ftype)).astype(ftype)
        return np.concatenate([np.sin(theta), np.cos(theta)], axis=1).astype(np.longdouble)
    if rows % 2 == 0:
        raise SystemExit(f"{name}: a table for length L has 2L-1 rows (got {rows}, expected an odd count)")
    length = (rows + 1) // 2
    div_term = _div_term(dim, ftype)
    if name == "nemo-rel":
        # positions = arange(L-1, -L, -1); pe[:, 0::2] = sin(positions * div_term), pe[:, 1::2] = cos(...)
        p = _held(np.arange(length - 1, -length, -1), positions).astype(ftype)[:, None]
        theta = (p * div_term).astype(ftype)
        return _interleaved(np.sin(theta), np.cos(theta))
    position = _held(np.arange(0, length), positions).astype(ftype)[:, None]
    theta = (position * div_term).astype(ftype)
    if name == "espnet-rel":
        # pe_positive from position, pe_negative from -1 * position; cat(flip(pe_positive), pe_negative[1:])
        positive = _interleaved(np.sin(theta), np.cos(theta))
        negative_theta = (ftype(-1) * position * div_term).astype(ftype)
        negative = _interleaved(np.sin(negative_theta), np.cos(negative_theta))
        return np.concatenate([positive[::-1], negative[1:]], axis=0)
    if name == "speechbrain-rel":
        # pe_past: sin, cos interleaved; pe_future: -sin, the same cos; cat(flip(pe_past), pe_future[1:])
        sinusoids = np.sin(theta)
        past = _interleaved(sinusoids, np.cos(theta))
        future = _interleaved(-sinusoids, np.cos(theta))
        return np.concatenate([past[::-1], future[1:]], axis=0)
    raise SystemExit(f"unknown relative convention {name}")
