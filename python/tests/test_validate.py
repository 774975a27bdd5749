"""pecheck.validate on NumPy arrays and PyTorch tensors gives the command line's result on the same values."""

import numpy as np
import pytest
import torch

import pecheck
from pecheck import _arrays
from conftest import cli_json, without_name, write_safetensors

FORMATS = ["float64", "float32", "float16", "bfloat16"]
TORCH_DTYPES = {"float64": torch.float64, "float32": torch.float32, "float16": torch.float16,
                "bfloat16": torch.bfloat16}


def as_tensor(values, fmt):
    """The table as a torch tensor of the format (exact: the values are the format's)."""
    return torch.from_numpy(np.asarray(values, dtype=np.float64)).to(TORCH_DTYPES[fmt])


def cli_document(tmp_path, tensor, fmt, *options):
    """The command line's --json on the tensor's values written to a file of the same format."""
    if fmt == "bfloat16":  # .npy has no bfloat16; .safetensors stores it natively, as the tensor does
        path = tmp_path / "table.safetensors"
        write_safetensors(path, "pe", tensor.view(torch.int16).numpy().view(np.uint16), "BF16")
    else:
        path = tmp_path / "table.npy"
        np.save(path, tensor.numpy())
    return cli_json("validate", path, *options)


def positions_held_in_float16(fmt, rows=4096, dim=64):
    """vaswani rows at positions rounded to float16 (fault 1): rows past 2048 repeat (4095 rounds to 4096)."""
    return pecheck.table("vaswani", rows + 1, dim, dtype=fmt)[np.arange(rows).astype(np.float16).astype(np.int64)]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_correct_tensor_gives_the_command_lines_result(tmp_path, fmt):
    tensor = as_tensor(pecheck.table("vaswani", 512, 64, dtype=fmt), fmt)
    result = pecheck.validate(tensor)
    assert result.verdict == "conforms"
    assert result.convention == "vaswani" and result.offset == 0
    assert without_name(result.to_dict()) == without_name(cli_document(tmp_path, tensor, fmt))


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_faulty_tensor_gives_the_command_lines_verdict_and_diagnosis(tmp_path, fmt):
    faulty = positions_held_in_float16(fmt)
    tensor = as_tensor(faulty, fmt)
    result = pecheck.validate(tensor, convention="vaswani")
    document = cli_document(tmp_path, tensor, fmt, "--convention", "vaswani")
    assert result.verdict == "deviates"
    assert without_name(result.to_dict()) == without_name(document)
    assert [h.kind for h in result.hazards] == [h["kind"] for h in document["hazards"]]


@pytest.mark.parametrize("fmt", ["float64", "float32", "float16"])
def test_a_numpy_array_gives_the_same_result_as_its_tensor(fmt):
    values = pecheck.table("tensor2tensor", 300, 48, offset=5, dtype=fmt)
    from_numpy = pecheck.validate(values)
    from_torch = pecheck.validate(torch.from_numpy(values))
    assert from_numpy.to_dict() | {"file": ""} == from_torch.to_dict() | {"file": ""}
    assert from_numpy.offset == 5


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_contiguous_tensor_is_read_in_place(fmt):
    tensor = as_tensor(pecheck.table("vaswani", 64, 32, dtype=fmt), fmt)
    table = _arrays.as_table(tensor, "table")
    assert table.format == fmt
    assert table.array.__array_interface__["data"][0] == tensor.data_ptr()


def test_a_transposed_tensor_is_read_through_a_copy_with_the_same_result():
    values = torch.from_numpy(pecheck.table("vaswani", 128, 32, dtype="float32"))
    transposed = values.t().contiguous().t()  # the same values, columns adjacent instead of rows
    assert not transposed.is_contiguous()
    assert pecheck.validate(transposed).to_dict() | {"file": ""} == pecheck.validate(values).to_dict() | {"file": ""}


