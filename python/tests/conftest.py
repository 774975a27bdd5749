"""Shared by the Python module's tests: the command line to compare with, and pytester for the plugin."""

import json
import os
import struct
import subprocess

import numpy as np
pytest_plugins = ["pytester"]


def cli(*args, expect=(0, 1)):
    """Runs the pecheck command line (PECHECK) and returns its completed process."""
    run = subprocess.run([os.environ["PECHECK"], *map(str, args)], capture_output=True, text=True)
    assert run.returncode in expect, f"pecheck {' '.join(map(str, args))}: exit {run.returncode}\n{run.stderr}"
    return run


def cli_json(*args):
    return json.loads(cli(*args, "--json").stdout)


def write_safetensors(path, name, bits, dtype):
    """A .safetensors file holding one tensor of raw little-endian element bits (BF16 as uint16)."""
    header = json.dumps({name: {"dtype": dtype, "shape": list(bits.shape),
                                "data_offsets": [0, bits.nbytes]}}).encode()
    header += b" " * (-len(header) % 8)
    with open(path, "wb") as file:
        file.write(struct.pack("<Q", len(header)) + header + np.ascontiguousarray(bits).tobytes())


def without_name(document):
    """A validation's JSON document without the name it was given (a file for the CLI, a tensor's description here)."""
    return {k: v for k, v in document.items() if k not in ("file", "name")}
