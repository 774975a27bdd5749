"""NumPy's side of the table file interop tests (run by npy_test and safetensors_test).

  write-npy DIR            write .npy files with NumPy, each with a .expect sidecar
  dump-npy FILE            load FILE with NumPy and print what it holds
  write-safetensors DIR    write .safetensors files (json + NumPy, from the format's
                           specification, not pecheck's code), each with a .expect sidecar
  dump-safetensors FILE NAME   read tensor NAME of FILE the same way and print it

Sidecars and dumps have the same two lines:
  <dtype> <fortran 0|1> <ndim> <version> <rows> <cols> <metadata as compact JSON or ->
  <bit pattern of each value in C order, hex, space-separated>
where a 1-D array of length d counts as 1 row of d columns, as pecheck reads it.
"""
import json
import os
import struct
import sys

import numpy as np

SEED = 20240611  # fixed: the same files every run
UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def patterns(itemsize, count, rng):
    """Random bit patterns with the special values first (NaN payloads included)."""
    bits = rng.integers(0, 2 ** (8 * itemsize), size=count, dtype=UINT[itemsize], endpoint=False)
    fraction_bits = {2: 10, 4: 23, 8: 52}[itemsize]
    sign = 1 << (8 * itemsize - 1)
    exponent_all = ((1 << (8 * itemsize - 1 - fraction_bits)) - 1) << fraction_bits
    special = [0, sign, 1, exponent_all, exponent_all | sign,
               exponent_all | (1 << (fraction_bits - 1)) | 7, exponent_all | 9]
    bits[: len(special)] = special
    return bits


def shape_of(array):
    return (1, array.shape[0]) if array.ndim == 1 else array.shape


def describe(dtype, fortran, ndim, version, shape, metadata, bits):
    meta = json.dumps(metadata, separators=(",", ":"), sort_keys=True) if metadata else "-"
    head = f"{dtype} {int(fortran)} {ndim} {version} {shape[0]} {shape[1]} {meta}"
    return head + "\n" + " ".join(format(int(b), "x") for b in bits) + "\n"


def write_npy(directory):
    rng = np.random.default_rng(SEED)
    for itemsize in (2, 4, 8):
        for order_char in "<>":
            for fortran in (False, True):
                for ndim in (1, 2):
                    for version in ((1, 0), (2, 0), (3, 0)):
                        shape = (7,) if ndim == 1 else (3, 5)
                        bits = patterns(itemsize, int(np.prod(shape)), rng).reshape(shape)
                        native = bits.view(f"<f{itemsize}" if sys.byteorder == "little" else f">f{itemsize}")
                        # Byte swapping between byte orders copies bytes, so NaN payloads survive.
                        array = native.astype(f"{order_char}f{itemsize}")
                        if fortran:
                            array = np.asfortranarray(array)
                        name = f"f{itemsize}_{'le' if order_char == '<' else 'be'}_{'F' if fortran else 'C'}_{ndim}d_v{version[0]}"
                        with open(os.path.join(directory, name + ".npy"), "wb") as out:
                            np.lib.format.write_array(out, array, version=version)
                        fortran_flag = fortran and ndim == 2  # NumPy writes False for 1-D
                        text = describe(array.dtype.str, fortran_flag, ndim, f"{version[0]}.{version[1]}",
                                        shape_of(array), None, bits.ravel(order="C"))
                        with open(os.path.join(directory, name + ".expect"), "w") as out:
                            out.write(text)


def dump_npy(path):
    with open(path, "rb") as f:
        version = np.lib.format.read_magic(f)
    array = np.load(path, allow_pickle=False)
    fortran = array.flags.f_contiguous and not array.flags.c_contiguous
    bits = np.ascontiguousarray(array.astype(array.dtype.newbyteorder("="))).view(UINT[array.dtype.itemsize])
    sys.stdout.write(describe(array.dtype.str, fortran, array.ndim, f"{version[0]}.{version[1]}",
                              shape_of(array), None, bits.ravel()))


SAFETENSORS_SIZE = {"F16": 2, "BF16": 2, "F32": 4, "F64": 8, "I64": 8}


def safetensors_bytes(tensors, metadata):
    """tensors: list of (name, dtype, shape, raw little-endian bytes)."""
    header, data = {}, b""
    for name, dtype, shape, raw in tensors:
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    if metadata:
        header["__metadata__"] = metadata
    text = json.dumps(header).encode("utf-8")
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + data


def write_safetensors(directory):
    rng = np.random.default_rng(SEED + 1)
    for dtype, itemsize in (("F16", 2), ("BF16", 2), ("F32", 4), ("F64", 8)):
        for ndim in (1, 2):
            shape = (8,) if ndim == 1 else (4, 3)
            bits = patterns(itemsize if dtype != "BF16" else 2, int(np.prod(shape)), rng)
            if dtype == "BF16":  # the same special values, in bfloat16's layout
                bits[3:7] = [0x7F80, 0xFF80, 0x7FC7, 0x7F89]
            raw = bits.astype(f"<u{itemsize}").tobytes()
            ids = np.arange(5, dtype="<i8").tobytes()
            metadata = {"format": "pt", "note": "caf\u00e9"}
            # Another tensor before and after, so pe's offsets are not 0.
            tensors = [("a_ids", "I64", (5,), ids), ("pe", dtype, shape, raw), ("z_ids", "I64", (5,), ids)]
            name = f"{dtype}_{ndim}d"
            with open(os.path.join(directory, name + ".safetensors"), "wb") as out:
                out.write(safetensors_bytes(tensors, metadata))
            text = describe(dtype, False, ndim, "-", (1, shape[0]) if ndim == 1 else shape, metadata, bits)
            with open(os.path.join(directory, name + ".expect"), "w") as out:
                out.write(text)


def dump_safetensors(path, name):
    with open(path, "rb") as f:
        blob = f.read()
    (length,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8 : 8 + length].decode("utf-8"))
    data = blob[8 + length :]
    entry = header[name]
    begin, end = entry["data_offsets"]
    itemsize = SAFETENSORS_SIZE[entry["dtype"]]
    bits = np.frombuffer(data[begin:end], dtype=f"<u{itemsize}")
    shape = entry["shape"]
    sys.stdout.write(describe(entry["dtype"], False, len(shape), "-", (1, shape[0]) if len(shape) == 1 else shape,
                              header.get("__metadata__"), bits))


def main():
    command, *arguments = sys.argv[1:]
    {"write-npy": write_npy, "dump-npy": dump_npy, "write-safetensors": write_safetensors,
     "dump-safetensors": dump_safetensors}[command](*arguments)


if __name__ == "__main__":
    main()
