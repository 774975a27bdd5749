"""pecheck.validate_module: a live nn.Module called in process, then validated as a table or a rotary cache."""

import sys

import numpy as np

from ._validation import validate, validate_rope


def _torch():
    torch = sys.modules.get("torch")
    if torch is None:
        raise TypeError("module: torch is not imported (expected a torch.nn.Module)")
    return torch


def _largest_table(module):
    """The module's largest floating buffer or parameter: the encoding table it holds, if any."""
    tensors = [t for t in list(module.buffers()) + list(module.parameters()) if t.is_floating_point() and t.ndim >= 1]
    return max(tensors, key=lambda t: t.numel()) if tensors else None


def _progress_line(done, total, enabled):
    if enabled:
        sys.stderr.write(f"\rpecheck validate_module: {done}/{total} positions")
        if done == total:
            sys.stderr.write("\r\033[K")
        sys.stderr.flush()


def _sinusoidal_rows(module, max_position, dim, dtype, batch_first):
    """The module's encoding of positions 0..max_position-1, from its output on zeros.

    An additive module returns x + PE; on zeros that is PE. Batch-first modules take
    (1, N, d); sequence-first ones (PyTorch's tutorial) take (N, 1, d), and given
    (1, N, d) they add row 0 to every row: when batch_first is not given, a
    (1, N, d) call whose rows are all equal is read as that, and (N, 1, d) is used.
    """
    torch = _torch()
    device = next((t.device for t in list(module.parameters()) + list(module.buffers())), torch.device("cpu"))
    arrangements = [batch_first] if batch_first is not None else [True, False]
    for first in arrangements:
        shape = (1, max_position, dim) if first else (max_position, 1, dim)
        try:
            out = module(torch.zeros(shape, dtype=dtype, device=device))
        except Exception as error:
            raise ValueError(f"module: calling it on zeros of shape {shape} raised {type(error).__name__}: {error} "
                             f"(expected x + PE; give batch_first=, dim= or max_position= to match it)") from error
        if isinstance(out, (tuple, list)):
            out = out[0]
        if tuple(out.shape) != shape:
            raise ValueError(f"module: on zeros of shape {shape} it returned shape {tuple(out.shape)} "
                             f"(expected the same shape: x + PE)")
        rows = out[0] if first else out[:, 0]
        if batch_first is not None or max_position < 2 or not bool((rows == rows[0]).all()):
            return rows.detach().cpu()
    return rows.detach().cpu()


def validate_module(module, kind="sinusoidal", max_position=None, *, dim=None, dtype=None, block=4096,
                    batch_first=None, progress=None, **options):
    """Validates a live torch.nn.Module's encoding at positions 0..max_position-1, never beyond.

    kind="sinusoidal": an additive module, forward(x) -> x + PE, called once on zeros
    (batch-first or sequence-first, see batch_first). kind="rope": a rotary module
    called as transformers' are, forward(x, position_ids) -> (cos, sin), in blocks of
    `block` positions, with a progress line on stderr when it is a terminal. The
    module is put in eval mode and called without gradients. Further options go to
    pecheck.validate or pecheck.validate_rope; the Validation is returned.
    """
    torch = _torch()
    if not isinstance(module, torch.nn.Module):
        raise TypeError(f"module: {type(module).__name__} (expected a torch.nn.Module)")
    if max_position is None or isinstance(max_position, bool) or int(max_position) < 1:
        raise ValueError(f"max_position: {max_position!r} (expected the number of positions to call, >= 1: "
                         f"pecheck never asks the module for a position at or beyond it)")
    max_position = int(max_position)
    if progress is None:
        progress = sys.stderr.isatty()
    was_training = module.training
    module.eval()
    try:
        with torch.no_grad():
            if kind == "sinusoidal":
                table = _largest_table(module)
                if dim is None and table is None:
                    raise ValueError("dim: not given, and the module holds no floating tensor to read it from")
                width = int(dim) if dim is not None else table.shape[-1]
                # Zeros of the table's own dtype: x + PE is then PE in the format the module holds it.
                zeros_dtype = dtype or (table.dtype if table is not None else torch.float32)
                rows = _sinusoidal_rows(module, max_position, width, zeros_dtype, batch_first)
                return validate(rows, name=options.pop("name", f"{type(module).__name__} module"),
                                progress=progress or None, **options)
            if kind == "rope":
                x = torch.zeros(1, dtype=dtype or torch.float32)
                cos_blocks, sin_blocks = [], []
                for first in range(0, max_position, block):
                    positions = torch.arange(first, min(first + block, max_position))[None]
                    cos, sin = module(x, positions)
                    cos_blocks.append(cos.reshape(-1, cos.shape[-1]).cpu())
                    sin_blocks.append(sin.reshape(-1, sin.shape[-1]).cpu())
                    _progress_line(min(first + block, max_position), max_position, progress)
                cos, sin = torch.cat(cos_blocks), torch.cat(sin_blocks)
                return validate_rope(cos, sin, name=options.pop("name", f"{type(module).__name__} module"),
                                     **options)
            raise ValueError(f"kind: '{kind}' (expected 'sinusoidal' or 'rope')")
    finally:
        module.train(was_training)
