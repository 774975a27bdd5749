"""pecheck.validate_rotated on live tensors: a transformers-style rotary apply, correct in float32 and faulty
in bfloat16, diagnosed as the command line diagnoses the same tensors saved as files."""

import numpy as np
import pytest
import torch

import pecheck
from conftest import cli_json, without_name


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class LlamaStyleRotary(torch.nn.Module):
    """transformers' Llama rotary embedding and apply_rotary_pos_emb: a float32 cos/sin cache of
    inv_freq x positions, cast to the activation's dtype, then q*cos + rotate_half(q)*sin there.

    With cache_dtype, the cache is built once and kept in that dtype (as older versions'
    cos_cached buffers were after model.to(dtype)), and the rotation runs in float32 on it:
    cos and sin held in bfloat16 before the rotation.
    """

    def __init__(self, dim=128, base=10000.0, cache_dtype=None):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self.cache_dtype = cache_dtype

    def forward(self, q, position_ids):  # q: (B, L, H, d)
        freqs = position_ids[:, :, None].float() * self.inv_freq[None, None, :]
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos()[:, :, None, :], emb.sin()[:, :, None, :]
        if self.cache_dtype is None:
            cos, sin = cos.to(q.dtype), sin.to(q.dtype)
            return q * cos + rotate_half(q) * sin
        cos, sin = cos.to(self.cache_dtype).float(), sin.to(self.cache_dtype).float()
        x = q.float()
        return (x * cos + rotate_half(x) * sin).to(q.dtype)


def queries(dtype, length=256, heads=4, first=3000, seed=3):
    generator = torch.Generator().manual_seed(seed)
    q = torch.randn(1, length, heads, 128, generator=generator).to(dtype)
    return q, torch.arange(first, first + length, dtype=torch.int64)


def as_file_values(tensor):
    """What the command line reads: NumPy has no bfloat16, so bfloat16 is saved as float32 holding its values."""
    return tensor.float().numpy() if tensor.dtype == torch.bfloat16 else tensor.numpy()


def cli_document(tmp_path, out, q, positions, *options):
    np.save(tmp_path / "out.npy", as_file_values(out))
    np.save(tmp_path / "in.npy", as_file_values(q))
    np.save(tmp_path / "pos.npy", positions.numpy())
    return cli_json("validate", tmp_path / "out.npy", "--input", tmp_path / "in.npy", "--positions",
                    tmp_path / "pos.npy", *options)


def apply(module, q, positions):
    with torch.no_grad():
        return module(q, positions[None])


def test_a_transformers_style_rotation_in_float32_conforms_as_on_the_command_line(tmp_path):
    q, positions = queries(torch.float32)
    out = apply(LlamaStyleRotary(), q, positions)
    result = pecheck.validate_rotated(out, q, positions, rope="llama2")
    document = cli_document(tmp_path, out, q, positions, "--rope", "llama2")
    assert result.verdict == document["verdict"] == "conforms", str(result)
    assert result.kind == "rotated"
    assert result.layout == "rotate-half"
    assert without_name(result.to_dict()) == without_name(document)


def test_a_bfloat16_cos_sin_cache_is_diagnosed_as_the_command_line_diagnoses_it(tmp_path):
    q, positions = queries(torch.bfloat16)
    out = apply(LlamaStyleRotary(cache_dtype=torch.bfloat16), q, positions)
    result = pecheck.validate_rotated(out, q, positions, rope="llama2")
    document = cli_document(tmp_path, out, q, positions, "--rope", "llama2")
    assert result.verdict == document["verdict"] == "deviates", str(result)
    assert [h.kind for h in result.hazards] == [h["kind"] for h in document["hazards"]]
    assert "cache-precision" in [h.kind for h in result.hazards], str(result)
    assert without_name(result.to_dict()) == without_name(document)


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.float16, torch.bfloat16])
def test_every_format_is_read_in_place_and_gives_the_command_lines_verdict(tmp_path, dtype):
    q, positions = queries(dtype, length=128)
    out = apply(LlamaStyleRotary(), q, positions)
    result = pecheck.validate_rotated(out, q, positions, rope="llama2")
    document = cli_document(tmp_path, out, q, positions, "--rope", "llama2")
    assert result.verdict == document["verdict"], str(result)
    # The rows handed over share the tensor's memory: nothing was copied.
    rows = result._arrays[0]
    assert rows.__array_interface__["data"][0] == out.data_ptr()


def test_the_sequence_axis_is_named_and_bad_inputs_are_refused_naming_the_argument():
    q, positions = queries(torch.float32, length=4, heads=4)
    out = apply(LlamaStyleRotary(), q, positions)
    with pytest.raises(ValueError, match="qkv-format"):
        pecheck.validate_rotated(out, q, positions, rope="llama2")  # axes 1 and 2 both have 4 entries
    assert pecheck.validate_rotated(out, q, positions, rope="llama2", qkv_format="bshd").verdict in (
        "conforms", "deviates", "unknown")
    with pytest.raises(ValueError, match="qkv_format"):
        pecheck.validate_rotated(out, q, positions, qkv_format="sbdh")
    with pytest.raises(TypeError, match="positions"):
        pecheck.validate_rotated(out, q, positions.float() + 0.5)
    with pytest.raises(TypeError, match="input"):
        pecheck.validate_rotated(out, q.to(torch.int32), positions)
    with pytest.raises(ValueError, match="same shape"):
        pecheck.validate_rotated(out, q[:, :, :2], positions)


def test_a_rotated_validation_writes_its_report(tmp_path):
    q, positions = queries(torch.float32, length=64)
    out = apply(LlamaStyleRotary(), q, positions)
    result = pecheck.validate_rotated(out, q, positions, rope="llama2")
    result.write_report(tmp_path / "report")
    text = (tmp_path / "report" / "validation.txt").read_text()
    assert "keeps its norm" in text and "depends on m - n alone" in text
