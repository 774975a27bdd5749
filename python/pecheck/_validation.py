"""pecheck.validate and pecheck.validate_rope: arrays or tensors in, one Validation out."""

import json
import os
import sys

from . import _arrays, _observe
import numpy as np

from ._pecheck import (Validation, _validate_input_layer, _validate_rope, _validate_rotated, _validate_table,
                       _write_report, _write_rotated_report)


def _auto(value, argument):
    """None for 'auto' (detect), else a whole number >= 0."""
    if value is None or (isinstance(value, str) and value == "auto"):
        return None
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{argument}: {value!r} (expected 'auto' or a whole number >= 0)")
    value = value.__index__()
    if value < 0:
        raise ValueError(f"{argument}: {value} (expected 'auto' or a whole number >= 0)")
    return value


def _budget(value, argument):
    if value is None:
        return None
    value = float(value)
    if not (value >= 0 and value != float("inf")):
        raise ValueError(f"{argument}: {value} (expected a finite number >= 0)")
    return value


def _progress(progress):
    """None, a callable(done, total), or True for a line on stderr as the command line shows on a terminal."""
    if progress is None or progress is False:
        return None
    if progress is True:
        def line(done, total):
            sys.stderr.write(f"\rpecheck.validate: reference {done}/{total} rows")
            if done == total:
                sys.stderr.write("\r\033[K")
            sys.stderr.flush()
        return line
    if not callable(progress):
        raise TypeError(f"progress: {progress!r} (expected None, True or a callable(done, total))")
    return progress


def validate(table, convention="auto", offset="auto", max_ulp=None, max_abs_error=None, *, ulp_only=False,
             dtype=None, sample=0, name=None, threads=0, progress=None):
    """Checks an additive positional-encoding table against the correctly rounded reference.

    `table` is a NumPy array or a CPU PyTorch tensor of float64, float32, float16 or
    bfloat16, shaped (N, d), (d,), (N, 1, d), (1, N, d) or (1, 1, N, d); it is read in
    place. The arguments are those of `pecheck validate FILE`: convention and offset
    are detected unless given; max_ulp and max_abs_error are the budgets (default:
    pecheck's third-party budget of the format); ulp_only holds every entry to the ULP
    budget alone; dtype compares as that format; sample > 0 compares that many rows;
    progress (True, or a callable(done, total)) hears of the rows compared as it goes.
    Returns a Validation: str() is the command line's text, to_json() its --json.
    """
    found = _arrays.as_table(table, "table")
    if convention is not None and not isinstance(convention, str):
        raise TypeError(f"convention: {convention!r} (expected 'auto' or a convention's name)")
    result = _validate_table(
        found.array, found.format, name or _arrays.describe(table, found), found.shape_note, _progress(progress),
        None if convention in (None, "auto") else convention, _auto(offset, "offset"),
        _budget(max_ulp, "max_ulp"), _budget(max_abs_error, "max_abs_error"), bool(ulp_only), dtype,
        _auto(sample, "sample") or 0, int(threads))
    result._tables = (found,)
    return _observe.made(result)


def config_text(config, argument="config"):
    """A Hugging Face config as (JSON text, the name messages give it), from a path, a dict or a
    transformers PretrainedConfig (anything with to_dict())."""
    if isinstance(config, (str, os.PathLike)):
        with open(config, encoding="utf-8") as file:
            return file.read(), os.fspath(config)
    if isinstance(config, dict):
        return json.dumps(config), argument
    if hasattr(config, "to_dict"):
        return json.dumps(config.to_dict(), default=str), f"{argument} ({type(config).__name__})"
    raise TypeError(f"{argument}: {type(config).__name__} (expected a config.json path, a dict or a "
                    f"transformers config)")


