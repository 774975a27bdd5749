"""pecheck.testing's assertions: silent on a conforming table, torch.testing-style messages with the diagnosis otherwise."""

import re

import numpy as np
import pytest
import torch

import pecheck
from pecheck.testing import assert_encoding_close, assert_rope_close


def message_of(call):
    with pytest.raises(AssertionError) as raised:
        call()
    return str(raised.value)


def test_a_conforming_table_passes_and_returns_its_validation():
    result = assert_encoding_close(torch.from_numpy(pecheck.table("vaswani", 128, 32)), convention="vaswani")
    assert result.conforms


def test_the_message_counts_and_places_the_mismatches_as_assert_close_does():
    exact = pecheck.table("vaswani", 256, 32, dtype="float64")
    table = pecheck.table("vaswani", 256, 32, dtype="float32")
    # Three entries moved by 2^-12, far past the float32 budget.
    moved = [(10, 3), (200, 17), (255, 31)]
    for r, c in moved:
        table[r, c] += np.float32(2.0 ** -12) * (1 if table[r, c] < 0 else -1)
    tensor = torch.from_numpy(table)[None]  # (1, N, d): indices are given in the tensor's shape
    text = message_of(lambda: assert_encoding_close(tensor, convention="vaswani", offset=0))
    assert text.startswith("Positional-encoding table is not close to the exact encoding (pecheck: deviates)!")
    total = table.size
    assert f"Mismatched elements: 3 / {total} ({100 * 3 / total:.3g}%)" in text
    difference = np.abs(table.astype(np.float64) - exact)
    r, c = np.unravel_index(np.argmax(difference), difference.shape)
    assert (r, c) in moved
    assert f"Greatest absolute difference: {difference[r, c]:.4g} at index (0, {r}, {c})" in text
    with np.errstate(divide="ignore", invalid="ignore"):  # equal entries differ by 0, as assert_close counts them
        relative = np.where(difference == 0, 0.0, difference / np.abs(exact))
    rr, rc = np.unravel_index(np.argmax(relative), relative.shape)
    assert f"Greatest relative difference: {relative[rr, rc]:.4g} at index (0, {rr}, {rc})" in text
    assert re.search(r"Greatest ULP error: [0-9.e+]+ at index \(0, \d+, \d+\) \(position \d+: ", text)
    assert "Read as: convention vaswani, offset 0" in text
    assert "Why: " in text


def test_the_message_carries_the_diagnosis():
    rows = 4096
    table = pecheck.table("vaswani", rows + 1, 64)[np.arange(rows).astype(np.float16).astype(np.int64)]
    text = message_of(lambda: assert_encoding_close(table, convention="vaswani"))
    assert "Diagnosis:\n  position-precision: 1023 pairs of successive rows are identical" in text


def test_a_rotary_message_names_the_table_of_each_index():
    cos, sin = pecheck.reference.rope_cache("llama2", 512, dtype="float32")
    sin = sin.copy()
    sin[300, 70] = -sin[300, 70] + np.float32(0.25)
    text = message_of(lambda: assert_rope_close((cos, sin), rope="llama2", offset=0))
    assert text.startswith("Rotary cache is not close to the exact encoding (pecheck: deviates)!")
    assert "Greatest absolute difference: " in text and "at sin index (300, 70)" in text


def test_a_given_message_replaces_the_first_line():
    table = np.zeros((16, 8), dtype=np.float32)
    text = message_of(lambda: assert_encoding_close(table, msg="my kernel's table"))
    assert text.startswith("my kernel's table\n")
    assert "Read as: " in text
