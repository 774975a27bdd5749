"""pecheck in Python: validate positional-encoding tables and rotary caches held in
NumPy arrays or PyTorch tensors against pecheck's correctly rounded reference, and
use that reference in your own tests.

    import pecheck
    result = pecheck.validate(pe)            # one Validation; print(result) is the CLI's text
    cos, sin = pecheck.rope_cache("llama3.1", 4096)
    pecheck.testing.assert_rope_close((my_cos, my_sin), rope="llama3.1")
"""

from ._pecheck import Comparison, Entry, Hazard, Validation, computation_models, conventions, rotary_presets
from ._references import rope_cache, table
from ._validation import validate, validate_input_layer, validate_rope, validate_rotated
from . import reference, testing
from .testing import assert_conforms, assert_encoding_close, assert_rope_close
from ._loading import load
from ._module import validate_module

__all__ = [
    "Validation", "Comparison", "Entry", "Hazard",
    "validate", "validate_rope", "validate_rotated", "validate_input_layer", "validate_module",
    "table", "rope_cache", "reference",
    "testing", "assert_conforms", "assert_encoding_close", "assert_rope_close",
    "load", "conventions", "rotary_presets", "computation_models",
]