def validate_rope(cos, sin=None, config=None, rope="auto", *, offset="auto", max_ulp=None, model="hf-float32",
                  layout=None, sequence_length=0, name=None, threads=0):
    """Checks a rotary (RoPE) cache against the correctly rounded reference and a computation model.

    `cos` and `sin` are arrays or CPU tensors (N, d) in any of the four formats; with
    sin=None, `cos` is a (2, N, d) stack of cos and sin or a complex (N, d/2)
    freqs_cis. The convention comes from `config` (a config.json path, a dict or a
    transformers config) or `rope` (a preset name; 'auto' detects it). `offset` is the
    position row 0 holds ('auto' detects it). As `pecheck validate COS --sin SIN`.
    """
    cos_table, sin_table = _arrays.rotary_tables(cos, sin)
    text, config_name = config_text(config) if config is not None else (None, "")
    if name is None:
        name = _arrays.describe(cos, cos_table) + ("" if sin is None else " + " + _arrays.describe(sin, sin_table))
    result = _validate_rope(
        cos_table.array, cos_table.format, sin_table.array, sin_table.format, name,
        None if rope in (None, "auto") else rope, text, config_name, layout, int(sequence_length),
        _auto(offset, "offset"), _budget(max_ulp, "max_ulp"), model, int(threads))
    result._tables = (cos_table, sin_table)
    result._model = model
    return _observe.made(result)


def _positions(positions):
    """POS as a 1-D int64 array (a small copy), or M-RoPE's (3, L) / (3, B, L) ids kept in their
    shape, refusing what is not whole positions."""
    array = positions.detach().cpu().numpy() if _arrays.is_torch_tensor(positions) else np.asarray(positions)
    if array.dtype.kind not in "iu":
        if array.dtype.kind != "f" or not np.all(np.isfinite(array)) or not np.all(array == np.floor(array)):
            raise TypeError(f"positions: an array of {array.dtype} (expected whole positions, integers)")
    mrope = array.ndim >= 2 and array.shape[0] == 3
    return np.ascontiguousarray(array if mrope else array.reshape(-1), dtype=np.int64), tuple(array.shape)


def validate_rotated(out, input, positions, config=None, rope="auto", *, layout=None, qkv_format=None, max_ulp=None,
                     name=None, threads=0):
    """Checks a RoPE kernel's output (rotated queries or keys) against the exact rotation of its input.

    `out` and `input` are arrays or CPU tensors of the same shape, (L, d), (L, H, d),
    (B, L, H, d), (B, H, L, d), (S, B, H, d) or packed (T, H, d), in float64, float32,
    float16 or bfloat16; they are read in place. `positions` holds the position of
    each token along the sequence axis (the one axis of its length, or the one
    `qkv_format` names: sbhd, bshd, bhsd or thd), or under M-RoPE (a config with
    mrope_section) the temporal, height and width ids, shape (3, L) or (3, B, L). The convention comes from `config`
    (a config.json path, a dict or a transformers config) or `rope` (a preset name;
    'auto' fits it from the data); `layout` (rotate-half, interleaved or complex) is
    the pairing expected. As `pecheck validate OUT --input IN --positions POS`.
    """
    out_rows, out_format, out_shape = _arrays.as_rows(out, "out")
    in_rows, in_format, in_shape = _arrays.as_rows(input, "input")
    pos, pos_shape = _positions(positions)
    text, config_name = config_text(config) if config is not None else (None, "")
    if rope is not None and not isinstance(rope, str):
        raise TypeError(f"rope: {rope!r} (expected 'auto' or a rotary preset's name)")
    if name is None:
        name = _arrays.describe(out, _arrays.Table(out_rows, out_format, out_shape, None))
    names = [name, _arrays.describe(input, _arrays.Table(in_rows, in_format, in_shape, None)),
             f"positions {pos_shape}"]
    arrays = (out_rows, out_format, list(out_shape), in_rows, in_format, list(in_shape), pos, names)
    result = _validate_rotated(arrays, None if rope in (None, "auto") else rope, text, config_name, layout, qkv_format,
                               _budget(max_ulp, "max_ulp"), int(threads))
    result._arrays = (out_rows, in_rows)  # the validation read them in place
    result._rotated = (arrays, qkv_format)  # the report's checks read them again
    return _observe.made(result)


