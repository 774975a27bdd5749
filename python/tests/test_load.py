"""pecheck.load: .npy, .npz, .safetensors and torch.save files, one array or tensor by name."""

import numpy as np
import pytest
import torch

import pecheck
from conftest import write_safetensors


def test_each_kind_of_file_gives_its_array(tmp_path):
    table = pecheck.table("vaswani", 16, 8)
    np.save(tmp_path / "pe.npy", table)
    np.savez(tmp_path / "pe.npz", pe=table, other=table[:2])
    write_safetensors(tmp_path / "pe.safetensors", "pe", table, "F32")
    torch.save({"pe": torch.from_numpy(table), "step": 3}, tmp_path / "state.pt")
    torch.save(torch.from_numpy(table), tmp_path / "tensor.pt")
    for path, name in [("pe.npy", None), ("pe.npz", "pe"), ("pe.safetensors", None), ("state.pt", None),
                       ("tensor.pt", None)]:
        loaded = pecheck.load(tmp_path / path, name)
        assert np.array_equal(np.asarray(loaded), table), path


def test_a_bfloat16_safetensors_tensor_stays_bfloat16(tmp_path):
    tensor = torch.from_numpy(pecheck.table("vaswani", 16, 8)).bfloat16()
    write_safetensors(tmp_path / "pe.safetensors", "pe", tensor.view(torch.int16).numpy().view(np.uint16), "BF16")
    loaded = pecheck.load(tmp_path / "pe.safetensors")
    assert loaded.dtype == torch.bfloat16 and torch.equal(loaded, tensor)


def test_a_missing_or_ambiguous_name_is_refused_with_the_names(tmp_path):
    np.savez(tmp_path / "two.npz", a=np.zeros(2), b=np.zeros(2))
    with pytest.raises(ValueError, match=r"two.npz: name: not given, and the file holds 2 arrays \(expected one of a, b\)"):
        pecheck.load(tmp_path / "two.npz")
    with pytest.raises(ValueError, match=r"name: 'c' is not in the file"):
        pecheck.load(tmp_path / "two.npz", "c")
    (tmp_path / "junk.bin").write_bytes(b"hello world")
    with pytest.raises(ValueError, match=r"junk.bin: the file's first bytes"):
        pecheck.load(tmp_path / "junk.bin")
