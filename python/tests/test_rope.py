"""pecheck.validate_rope on live tensors gives the command line's result on the same caches."""

import numpy as np
import pytest
import torch

import pecheck
from conftest import cli_json, without_name, write_safetensors


class RotaryEmbedding(torch.nn.Module):
    """A rotary module written as transformers' Llama rotary embedding computes its cache."""

    def __init__(self, dim=128, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, x, position_ids):
        inv_freq = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        freqs = (inv_freq @ position_ids[:, None, :].float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)


def module_cache(module, dtype, rows=2048):
    with torch.no_grad():
        cos, sin = module(torch.zeros(1, dtype=dtype), torch.arange(rows)[None])
    return cos[0], sin[0]


def save(path, tensor):
    if tensor.dtype == torch.bfloat16:
        write_safetensors(path.with_suffix(".safetensors"), "cache", tensor.view(torch.int16).numpy().view(np.uint16),
                          "BF16")
        return path.with_suffix(".safetensors")
    np.save(path.with_suffix(".npy"), tensor.numpy())
    return path.with_suffix(".npy")


def cli_document(tmp_path, cos, sin, *options):
    return cli_json("validate", save(tmp_path / "cos", cos), "--sin", save(tmp_path / "sin", sin), *options)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_a_rotary_module_gives_the_command_lines_result(tmp_path, dtype):
    cos, sin = module_cache(RotaryEmbedding(), dtype)
    result = pecheck.validate_rope(cos, sin, rope="llama2")
    document = cli_document(tmp_path, cos, sin, "--rope", "llama2")
    assert without_name(result.to_dict()) == without_name(document)
    assert result.verdict == document["verdict"]


def test_a_module_cast_to_bfloat16_is_diagnosed_as_the_command_line_diagnoses_it(tmp_path):
    module = RotaryEmbedding().to(torch.bfloat16)  # the inv_freq buffer is rounded to bfloat16 too
    cos, sin = module_cache(module, torch.bfloat16)
    result = pecheck.validate_rope(cos, sin, rope="llama2")
    document = cli_document(tmp_path, cos, sin, "--rope", "llama2")
    assert result.verdict == document["verdict"] == "deviates"
    assert [h.kind for h in result.hazards] == [h["kind"] for h in document["hazards"]]
    assert "inv-freq-precision" in [h.kind for h in result.hazards]


@pytest.mark.parametrize("fmt", ["float64", "float32", "float16", "bfloat16"])
def test_the_reference_cache_conforms_in_every_format(fmt):
    cos, sin = pecheck.reference.rope_cache("llama3.1", range(100, 612), dtype=fmt)
    dtype = {"float64": torch.float64, "float32": torch.float32, "float16": torch.float16,
             "bfloat16": torch.bfloat16}[fmt]
    result = pecheck.validate_rope(torch.from_numpy(cos).to(dtype), torch.from_numpy(sin).to(dtype), rope="llama3.1")
    assert result.verdict == "conforms", str(result)
    assert result.offset == 100


def test_a_stack_and_a_complex_freqs_cis_read_as_their_two_tables():
    cos, sin = pecheck.reference.rope_cache("llama2", 256, dtype="float32")
    apart = pecheck.validate_rope(cos, sin).to_dict()
    stacked = pecheck.validate_rope(np.stack([cos, sin])).to_dict()
    assert without_name(stacked) == without_name(apart)
    half = cos.shape[1] // 2  # the complex layout holds each frequency once
    freqs_cis = torch.complex(torch.from_numpy(cos[:, :half]), torch.from_numpy(sin[:, :half]))
    complex_result = pecheck.validate_rope(freqs_cis)
    assert complex_result.layout == "complex"


class PretrainedConfig:
    """Stands for a transformers config: pecheck reads it through to_dict()."""

    def to_dict(self):
        return {"rope_theta": 10000.0, "hidden_size": 4096, "num_attention_heads": 32}


@pytest.mark.parametrize("config", [PretrainedConfig().to_dict(), PretrainedConfig()])
def test_a_config_names_the_convention(config):
    cos, sin = pecheck.reference.rope_cache("llama2", 64)
    result = pecheck.validate_rope(cos, sin, config=config)
    assert result.verdict == "conforms"
    # A wrong rope_theta in the config is what the cache is held to, and it deviates.
    wrong = dict(PretrainedConfig().to_dict(), rope_theta=500000.0)
    assert pecheck.validate_rope(cos, sin, config=wrong).verdict == "deviates"


def test_bad_caches_are_refused_naming_the_argument():
    cos, sin = pecheck.reference.rope_cache("llama2", 8)
    with pytest.raises(ValueError, match=r"cos: shape \(8, 128\) with no sin table"):
        pecheck.validate_rope(cos)
    with pytest.raises(ValueError, match=r"rope: 'nope' is not a rotary preset"):
        pecheck.validate_rope(cos, sin, rope="nope")
    with pytest.raises(TypeError, match=r"sin: an array of int64"):
        pecheck.validate_rope(cos, np.zeros((8, 128), dtype=np.int64))
    with pytest.raises(TypeError, match=r"config: int"):
        pecheck.validate_rope(cos, sin, config=3)
