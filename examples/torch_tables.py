#!/usr/bin/env python3
"""Positional-encoding tables taken from the buffers of PyTorch nn.Modules
written as their sources publish them, for `pecheck validate` (needs torch
and numpy; Debian 12: apt-get install python3-torch, then /usr/bin/python3).

  torch_tables.py SOURCE ROWS DIM OFFSET DTYPE OUTPUT
  torch_tables.py --serve SOURCE     answer --exec-protocol lines requests
                                     (ROWS DIM OFFSET DTYPE OUTPUT per stdin line)

SOURCE:
  pytorch-tutorial  the PyTorch Transformer tutorial's PositionalEncoding
                    (vaswani layout; float32 frequencies, positions and angles:
                    deviates past the first rows, as pecheck reports)
  fairseq           fairseq's SinusoidalPositionalEmbedding.get_embedding
                    (timescale rule, sin-cos halves, padding row 1 zeroed;
                    float32 throughout)
  float64-module    the tutorial's module computed in torch.float64, then cast
                    (vaswani; conforms)
Row r holds the source's row r + OFFSET. DTYPE float64, float32, float16 or
bfloat16: the module's buffer is cast with torch, as model.to(dtype) does
(bfloat16 is saved as float32 holding the bfloat16 values: NumPy has none).

The modules hold rows [first, first + max_len) of their table: with first = 0
this is the published code; a row depends only on its position, so a slice at
a large offset costs only its own rows (pecheck asks for positions up to 2^24).

As --exec commands (torch loads once with the lines protocol):
  pecheck validate --exec 'python3 torch_tables.py --serve float64-module' --exec-protocol lines --convention vaswani
  pecheck validate --exec 'python3 torch_tables.py fairseq {rows} {dim} {offset} {dtype} {output}' --convention fairseq
"""
import math
import sys

import numpy as np
import torch
from torch import nn


class PositionalEncoding(nn.Module):
    """The PyTorch tutorial's module (pe is a (max_len, 1, d_model) buffer),
    with the first position and the computing dtype as parameters."""

    def __init__(self, d_model, max_len=5000, first=0, dtype=torch.float32):
        super().__init__()
        position = torch.arange(first, first + max_len, dtype=dtype).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2, dtype=dtype) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model, dtype=dtype)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term[: d_model // 2])
        self.register_buffer("pe", pe)

    def forward(self, x):  # x: (seq_len, batch, d_model), as in the tutorial
        return x + self.pe[: x.size(0)]


class SinusoidalPositionalEmbedding(nn.Module):
    """fairseq's module: get_embedding builds the weights (float32), held here
    as a buffer; padding_idx's row is zero."""

    def __init__(self, embedding_dim, padding_idx=1, init_size=1024, first=0):
        super().__init__()
        self.register_buffer("weights", self.get_embedding(first, init_size, embedding_dim, padding_idx))

    @staticmethod
    def get_embedding(first, num_embeddings, embedding_dim, padding_idx=None):
        half_dim = embedding_dim // 2
        emb = math.log(10000) / (half_dim - 1)
        emb = torch.exp(torch.arange(half_dim, dtype=torch.float) * -emb)
        emb = torch.arange(first, first + num_embeddings, dtype=torch.float).unsqueeze(1) * emb.unsqueeze(0)
        emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=1).view(num_embeddings, -1)
        if embedding_dim % 2 == 1:
            emb = torch.cat([emb, torch.zeros(num_embeddings, 1)], dim=1)
        if padding_idx is not None and first <= padding_idx < first + num_embeddings:
            emb[padding_idx - first, :] = 0
        return emb


def module_table(source, rows, dim, offset):
    """The (rows, dim) buffer of the source's module holding rows offset.. ."""
    if source == "pytorch-tutorial":
        return PositionalEncoding(dim, max_len=rows, first=offset).pe[:, 0, :]
    if source == "float64-module":
        return PositionalEncoding(dim, max_len=rows, first=offset, dtype=torch.float64).pe[:, 0, :]
    if source == "fairseq":
        return SinusoidalPositionalEmbedding(dim, init_size=rows, first=offset).weights
    raise ValueError(f"unknown source {source!r} (pytorch-tutorial, fairseq, float64-module)")


def write_table(source, rows, dim, offset, dtype, output):
    rows, dim, offset = int(rows), int(dim), int(offset)
    table = module_table(source, rows, dim, offset).to(getattr(torch, dtype))
    if dtype == "bfloat16":
        table = table.to(torch.float32)  # exact: NumPy has no bfloat16
    np.save(output, table.numpy())


def main(argv):
    if len(argv) == 2 and argv[0] == "--serve":
        import exec_protocol

        exec_protocol.serve(lambda *request: write_table(argv[1], *request))
        return
    if len(argv) != 6:
        raise SystemExit(__doc__)
    write_table(*argv)


if __name__ == "__main__":
    main(sys.argv[1:])
