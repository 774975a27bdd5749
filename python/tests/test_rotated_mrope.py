"""pecheck.validate_rotated under M-RoPE: the (3, L) temporal, height and width ids of Qwen2-VL reach the
library in their shape, and the verdicts and diagnoses are the command line's on the same values."""

import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import pecheck
from conftest import cli_json, without_name

SOURCE = os.path.join(os.path.dirname(__file__), "..", "..")
CONFIG = os.path.join(SOURCE, "examples", "model_configs", "qwen2-vl-7b.json")


def rotated_files(tmp_path, *options):
    """OUT, IN and POS as examples/rotated_outputs.py writes them for Qwen2-VL (an image's ids by default)."""
    paths = [tmp_path / name for name in ("out.npy", "in.npy", "pos.npy")]
    subprocess.run([sys.executable, os.path.join(SOURCE, "examples", "rotated_outputs.py"), "--config", CONFIG,
                    "--heads", "2", "--length", "128", "--output", paths[0], "--input", paths[1],
                    "--positions", paths[2], *options], check=True, capture_output=True)
    return paths


@pytest.mark.parametrize("fault, verdict", [(None, "conforms"), ("ids-off-by-one", "deviates")])
def test_three_rows_of_ids_give_the_command_lines_result(tmp_path, fault, verdict):
    out, inp, pos = rotated_files(tmp_path, *(["--mrope-fault", fault] if fault else []))
    positions = torch.from_numpy(np.load(pos))
    assert positions.shape[0] == 3 and positions.dim() == 2
    result = pecheck.validate_rotated(torch.from_numpy(np.load(out)), torch.from_numpy(np.load(inp)), positions,
                                      config=CONFIG)
    assert result.verdict == verdict
    command = cli_json("validate", out, "--input", inp, "--positions", pos, "--config", CONFIG)
    assert without_name(result.to_dict()) == without_name(command)


def test_one_row_of_ids_under_mrope_is_refused_naming_the_positions(tmp_path):
    out, inp, pos = rotated_files(tmp_path)
    with pytest.raises(ValueError, match="positions"):
        pecheck.validate_rotated(torch.from_numpy(np.load(out)), torch.from_numpy(np.load(inp)),
                                 torch.from_numpy(np.load(pos)[0]), config=CONFIG)