def _float_values(x, argument):
    """(the rows of x's last axis in its format's storage, the format, the shape) of a float array or tensor,
    read in place: a bfloat16 tensor as its 16-bit patterns, nothing widened."""
    array, fmt = _arrays.storage_of(x, argument)
    if fmt == "complex":
        raise TypeError(f"{argument}: a complex array (expected float64, float32, float16 or bfloat16)")
    rows, shape = _arrays.last_axis_rows(array, argument)
    return rows, fmt, list(shape)


def _integer_input(x, argument):
    """(the values as C-ordered int64, the shape, the dtype as NumPy writes it): one per token, a small copy."""
    array = x.detach().cpu().numpy() if _arrays.is_torch_tensor(x) else np.asarray(x)
    if array.dtype.kind not in "iu":
        raise TypeError(f"{argument}: an array of {array.dtype} (expected integers)")
    return np.ascontiguousarray(array.reshape(-1), dtype=np.int64), list(array.shape), array.dtype.str


def validate_input_layer(output, vocabulary, ids, positions=None, convention="auto", max_ulp=None,
                         max_abs_error=None, *, name=None, threads=0):
    """Checks an input layer's output x = s E[id] + PE[pos] (as `pecheck validate OUTPUT --vocabulary V --ids I`).

    output is (B, L, d), (B * L, d) or (L, d); vocabulary (V, d); both arrays or CPU
    tensors of float64, float32, float16 or bfloat16, read in place (not copied or
    widened). ids (B, L) or (L,) integers; positions like ids, or (L,) for every
    sequence (default 0..L-1). The scale s is found and diagnosed, PE recovered and
    validated as a table (the Validation's parts).
    """
    output_values = _float_values(output, "output")
    vocabulary_values = _float_values(vocabulary, "vocabulary")
    position_input = None if positions is None else _integer_input(positions, "positions")
    names = ["output", "vocabulary", "ids", "the default positions" if positions is None else "positions"]
    result = _validate_input_layer(
        output_values, vocabulary_values, _integer_input(ids, "ids"), position_input, name or "input layer output",
        names, None if convention in (None, "auto") else convention, _budget(max_ulp, "max_ulp"),
        _budget(max_abs_error, "max_abs_error"), int(threads))
    result._arrays = (output_values[0], vocabulary_values[0])  # the validation read them in place
    return _observe.made(result)


def _report(validation, directory, reproduce=None):
    """Writes what `pecheck validate ... --output-dir DIR` writes for this validation into `directory`:
    validation.json and .txt, and the HTML, Markdown, JSON and JUnit report of the checks on the values.

    The directory is replaced as a whole; one that holds files pecheck did not write is refused.
    """
    if validation.kind == "rotated":  # the checks on its outputs run on the arrays it read
        held = getattr(validation, "_rotated", None)
        if held is None:
            raise ValueError("write_report: this validation holds no arrays to report on")
        arrays, qkv_format = held
        _write_rotated_report(validation, os.fspath(directory), arrays, qkv_format,
                              reproduce or f"pecheck.validate_rotated on {validation.name}")
        return
    if validation.kind == "input-layer":  # validation.json and .txt: its recovered encoding is in its parts
        _write_report(validation, os.fspath(directory), None, "", None, None, "",
                      reproduce or f"pecheck.validate_input_layer on {validation.name}")
        return
    tables = getattr(validation, "_tables", ())
    if not tables:
        raise ValueError("write_report: this validation holds no values to report on")
    sin = tables[1] if len(tables) > 1 else None
    _write_report(validation, os.fspath(directory), tables[0].array, tables[0].format,
                  None if sin is None else sin.array, None if sin is None else sin.format,
                  getattr(validation, "_model", ""), reproduce or f"pecheck.validate on {validation.name}")


Validation.write_report = _report
