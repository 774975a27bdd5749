"""pecheck.validate_input_layer gives `pecheck validate OUTPUT --vocabulary V --ids I`'s result on the same arrays."""

import numpy as np
import pytest
import torch

import pecheck
from conftest import cli_json, without_name


def input_layer(scale, batch=2, length=64, dim=32, vocabulary=500):
    """x = s E[id] + PE[pos] in float32, E normal with standard deviation d^-0.5 (fixed seed)."""
    rng = np.random.default_rng(20240611)
    embedding = (rng.standard_normal((vocabulary, dim)) * dim ** -0.5).astype(np.float32)
    ids = rng.integers(0, vocabulary, (batch, length))
    output = (np.float32(scale(dim)) * embedding[ids] + pecheck.table("vaswani", length, dim)).astype(np.float32)
    return output, embedding, ids


# sqrt(d) applied, and sqrt(d) missing (CONVENTIONS.md fault 7).
@pytest.mark.parametrize("scale, verdict", [(np.sqrt, "conforms"), (lambda d: 1.0, "deviates")])
def test_an_input_layer_gives_the_command_lines_result(tmp_path, scale, verdict):
    output, embedding, ids = input_layer(scale)
    paths = [tmp_path / "output.npy", tmp_path / "vocab.npy", tmp_path / "ids.npy"]
    for path, array in zip(paths, (output, embedding, ids)):
        np.save(path, array)
    document = cli_json("validate", paths[0], "--vocabulary", paths[1], "--ids", paths[2])
    result = pecheck.validate_input_layer(torch.from_numpy(output), torch.from_numpy(embedding), torch.from_numpy(ids),
                                         name=str(paths[0]))
    assert result.verdict == document["verdict"] == verdict
    assert without_name(result.to_dict()) == without_name(document)


def test_bad_input_layer_arrays_are_refused_naming_the_argument():
    output, embedding, ids = input_layer(np.sqrt)
    with pytest.raises(TypeError, match=r"ids: an array of float64 \(expected integers\)"):
        pecheck.validate_input_layer(output, embedding, ids.astype(np.float64))
    with pytest.raises(ValueError, match=r"vocabulary|VOCAB|vocab"):
        pecheck.validate_input_layer(output, embedding[:, :5], ids)
