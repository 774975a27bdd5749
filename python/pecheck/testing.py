"""Assertions for test suites: pecheck's verdict with a message like torch.testing.assert_close's.

    pecheck.testing.assert_encoding_close(pe, convention="vaswani")
    pecheck.testing.assert_rope_close((cos, sin), rope="llama3.1")

Each validates its argument as pecheck.validate / validate_rope do and returns the
Validation when it conforms; otherwise it raises AssertionError whose message gives
the mismatched elements (count and share), the greatest ULP error, absolute and
relative difference with their indices in the tensor as given, and the diagnosis.
"""

import numpy as np

from ._validation import validate, validate_rope


def _index_text(index):
    return "(" + ", ".join(str(i) for i in index) + ("," if len(index) == 1 else "") + ")"


def _greatest(tables, expected):
    """The largest absolute and relative differences from `expected` (float64, the tables' columns side by side).

    Each is (difference, table number, row, column); the relative difference of an
    entry whose expected value is 0 is infinite unless the entry is 0 too.
    """
    best_abs, best_rel = None, None
    first = 0
    for k, t in enumerate(tables):
        actual = _values(t)
        exact = expected[:, first:first + actual.shape[1]]
        first += actual.shape[1]
        with np.errstate(divide="ignore", invalid="ignore"):
            diff = np.abs(actual - exact)
            rel = np.where(diff == 0, 0.0, diff / np.abs(exact))
        for which, values in (("abs", diff), ("rel", rel)):
            # NaN in the table wins: it is the greatest difference there is.
            flat = int(np.argmax(np.where(np.isnan(values), np.inf, values)))
            r, c = divmod(flat, values.shape[1])
            found = (float(values[r, c]), k, r, c)
            current = best_abs if which == "abs" else best_rel
            if current is None or not (found[0] <= current[0]):
                if which == "abs":
                    best_abs = found
                else:
                    best_rel = found
    return best_abs, best_rel


def _values(table):
    """A table's values as float64 (bfloat16 from its 16-bit patterns: the upper half of a float32)."""
    if table.format == "bfloat16":
        return (table.array.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return table.array.astype(np.float64)


def _where(tables, k, r, c, names):
    t = tables[k]
    return f"{names[k]}index {_index_text(t.index_of(r, c))}"


def failure_message(result, what, header=None):
    """The AssertionError text for a Validation that does not conform."""
    tables = result._tables
    names = [""] if len(tables) == 1 else ["cos ", "sin "]
    lines = [header or f"{what} is not close to the exact encoding (pecheck: {result.verdict})!", ""]
    comparisons = result.comparisons
    if comparisons:
        c = comparisons[0]
        if c.beyond_budget is not None:
            share = 100.0 * c.beyond_budget / c.entries if c.entries else 0.0
            lines.append(f"Mismatched elements: {c.beyond_budget} / {c.entries} ({share:.3g}%)")
        w = c.worst
        cols = tables[0].array.shape[1]
        k, col = (1, w.column - cols) if len(tables) == 2 and w.column >= cols else (0, w.column)
        lines.append(f"Greatest ULP error: {w.ulp:.4g} at {_where(tables, k, w.row, col, names)} (position "
                     f"{w.position}: {w.value_hex} against exact {w.exact}) (up to {c.budget_ulp:.4g} allowed: "
                     f"{c.budget_source})")
        expected = result._reference_values()
        if expected is not None:
            (a, ka, ra, ca), (rel, kr, rr, cr) = _greatest(tables, expected)
            lines.append(f"Greatest absolute difference: {a:.4g} at {_where(tables, ka, ra, ca, names)}")
            lines.append(f"Greatest relative difference: {rel:.4g} at {_where(tables, kr, rr, cr, names)}")
        for other in comparisons[1:]:
            lines.append(f"Against {other.target}: max {other.max_ulp:.4g} ULP, "
                         f"{'conforms' if other.conforms else 'deviates'}")
    settled = ", ".join(part for part in (
        f"convention {result.convention}" if result.convention else "",
        f"offset {result.offset}" if result.offset is not None else "",
        f"layout {result.layout}" if result.layout else "") if part)
    lines.append("Read as: " + (settled or "no convention could be settled"))
    if result.hazards:
        lines.append("Diagnosis:")
        lines.extend(f"  {h.kind}: {h.evidence}" for h in result.hazards)
    if result.reasons:
        lines.append("Why: " + "; ".join(result.reasons))
    return "\n".join(lines)


def assert_encoding_close(actual, convention="auto", offset="auto", max_ulp=None, max_abs_error=None, *,
                          msg=None, **options):
    """Asserts that an additive encoding table conforms; returns its Validation (see pecheck.validate)."""
    result = validate(actual, convention=convention, offset=offset, max_ulp=max_ulp, max_abs_error=max_abs_error,
                      **options)
    if not result.conforms:
        raise AssertionError(failure_message(result, "Positional-encoding table", msg))
    return result


# The name for the same assertion.
assert_conforms = assert_encoding_close


def assert_rope_close(actual, sin=None, config=None, rope="auto", *, offset="auto", max_ulp=None, msg=None,
                      **options):
    """Asserts that a rotary cache conforms; returns its Validation (see pecheck.validate_rope).

    `actual` is (cos, sin), or cos with sin=..., or a (2, N, d) stack or complex freqs_cis.
    """
    if isinstance(actual, (tuple, list)) and sin is None:
        actual, sin = actual
    result = validate_rope(actual, sin, config=config, rope=rope, offset=offset, max_ulp=max_ulp, **options)
    if not result.conforms:
        raise AssertionError(failure_message(result, "Rotary cache", msg))
    return result
