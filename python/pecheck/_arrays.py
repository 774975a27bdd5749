"""NumPy arrays and PyTorch tensors as tables, without copying them.

A table reaches the extension as a 2-D NumPy array in its format's own
storage: float64, float32 and float16 as themselves, bfloat16 (which NumPy
lacks) as its 16-bit patterns. A tensor is viewed through `Tensor.numpy()`,
which shares its storage; a bfloat16 tensor is first reinterpreted as int16
(`Tensor.view(torch.int16)`, same storage), never widened to float32.
torch is not imported here: a tensor is recognised by its type's module, so
`import pecheck` stays fast for users without it.
"""

import sys

import numpy as np

_NUMPY_FORMATS = {"float64": "float64", "float32": "float32", "float16": "float16"}
_TORCH_FORMATS = {"torch.float64": "float64", "torch.float32": "float32", "torch.float16": "float16",
                  "torch.bfloat16": "bfloat16"}
_COMPLEX_FORMATS = {"complex128": "float64", "complex64": "float32"}
SHAPES_ACCEPTED = "1 or 2 dimensions, or (N, 1, d), (1, N, d) or (1, 1, N, d)"


class Table:
    """A 2-D array in a format's storage, and how it was read from the caller's shape."""

    def __init__(self, array, fmt, original_shape, index_of, shape_note=""):
        self.array = array                    # 2-D, native byte order, rows' entries adjacent
        self.format = fmt                     # "float64", "float32", "float16" or "bfloat16"
        self.original_shape = original_shape  # the shape the caller gave
        self.index_of = index_of              # (row, column) -> the caller's index tuple
        self.shape_note = shape_note          # what was read, when extents of 1 were dropped


def is_torch_tensor(x):
    return type(x).__module__.startswith("torch") and hasattr(x, "device") and hasattr(x, "dtype")


def _from_torch(tensor, argument):
    device = getattr(tensor.device, "type", str(tensor.device))
    if device != "cpu":
        raise ValueError(f"{argument}: a tensor on '{tensor.device}' (pecheck reads host memory: "
                         f"pass {argument}.cpu())")
    tensor = tensor.detach()  # the same storage, without the autograd record .numpy() refuses
    dtype = str(tensor.dtype)
    if dtype == "torch.bfloat16":
        torch = sys.modules["torch"]
        return tensor.view(torch.int16).numpy().view(np.uint16), "bfloat16"
    if dtype in _TORCH_FORMATS:
        return tensor.numpy(), _TORCH_FORMATS[dtype]
    if dtype in ("torch.complex64", "torch.complex128"):
        return tensor.numpy(), "complex"
    raise TypeError(f"{argument}: a tensor of {dtype} (expected torch.float64, float32, float16 or bfloat16)")


def _from_numpy(x, argument):
    array = np.asarray(x)
    name = array.dtype.name
    if name == "bfloat16":  # ml_dtypes' bfloat16: its 16-bit patterns, the same buffer
        return array.view(np.uint16), "bfloat16"
    if array.dtype.kind == "c" and name in _COMPLEX_FORMATS:
        return array, "complex"
    if name not in _NUMPY_FORMATS:
        raise TypeError(f"{argument}: an array of {array.dtype} (expected float64, float32, float16, "
                        f"or a bfloat16 tensor)")
    return array, _NUMPY_FORMATS[name]


def storage_of(x, argument):
    """x as a NumPy array sharing its buffer, and its format ("complex" for complex arrays)."""
    array, fmt = _from_torch(x, argument) if is_torch_tensor(x) else _from_numpy(x, argument)
    if not array.dtype.isnative:
        # Another byte order than this machine's: converted, a copy (rare: arrays read from files).
        array = array.astype(array.dtype.newbyteorder("="))
    return array, fmt


def rows_by_columns(array, argument):
    """The (N, d) view of the shapes the command line reads, and the index mapping back."""
    shape = array.shape
    if array.ndim == 1:
        return array[np.newaxis, :], lambda r, c: (c,), ""
    if array.ndim == 2:
        return array, lambda r, c: (r, c), ""
    note = "the array's shape {} is read as {} rows of {} columns (its extents of 1 dropped)"
    if array.ndim == 3 and shape[1] == 1:
        view, index = array[:, 0, :], lambda r, c: (r, 0, c)
    elif array.ndim == 3 and shape[0] == 1:
        view, index = array[0], lambda r, c: (0, r, c)
    elif array.ndim == 4 and shape[0] == 1 and shape[1] == 1:
        view, index = array[0, 0], lambda r, c: (0, 0, r, c)
    else:
        raise ValueError(f"{argument}: shape {tuple(shape)} (expected {SHAPES_ACCEPTED})")
    return view, index, note.format(tuple(shape), view.shape[0], view.shape[1])


