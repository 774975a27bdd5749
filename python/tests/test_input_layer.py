"""pecheck.validate_input_layer gives `pecheck validate OUTPUT --vocabulary V --ids I`'s result on the same arrays."""

import subprocess
import sys

import numpy as np
import pytest
import torch

import pecheck
from conftest import cli, cli_json, without_name


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


def as_file_values(tensor):
    """What the command line reads: NumPy has no bfloat16, so bfloat16 is saved as float32 holding its values."""
    return tensor.float().numpy() if tensor.dtype == torch.bfloat16 else tensor.numpy()


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.float16, torch.bfloat16])
def test_every_format_is_read_in_place_and_gives_the_command_lines_result(tmp_path, dtype):
    output, embedding, ids = input_layer(np.sqrt)
    output, embedding = torch.from_numpy(output).to(dtype), torch.from_numpy(embedding).to(dtype)
    paths = [tmp_path / "output.npy", tmp_path / "vocab.npy", tmp_path / "ids.npy"]
    for path, array in zip(paths, (as_file_values(output), as_file_values(embedding), ids)):
        np.save(path, array)
    document = cli_json("validate", paths[0], "--vocabulary", paths[1], "--ids", paths[2])
    result = pecheck.validate_input_layer(output, embedding, torch.from_numpy(ids), name=str(paths[0]))
    assert without_name(result.to_dict()) == without_name(document)
    # The rows handed over are the tensors' own memory: nothing was copied or widened.
    for rows, tensor in zip(result._arrays, (output, embedding)):
        assert rows.__array_interface__["data"][0] == tensor.data_ptr()
        assert rows.itemsize == tensor.element_size()


# Run in a fresh interpreter: the peak resident size (ru_maxrss) is the
# process's high-water mark, so the arrays are built row by row (no
# temporaries of their size) and a small validation runs first (the
# library's one-time set-up), so that the peak before the validation is the
# memory then in use and any growth is the validation's own.
PEAK_SCRIPT = r"""
import resource, sys, time
import numpy as np, torch, pecheck

def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kilobytes on Linux

def resident():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()

dtype = getattr(torch, sys.argv[1])
batch, length, dim, vocabulary = 64, 128, 1024, 1000
rng = np.random.default_rng(7)
# The weights and the encoding buffer held in the activation format, as a model's are.
embedding = torch.from_numpy((rng.standard_normal((vocabulary, dim)) * dim ** -0.5).astype(np.float32))
embedding = embedding.to(dtype).float()
ids = torch.from_numpy(rng.integers(0, vocabulary, (batch, length)))
pe = torch.from_numpy(pecheck.table("vaswani", length, dim)).to(dtype).float()
pecheck.validate_input_layer((embedding[ids[:4, :16]] * dim ** 0.5 + pe[:16]).to(dtype), embedding.to(dtype),
                             ids[:4, :16])
output = torch.empty(batch, length, dim, dtype=dtype)
for b in range(batch):
    output[b] = embedding[ids[b]] * dim ** 0.5 + pe
embedding = embedding.to(dtype)
before, headroom = resident(), peak() - resident()
start = time.perf_counter()
result = pecheck.validate_input_layer(output, embedding, ids)
seconds = time.perf_counter() - start
# peak() - before bounds the validation's own growth from above (over by at most the headroom).
print(result.verdict, peak() - before, output.numel() * output.element_size(), headroom, f"{seconds:.2f}")
"""


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_a_large_layer_is_validated_without_a_copy_of_its_output(dtype):
    """The output read in place: the validation's peak memory grows by less than half the output's size
    (its working set is the recovered encoding, L x d doubles, 1 MiB here; measured 2.1 to 2.6 MiB in all), where
    a copy as doubles would add two (float32) or four (bfloat16) times it, and one widened to float32 twice
    (bfloat16)."""
    run = subprocess.run([sys.executable, "-c", PEAK_SCRIPT, dtype], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    verdict, growth, size, headroom, seconds = run.stdout.split()
    growth, size, headroom = int(growth), int(size), int(headroom)
    assert verdict in ("conforms", "deviates", "unknown"), run.stdout  # the verdict is the other tests' concern
    print(f"{dtype}: output {size / 2**20:.1f} MiB, peak over the resident size before the validation "
          f"{growth / 2**20:.1f} MiB (headroom below the earlier peak {headroom / 2**20:.1f} MiB), {seconds} s")
    assert growth < size / 2, f"peak grew by {growth / 2**20:.1f} MiB for a {size / 2**20:.1f} MiB output"


def test_write_report_writes_what_output_dir_writes(tmp_path):
    output, embedding, ids = input_layer(lambda d: 1.0)
    paths = [tmp_path / "output.npy", tmp_path / "vocab.npy", tmp_path / "ids.npy"]
    for path, array in zip(paths, (output, embedding, ids)):
        np.save(path, array)
    cli("validate", paths[0], "--vocabulary", paths[1], "--ids", paths[2], "--output-dir", tmp_path / "cli")
    result = pecheck.validate_input_layer(output, embedding, ids, name=str(paths[0]))
    result.write_report(tmp_path / "python")
    written = sorted(p.name for p in (tmp_path / "python").iterdir())
    assert written == sorted(p.name for p in (tmp_path / "cli").iterdir())
    for name in written:
        assert (tmp_path / "python" / name).read_text() == (tmp_path / "cli" / name).read_text()
