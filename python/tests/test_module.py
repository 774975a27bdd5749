"""pecheck.validate_module on live PyTorch modules: the command line's verdicts, and max_position respected."""

import math

import numpy as np
import pytest
import torch

import pecheck
from conftest import cli_json


class TutorialPositionalEncoding(torch.nn.Module):
    """The sequence-first module of PyTorch's transformer tutorial, with the dtype its table is built in."""

    def __init__(self, d_model, max_len, dtype=torch.float32):
        super().__init__()
        self.dropout = torch.nn.Dropout(p=0.1)
        position = torch.arange(max_len, dtype=dtype).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2, dtype=dtype) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model, dtype=dtype)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        if x.size(0) > self.pe.size(0):
            raise IndexError(f"asked for {x.size(0)} positions, the table has {self.pe.size(0)}")
        return self.dropout(x + self.pe[: x.size(0)])


def cli_verdict(tmp_path, rows):
    np.save(tmp_path / "pe.npy", rows)
    return cli_json("validate", tmp_path / "pe.npy")


# Correct in float64; in float32 (and after .half()) the angles p * w are rounded
# to float32 before sin and cos, fault 2 of CONVENTIONS.md.
@pytest.mark.parametrize("dtype, half, verdict", [(torch.float64, False, "conforms"), (torch.float32, False, "deviates"),
                                                  (torch.float32, True, "deviates")])
def test_the_tutorial_module_gets_the_command_lines_verdict(tmp_path, dtype, half, verdict):
    module = TutorialPositionalEncoding(64, 8192, dtype)
    if half:
        module = module.half()
    result = pecheck.validate_module(module, "sinusoidal", max_position=8192)
    document = cli_verdict(tmp_path, module.pe[:, 0].numpy())
    assert result.verdict == document["verdict"] == verdict
    assert [h.kind for h in result.hazards] == [h["kind"] for h in document["hazards"]]
    assert result.offset == 0 and module.training  # put back in training mode as it was


def test_max_position_is_never_exceeded():
    module = TutorialPositionalEncoding(32, 300)
    result = pecheck.validate_module(module, "sinusoidal", max_position=300)  # raises at 301
    assert result.to_dict()["rows"] == 300
    with pytest.raises(ValueError, match=r"module: calling it on zeros of shape .* raised IndexError"):
        pecheck.validate_module(module, "sinusoidal", max_position=301, batch_first=False)


class RotaryEmbedding(torch.nn.Module):
    """transformers' Llama rotary computation, refusing positions past its length."""

    def __init__(self, length, dim=128, base=10000.0):
        super().__init__()
        self.length = length
        self.register_buffer("inv_freq", 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim)), persistent=False)

    def forward(self, x, position_ids):
        if int(position_ids.max()) >= self.length:
            raise IndexError(f"position {int(position_ids.max())} is past {self.length}")
        freqs = (self.inv_freq[None, :, None].float() @ position_ids[:, None, :].float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)


def test_a_rotary_module_is_called_in_blocks_up_to_max_position():
    module = RotaryEmbedding(1000)
    result = pecheck.validate_module(module, "rope", max_position=1000, block=256, rope="llama2")
    direct = pecheck.validate_rope(*[t[0] for t in module(torch.zeros(1), torch.arange(1000)[None])], rope="llama2")
    assert without_file(result.to_dict()) == without_file(direct.to_dict())


def without_file(document):
    return {k: v for k, v in document.items() if k != "file"}


def test_bad_arguments_name_themselves():
    with pytest.raises(ValueError, match="max_position: None"):
        pecheck.validate_module(RotaryEmbedding(10), "rope")
    with pytest.raises(ValueError, match="kind: 'alibi'"):
        pecheck.validate_module(RotaryEmbedding(10), "alibi", max_position=4)
    with pytest.raises(TypeError, match="module: int"):
        pecheck.validate_module(3, max_position=4)
