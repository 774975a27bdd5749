"""pecheck.validate_rotated on live tensors: a transformers-style rotary apply, correct in float32 and faulty
in bfloat16, diagnosed as the command line diagnoses the same tensors saved as files."""

import json
import re

import numpy as np
import pytest
import torch

import pecheck
from conftest import cli, cli_json, without_name


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class LlamaStyleRotary(torch.nn.Module):
    """transformers' Llama rotary embedding and apply_rotary_pos_emb: float32 angles position x inv_freq
    (the buffer read with .float()), cos and sin cast to the activation's dtype, then
    q*cos + rotate_half(q)*sin there.

    Correct in float32, and in bfloat16 as transformers' own computation (the hf-cast-cache model).
    After module.to(torch.bfloat16) the inv_freq buffer itself is rounded to bfloat16, and .float()
    cannot bring its digits back: every angle is off by up to 2^-9 relative.
    """

    def __init__(self, dim=128, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, q, position_ids):  # q: (B, L, H, d)
        freqs = position_ids[:, :, None].float() * self.inv_freq.float()[None, None, :]
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos()[:, :, None, :].to(q.dtype), emb.sin()[:, :, None, :].to(q.dtype)
        return q * cos + rotate_half(q) * sin


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


def test_the_module_cast_to_bfloat16_is_diagnosed_as_the_command_line_diagnoses_it(tmp_path):
    q, positions = queries(torch.bfloat16)
    out = apply(LlamaStyleRotary().to(torch.bfloat16), q, positions)
    result = pecheck.validate_rotated(out, q, positions, rope="llama2")
    document = cli_document(tmp_path, out, q, positions, "--rope", "llama2")
    assert result.verdict == document["verdict"] == "deviates", str(result)
    assert [h.kind for h in result.hazards] == [h["kind"] for h in document["hazards"]]
    assert "inv-freq-precision" in [h.kind for h in result.hazards], str(result)
    assert without_name(result.to_dict()) == without_name(document)


def test_a_bfloat16_module_keeping_its_angles_in_float32_conforms(tmp_path):
    """The float32 cos/sin cast to bfloat16 before a bfloat16 rotation is transformers' own computation
    (the hf-cast-cache model): no fault, though the exact rotation is not met."""
    q, positions = queries(torch.bfloat16)
    out = apply(LlamaStyleRotary(), q, positions)  # the module left in float32: inv_freq keeps its digits
    result = pecheck.validate_rotated(out, q, positions, rope="llama2")
    document = cli_document(tmp_path, out, q, positions, "--rope", "llama2")
    assert result.verdict == document["verdict"] == "conforms", str(result)
    assert [c.target for c in result.comparisons if c.conforms] == ["the computation model hf-cast-cache"]


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


def written_files(directory):
    """Every file under directory (relative path -> text), JUnit's timings blanked: they differ run to run."""
    files = {}
    for path in sorted(directory.rglob("*")):
        if path.is_file():
            text = path.read_text()
            if path.suffix == ".xml":
                text = re.sub(r'time="[0-9.]+"', 'time=""', text)
            files[str(path.relative_to(directory))] = text
    return files


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_write_report_writes_what_output_dir_writes(tmp_path, dtype):
    q, positions = queries(dtype, length=64)
    out = apply(LlamaStyleRotary(), q, positions)
    cli_document(tmp_path, out, q, positions, "--rope", "llama2")
    cli("validate", tmp_path / "out.npy", "--input", tmp_path / "in.npy", "--positions", tmp_path / "pos.npy",
        "--rope", "llama2", "--output-dir", tmp_path / "cli")
    result = pecheck.validate_rotated(out, q, positions, rope="llama2", name=str(tmp_path / "out.npy"))
    # Given the command line's reproduce line, the report is the same, file for file.
    reproduce = json.loads((tmp_path / "cli" / "report.json").read_text())["configuration"]["reproduce"]
    result.write_report(tmp_path / "python", reproduce=reproduce)
    python, command_line = written_files(tmp_path / "python"), written_files(tmp_path / "cli")
    # The checks on the rotated outputs ran on the tensors, as on the files: the report beside validation.*.
    assert {"validation.json", "validation.txt", "report.json", "report.html", "report.md",
            "report.junit.xml"} <= set(python), sorted(python)
    assert "rotary/rotated-pair-norm" in python["report.json"]
    assert sorted(python) == sorted(command_line)
    for name in python:
        assert python[name] == command_line[name], name
