"""pecheck's correctly rounded references, by name: what a test compares a kernel with.

Each entry is the exact value rounded once to the format (the oracle of `pecheck
table --impl reference` and `pecheck rope --impl reference`).
"""

from ._references import rope_cache as _rope_cache
from ._references import table as _table


def encoding(convention, rows, dim, dtype="float32", offset=0):
    """The additive table of `convention` (rows [offset, offset + rows), width dim), correctly rounded."""
    return _table(convention, rows, dim, offset=offset, dtype=dtype, impl="reference")


def rope_cache(config_or_preset, positions, dtype="float32", computation="exact", **options):
    """The rotary (cos, sin) cache at `positions`, correctly rounded (see pecheck.rope_cache)."""
    return _rope_cache(config_or_preset, positions, dtype=dtype, computation=computation, impl="reference",
                       **options)