def adjacent_rows(view):
    """view itself when each row's entries are adjacent and rows run forward, else a contiguous copy.

    A transposed or sliced tensor, or an expanded one whose rows share memory,
    cannot be read in place: it is copied, and only then.
    """
    rows, cols = view.shape
    item = view.itemsize
    if cols > 1 and view.strides[1] != item:
        return np.ascontiguousarray(view)
    if rows > 1 and (view.strides[0] < cols * item or view.strides[0] % item != 0):
        return np.ascontiguousarray(view)
    return view


def as_table(x, argument):
    array, fmt = storage_of(x, argument)
    if fmt == "complex":
        raise TypeError(f"{argument}: a complex array (a complex freqs_cis is a rotary cache: "
                        f"pass it to pecheck.validate_rope)")
    view, index_of, note = rows_by_columns(array, argument)
    if view.size == 0:
        raise ValueError(f"{argument}: shape {tuple(array.shape)} holds no entries (expected rows of an encoding)")
    return Table(adjacent_rows(view), fmt, tuple(array.shape), index_of, note)


def rotary_tables(cos, sin, argument="cos"):
    """The cos and sin tables of a rotary cache: two arrays, a (2, L, d) stack, or a complex (L, d/2) freqs_cis."""
    if sin is not None:
        return as_table(cos, "cos"), as_table(sin, "sin")
    array, fmt = storage_of(cos, argument)
    if fmt == "complex":
        if array.ndim != 2:
            raise ValueError(f"{argument}: a complex array of shape {tuple(array.shape)} "
                             f"(expected a (positions, d/2) freqs_cis)")
        # The real and imaginary parts interleave in memory: each is copied into a table of its own.
        part = _COMPLEX_FORMATS[array.dtype.name]
        shape = tuple(array.shape)
        return (Table(np.ascontiguousarray(array.real), part, shape, lambda r, c: (r, c)),
                Table(np.ascontiguousarray(array.imag), part, shape, lambda r, c: (r, c)))
    if array.ndim == 3 and array.shape[0] == 2:
        shape = tuple(array.shape)
        return (Table(adjacent_rows(array[0]), fmt, shape, lambda r, c: (0, r, c)),
                Table(adjacent_rows(array[1]), fmt, shape, lambda r, c: (1, r, c)))
    raise ValueError(f"{argument}: shape {tuple(array.shape)} with no sin table (expected a (2, positions, d) "
                     f"stack of cos and sin, a complex (positions, d/2) freqs_cis, or sin=...)")


def as_rows(x, argument):
    """(rows of the last axis as a 2-D array in its format's storage, the format, the shape) of a tensor of any rank.

    The rows are a view of x's buffer when its leading axes collapse into one
    (any C-ordered tensor, a slice along the leading axes); a tensor that
    cannot be read so (transposed, expanded) is copied, and only then.
    """
    array, fmt = storage_of(x, argument)
    if fmt == "complex":
        raise TypeError(f"{argument}: a complex array (expected float64, float32, float16 or bfloat16)")
    if array.ndim < 2:
        raise ValueError(f"{argument}: shape {tuple(array.shape)} (expected (L, d), (L, H, d), (T, H, d) or "
                         f"a 4-axis sbhd, bshd or bhsd shape)")
    rows, shape = last_axis_rows(array, argument)
    return rows, fmt, shape


def last_axis_rows(array, argument):
    """(the rows of array's last axis as a 2-D array, the shape as given): a view of its buffer when the
    leading axes collapse into one (any C-ordered array), else a copy. Rank 0 and 1 are one row."""
    shape = tuple(int(n) for n in array.shape)
    if array.size == 0:
        raise ValueError(f"{argument}: shape {shape} holds no entries")
    rows = array.reshape(1, -1) if array.ndim < 2 else array.reshape(-1, shape[-1])  # views where strides allow
    return adjacent_rows(rows), shape


def describe(x, table):
    """How a validation names an array it was given without a name: 'torch.float32 tensor (2048, 512)'."""
    kind = f"{x.dtype} tensor" if is_torch_tensor(x) else f"{np.asarray(x).dtype} array"
    return f"{kind} {table.original_shape}"
