#!/usr/bin/env python3
"""A model's positional encoding as real code holds it: a PyTorch module whose
buffer covers positions 0 .. MAX_LEN - 1 at width D_MODEL and nothing beyond,
for `pecheck validate --exec --max-position MAX_LEN --dim D_MODEL` (needs torch;
Debian 12: apt-get install python3-torch, then /usr/bin/python3).

  torch_model_length.py --serve MAX_LEN D_MODEL [--log FILE]

It answers --exec-protocol lines requests (ROWS DIM OFFSET DTYPE OUTPUT per
stdin line). Like a model's forward, it allocates its buffer up to the largest
position it is asked for (the tutorial's `pe[:x.size(0)]` needs max_len rows),
and refuses, as an `error` reply, a position at or past MAX_LEN or a width past
D_MODEL: a caller that asks beyond the model is told so. The encoding is the
tutorial's PositionalEncoding computed in torch.float64 (vaswani; conforms).
With --log FILE it appends "LAST_POSITION DIM" per request, so a test can
show what was asked.
"""
import math
import sys

import numpy as np
import torch
from torch import nn

from exec_protocol import serve


class PositionalEncoding(nn.Module):
    """The PyTorch tutorial's module in float64, max_len rows."""

    def __init__(self, d_model, max_len):
        super().__init__()
        position = torch.arange(0, max_len, dtype=torch.float64).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float64) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model, dtype=torch.float64)
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term[: d_model // 2])
        self.register_buffer("pe", pe)


def writer(max_len, d_model, log):
    def write_table(rows, dim, offset, dtype, output):
        last = offset + rows - 1
        if log:
            with open(log, "a") as f:
                f.write(f"{last} {dim}\n")
        if last >= max_len:
            raise ValueError(f"position {last} is past the model's length {max_len}")
        if dim > d_model:
            raise ValueError(f"width {dim} is past the model's d_model {d_model}")
        module = PositionalEncoding(dim, last + 1)  # a buffer up to the largest position asked
        table = module.pe[offset:].to({"float64": torch.float64, "float32": torch.float32,
                                       "float16": torch.float16, "bfloat16": torch.bfloat16}[dtype])
        np.save(output, table.to(torch.float32 if dtype == "bfloat16" else table.dtype).numpy())

    return write_table


def main(argv):
    if len(argv) not in (4, 6) or argv[1] != "--serve" or (len(argv) == 6 and argv[4] != "--log"):
        sys.exit(__doc__)
    serve(writer(int(argv[2]), int(argv[3]), argv[5] if len(argv) == 6 else None))


if __name__ == "__main__":
    main(sys.argv)
