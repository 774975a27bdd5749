"""The references a kernel suite can call instead of its own: pecheck.table and pecheck.rope_cache.

impl="reference" (the default) is correctly rounded: every entry is the exact value
rounded once to the format. impl="fast" is pecheck's fast path (within the budgets
`pecheck table --help` states). NumPy has no bfloat16: a bfloat16 table comes back as
float32 holding the bfloat16 values exactly (torch.from_numpy(a).bfloat16() is exact),
as `pecheck table` writes .npy.
"""

import os

import numpy as np

from ._pecheck import _rope_cache, _table, rotary_presets
from ._validation import config_text


def table(convention, rows, dim, offset=0, dtype="float32", impl="reference", *, threads=0):
    """Rows [offset, offset + rows) of the convention's table of width dim, as `pecheck table` writes them."""
    return _table(convention, int(rows), int(dim), int(offset), dtype, impl, int(threads))


def _position_runs(positions):
    """positions as (first, count) runs of consecutive positions."""
    if isinstance(positions, range):
        if positions.step != 1:
            positions = list(positions)
        else:
            return [(positions.start, len(positions))]
    elif isinstance(positions, (int, np.integer)) and not isinstance(positions, bool):
        return [(0, int(positions))]
    p = np.asarray(positions)
    if p.ndim != 1 or p.size == 0 or p.dtype.kind not in "iu":
        raise ValueError(f"positions: {positions!r} (expected a count N for positions 0..N-1, a range, or a 1-D "
                         f"array of whole numbers)")
    p = p.astype(np.int64)
    breaks = np.flatnonzero(np.diff(p) != 1) + 1
    starts = np.concatenate(([0], breaks))
    ends = np.concatenate((breaks, [p.size]))
    return [(int(p[s]), int(e - s)) for s, e in zip(starts, ends)]


def rope_cache(config_or_preset, positions, dtype="float32", computation="exact", impl="reference", *, layout=None,
               sequence_length=0, threads=0):
    """The (cos, sin) cache at `positions` (N: 0..N-1; a range; or an array of positions, row by row).

    config_or_preset: a rotary preset's name, a config.json path, a dict or a
    transformers config. computation: "exact" (the encoding itself) or a computation
    model ("hf-float32": what transformers computes in float32), as `pecheck rope`.
    """
    if isinstance(config_or_preset, str) and config_or_preset in rotary_presets():
        preset, text, config_name = config_or_preset, None, ""
    elif isinstance(config_or_preset, (str, os.PathLike)) and not os.path.exists(config_or_preset):
        raise ValueError(f"config_or_preset: '{os.fspath(config_or_preset)}' is neither a rotary preset "
                         f"(pecheck.rotary_presets() lists them) nor a file")
    else:
        preset = None
        text, config_name = config_text(config_or_preset, "config_or_preset")
    blocks = [_rope_cache(preset, text, config_name, layout, int(sequence_length), first, count, dtype,
                          computation, impl, int(threads))
              for first, count in _position_runs(positions)]
    if len(blocks) == 1:
        return blocks[0]
    return np.concatenate([b[0] for b in blocks]), np.concatenate([b[1] for b in blocks])
