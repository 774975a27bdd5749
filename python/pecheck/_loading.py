"""pecheck.load: one array or tensor from a file, for pecheck.validate and validate_rope."""

import json
import os
import struct

import numpy as np

_SAFETENSORS_DTYPES = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "BF16": "<u2"}


def _pick(names, name, path, what):
    if name is None:
        if len(names) == 1:
            return names[0]
        raise ValueError(f"{path}: name: not given, and the file holds {len(names)} {what} "
                         f"(expected one of {', '.join(sorted(names))})")
    if name not in names:
        raise ValueError(f"{path}: name: '{name}' is not in the file (expected one of {', '.join(sorted(names))})")
    return name


def _safetensors(path, name):
    with open(path, "rb") as file:
        head = file.read(8)
        if len(head) != 8:
            raise ValueError(f"{path}: header length: the file is shorter than 8 bytes (expected a .safetensors file)")
        (length,) = struct.unpack("<Q", head)
        try:
            header = json.loads(file.read(length))
        except ValueError as error:
            raise ValueError(f"{path}: header: not JSON ({error}) (expected a .safetensors header)") from None
    tensors = [k for k in header if k != "__metadata__"]
    key = _pick(tensors, name, path, "tensors")
    entry = header[key]
    dtype = entry.get("dtype")
    if dtype not in _SAFETENSORS_DTYPES:
        raise ValueError(f"{path}: {key}.dtype: {dtype} (expected F64, F32, F16 or BF16)")
    begin, end = entry["data_offsets"]
    shape = tuple(entry["shape"])
    # Mapped, not read: the array is the file's bytes.
    array = np.memmap(path, dtype=_SAFETENSORS_DTYPES[dtype], mode="r", offset=8 + length + begin, shape=shape)
    if dtype == "BF16":
        # NumPy has no bfloat16: copied into a torch.bfloat16 tensor (torch shares no read-only mapping).
        try:
            import torch
        except ImportError:
            raise ValueError(f"{path}: {key}.dtype: BF16 needs torch to be held without widening "
                             f"(expected F64, F32 or F16 without it)") from None
        return torch.from_numpy(np.array(array).view(np.int16)).view(torch.bfloat16)
    return array


def _torch_file(path, name):
    try:
        import torch
    except ImportError:
        raise ValueError(f"{path}: a torch.save file, and torch cannot be imported (expected .npy, .npz or "
                         f".safetensors without torch)") from None
    # weights_only: a torch.save file is a pickle, and unpickling may run code; tensors and dicts need no more.
    loaded = torch.load(path, map_location="cpu", weights_only=True)
    if isinstance(loaded, torch.Tensor):
        if name is not None:
            raise ValueError(f"{path}: name: '{name}' given, but the file holds one tensor")
        return loaded
    if isinstance(loaded, dict):
        tensors = [k for k, v in loaded.items() if isinstance(v, torch.Tensor)]
        return loaded[_pick(tensors, name, path, "tensors")]
    raise ValueError(f"{path}: a torch.save file of {type(loaded).__name__} (expected a tensor or a state dict)")


def load(path, name=None):
    """One array from a .npy, .npz (the array `name`), .safetensors (the tensor `name`) or torch.save file
    (a tensor, or the state dict's entry `name`); `name` may be left out when the file holds one.

    .npy and .safetensors are mapped, not read; BF16 comes back as a torch.bfloat16 tensor (a copy).
    """
    path = os.fspath(path)
    extension = os.path.splitext(path)[1].lower()
    if extension == ".npy":
        if name is not None:
            raise ValueError(f"{path}: name: '{name}' given, but a .npy file holds one array")
        return np.load(path, mmap_mode="r", allow_pickle=False)
    if extension == ".npz":
        with np.load(path, allow_pickle=False) as archive:
            return archive[_pick(list(archive.files), name, path, "arrays")]
    if extension == ".safetensors":
        return _safetensors(path, name)
    with open(path, "rb") as file:
        magic = file.read(6)
    if magic == b"\x93NUMPY":
        return np.load(path, mmap_mode="r", allow_pickle=False)
    if magic[:2] == b"PK" or magic[:1] == b"\x80":  # a zip archive (torch.save) or a pickle (its legacy format)
        return _torch_file(path, name)
    raise ValueError(f"{path}: the file's first bytes are neither .npy, a zip nor a pickle (expected .npy, .npz, "
                     f".safetensors or a torch.save file)")

