#!/usr/bin/env python3
"""Positional-encoding tables computed by PyTorch code as it is published, for
`pecheck validate` (needs torch and numpy; pecheck's tests use numpy_tables.py,
which needs NumPy only).

  torch_tables.py SOURCE ROWS DIM OFFSET DTYPE OUTPUT

SOURCE:
  pytorch-tutorial  the PyTorch Transformer tutorial's PositionalEncoding
                    (vaswani layout; float32 frequencies, positions and angles)
  fairseq           fairseq's SinusoidalPositionalEmbedding.get_embedding
                    (timescale rule, sin-cos halves, padding row 1 zeroed)
Row r holds the source's row r + OFFSET; DTYPE float32, float16 or bfloat16
(the table is cast with torch, as a model would; bfloat16 is saved as float32).

Usable as an --exec command:
  pecheck validate --exec 'python3 torch_tables.py fairseq {rows} {dim} {offset} {dtype} {output}' --convention fairseq
"""
import math
import sys

import numpy as np
import torch


def pytorch_tutorial(max_len, d_model):
    # As in the tutorial: position * div_term in float32.
    position = torch.arange(max_len).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
    pe = torch.zeros(max_len, d_model)
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term[: d_model // 2])
    return pe


def fairseq(num_embeddings, embedding_dim, padding_idx=1):
    # As in fairseq's get_embedding (float32 throughout).
    half_dim = embedding_dim // 2
    emb = math.log(10000) / (half_dim - 1)
    emb = torch.exp(torch.arange(half_dim, dtype=torch.float) * -emb)
    emb = torch.arange(num_embeddings, dtype=torch.float).unsqueeze(1) * emb.unsqueeze(0)
    emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=1).view(num_embeddings, -1)
    if embedding_dim % 2 == 1:
        emb = torch.cat([emb, torch.zeros(num_embeddings, 1)], dim=1)
    if padding_idx is not None:
        emb[padding_idx, :] = 0
    return emb


def main(source, rows, dim, offset, dtype, output):
    rows, dim, offset = int(rows), int(dim), int(offset)
    build = {"pytorch-tutorial": pytorch_tutorial, "fairseq": fairseq}[source]
    table = build(offset + rows, dim)[offset:]
    table = table.to(getattr(torch, dtype))
    if dtype == "bfloat16":
        table = table.to(torch.float32)  # exact: NumPy has no bfloat16
    np.save(output, table.numpy())


if __name__ == "__main__":
    if len(sys.argv) != 7:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