def test_a_batch_shaped_tensor_is_read_as_the_command_line_reads_it(tmp_path):
    values = pecheck.table("vaswani", 100, 16, dtype="float32")[np.newaxis]  # (1, N, d), as fairseq keeps `pe`
    np.save(tmp_path / "pe.npy", values)
    result = pecheck.validate(torch.from_numpy(values))
    assert without_name(result.to_dict()) == without_name(cli_json("validate", tmp_path / "pe.npy"))
    assert "(1, 100, 16) is read as 100 rows of 16 columns" in result.notes[0]


def test_str_is_the_command_lines_text(tmp_path):
    values = pecheck.table("vaswani", 64, 16, dtype="float32")
    np.save(tmp_path / "pe.npy", values)
    from conftest import cli
    text = cli("validate", tmp_path / "pe.npy").stdout
    assert str(pecheck.validate(values, name=str(tmp_path / "pe.npy"))) == text


class CudaTensor:
    """Stands for a CUDA tensor: pecheck reads no more than its type's module and its device."""
    __module__ = "torch"

    class device:
        type = "cuda"

        def __str__(self):
            return "cuda:0"

    device = device()

    dtype = "torch.float32"


def test_a_cuda_tensor_is_refused_with_what_to_do():
    with pytest.raises(ValueError, match=r"table: a tensor on 'cuda:0' \(pecheck reads host memory: pass table\.cpu\(\)\)"):
        pecheck.validate(CudaTensor())


@pytest.mark.parametrize("bad, error, match", [
    (np.zeros((4, 8), dtype=np.int32), TypeError, r"table: an array of int32"),
    (torch.zeros((4, 8), dtype=torch.int64), TypeError, r"table: a tensor of torch.int64"),
    (np.zeros((2, 2, 4, 8)), ValueError, r"table: shape \(2, 2, 4, 8\)"),
    (np.zeros((0, 8)), ValueError, r"table: shape \(0, 8\) holds no entries"),
])
def test_bad_tables_are_refused_naming_the_argument(bad, error, match):
    with pytest.raises(error, match=match):
        pecheck.validate(bad)


def test_bad_options_are_refused_naming_the_argument():
    table = pecheck.table("vaswani", 16, 8, dtype="float32")
    with pytest.raises(ValueError, match=r"convention: 'nope' is not a convention"):
        pecheck.validate(table, convention="nope")
    with pytest.raises(ValueError, match=r"max_ulp: -1.0 \(expected a finite number >= 0\)"):
        pecheck.validate(table, max_ulp=-1)
    with pytest.raises(TypeError, match=r"offset: 'first'"):
        pecheck.validate(table, offset="first")
    with pytest.raises(ValueError, match=r"dtype: format 'float8'"):
        pecheck.validate(table, dtype="float8")


def test_write_report_writes_what_output_dir_writes(tmp_path):
    values = pecheck.table("vaswani", 128, 32, dtype="float32")
    np.save(tmp_path / "pe.npy", values)
    from conftest import cli
    cli("validate", tmp_path / "pe.npy", "--output-dir", tmp_path / "cli", expect=(0,))
    pecheck.validate(torch.from_numpy(values), name=str(tmp_path / "pe.npy")).write_report(tmp_path / "python")
    assert sorted(p.name for p in (tmp_path / "python").iterdir()) == sorted(p.name for p in (tmp_path / "cli").iterdir())
    for name in ("validation.json", "validation.txt"):
        assert (tmp_path / "python" / name).read_text() == (tmp_path / "cli" / name).read_text()


def test_progress_hears_of_every_row_compared():
    heard = []
    pecheck.validate(pecheck.table("vaswani", 300, 16), progress=lambda done, total: heard.append((done, total)))
    assert heard and heard[-1] == (300, 300)
    assert all(a[0] <= b[0] for a, b in zip(heard, heard[1:]))


def test_an_exception_in_progress_reaches_the_caller():
    def stop(done, total):
        raise KeyboardInterrupt("stopped")
    with pytest.raises(KeyboardInterrupt, match="stopped"):
        pecheck.validate(pecheck.table("vaswani", 64, 16), progress=stop)
