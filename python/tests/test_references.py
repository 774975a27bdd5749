"""pecheck.table and pecheck.rope_cache give `pecheck table` and `pecheck rope`'s values, bit for bit."""

import numpy as np
import pytest

import pecheck
from conftest import cli

FORMATS = ["float64", "float32", "float16", "bfloat16"]


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("impl", ["reference", "fast"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_table_is_what_pecheck_table_writes(tmp_path, fmt, impl):
    path = tmp_path / "pe.npy"
    cli("table", "--convention", "vaswani", "--rows", 200, "--dim", 64, "--offset", 7, "--dtype", fmt,
        "--impl", impl, "--output", path, expect=(0,))
    assert same_bits(pecheck.table("vaswani", 200, 64, offset=7, dtype=fmt, impl=impl), np.load(path))


def test_a_relative_convention_follows_the_tables_length_as_pecheck_table_does(tmp_path):
    path = tmp_path / "pe.npy"
    cli("table", "--convention", "transformer-xl", "--rows", 50, "--dim", 16, "--offset", 3, "--impl", "reference",
        "--output", path, expect=(0,))
    assert same_bits(pecheck.table("transformer-xl", 50, 16, offset=3), np.load(path))


def test_reference_encoding_is_the_correctly_rounded_table():
    assert same_bits(pecheck.reference.encoding("tensor2tensor", 33, 10, dtype="float16"),
                     pecheck.table("tensor2tensor", 33, 10, dtype="float16", impl="reference"))


@pytest.mark.parametrize("computation", ["exact", "hf-float32"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_rope_cache_is_what_pecheck_rope_writes(tmp_path, fmt, computation):
    if computation != "exact" and fmt == "float64":
        fmt = "float32"
    cos_path, sin_path = tmp_path / "cos.npy", tmp_path / "sin.npy"
    cli("rope", "--preset", "llama3.1", "--rows", 96, "--first-position", 4000, "--dtype", fmt, "--computation",
        computation, "--impl", "reference", "--cos", cos_path, "--sin", sin_path, expect=(0,))
    cos, sin = pecheck.reference.rope_cache("llama3.1", range(4000, 4096), dtype=fmt, computation=computation)
    assert same_bits(cos, np.load(cos_path)) and same_bits(sin, np.load(sin_path))


def test_rope_cache_from_a_config_is_what_pecheck_rope_writes_from_it(tmp_path):
    config = {"rope_theta": 500000.0, "hidden_size": 4096, "num_attention_heads": 32,
              "max_position_embeddings": 8192}
    path = tmp_path / "config.json"
    path.write_text(__import__("json").dumps(config))
    cli("rope", "--config", path, "--rows", 40, "--impl", "reference", "--cos", tmp_path / "c.npy", "--sin",
        tmp_path / "s.npy", expect=(0,))
    for given in (config, str(path)):
        cos, sin = pecheck.rope_cache(given, 40)
        assert same_bits(cos, np.load(tmp_path / "c.npy")) and same_bits(sin, np.load(tmp_path / "s.npy"))


def test_rope_cache_at_scattered_positions_holds_each_positions_row():
    positions = np.array([5, 6, 7, 100, 3, 4])
    cos, sin = pecheck.rope_cache("llama2", positions)
    full_cos, full_sin = pecheck.rope_cache("llama2", 101)
    assert same_bits(cos, full_cos[positions]) and same_bits(sin, full_sin[positions])


def test_bad_reference_requests_are_refused_naming_the_argument():
    with pytest.raises(ValueError, match="convention: 'nope'"):
        pecheck.table("nope", 4, 4)
    with pytest.raises(ValueError, match="impl: 'slow'"):
        pecheck.table("vaswani", 4, 4, impl="slow")
    with pytest.raises(ValueError, match="config_or_preset: 'nope' is neither a rotary preset"):
        pecheck.rope_cache("nope", 4)
    with pytest.raises(ValueError, match="computation: 'float8'"):
        pecheck.rope_cache("llama2", 4, computation="float8")
    with pytest.raises(ValueError, match="positions: "):
        pecheck.rope_cache("llama2", [1.5, 2.5])
