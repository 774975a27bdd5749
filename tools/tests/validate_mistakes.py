#!/usr/bin/env python3
"""The natural mistakes of a newcomer, each answered by a message that says
what to do (issue 29), and --atol/--rtol counted as assert_close counts:

- a table saved transposed; a rotary cos table given alone; a (2, rows, d)
  rotary stack given as an additive table; an additive table given as a
  rotary cos/sin pair;
- a misspelt or foreign flag ("did you mean"), on validate and table;
- convention and preset names in any case;
- --atol/--rtol: the entries beyond atol + rtol |exact| are the ones NumPy
  counts against pecheck's correctly rounded float64 table.

  validate_mistakes.py --pecheck BIN --examples DIR --work DIR
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

import numpy as np

failures = []


def run(pecheck, *args, cwd):
    return subprocess.run([pecheck, *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def expect(label, result, status, *needles):
    text = result.stdout + result.stderr
    if result.returncode != status:
        failures.append(f"{label}: exit {result.returncode} (expected {status})\n{text}")
        return
    for needle in needles:
        if needle not in text:
            failures.append(f"{label}: the output lacks {needle!r}\n{text}")
            return


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pecheck", required=True)
    parser.add_argument("--examples", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    w = args.work
    p = args.pecheck

    def pecheck(*a):
        return run(p, *a, cwd=w)

    for made in (pecheck("table", "--convention", "vaswani", "--rows", "512", "--dim", "64", "--impl", "reference",
                         "--output", "pe.npy"),
                 pecheck("table", "--convention", "vaswani", "--rows", "512", "--dim", "64", "--impl", "reference",
                         "--dtype", "float64", "--output", "pe64.npy"),
                 pecheck("rope", "--preset", "llama2", "--rows", "256", "--cos", "cos.npy", "--sin", "sin.npy")):
        if made.returncode != 0:
            sys.exit(f"making the inputs failed:\n{made.stdout}{made.stderr}")
    pe = np.load(os.path.join(w, "pe.npy"))
    np.save(os.path.join(w, "transposed.npy"), np.ascontiguousarray(pe.T))
    cos, sin = np.load(os.path.join(w, "cos.npy")), np.load(os.path.join(w, "sin.npy"))
    np.save(os.path.join(w, "stack.npy"), np.stack([cos, sin]))

    # The mistakes of the input.
    expect("transposed", pecheck("validate", "transposed.npy"), 1, "it looks transposed", "(vaswani)",
           "np.save(path, table.T)")
    expect("cos alone", pecheck("validate", "cos.npy"), 1, "looks like a rotary cos cache", "--sin SIN.npy")
    expect("sin alone", pecheck("validate", "sin.npy"), 1, "looks like a rotary sin cache")
    expect("rotary stack as a table", pecheck("validate", "stack.npy"), 2, "looks like a rotary cache",
           "--rope auto")
    expect("table as a rotary pair", pecheck("validate", "pe.npy", "--sin", "pe.npy"), 1,
           "looks like an additive sinusoidal table (vaswani)", "without --sin")
    # The rotary stack given as it should be is no mistake (the hint is right).
    expect("rotary stack as a cache", pecheck("validate", "stack.npy", "--rope", "auto"), 0, "conforms")

    # Flags spelt as other tools spell them, or misspelt.
    expect("--max-ulps", pecheck("validate", "pe.npy", "--max-ulps", "3"), 2, "unknown option --max-ulps",
           "did you mean --max-ulp?")
    expect("--max-abs-eror", pecheck("validate", "pe.npy", "--max-abs-eror=1e-4"), 2, "did you mean --max-abs-error?")
    expect("--tolerance", pecheck("validate", "pe.npy", "--tolerance", "1e-4"), 2, "did you mean --max-abs-error?")
    expect("table --row", pecheck("table", "--convention", "vaswani", "--row", "4", "--dim", "8", "--output", "x.npy"),
           2, "did you mean --rows?")
    expect("no near flag", pecheck("validate", "pe.npy", "--zzzzzzzzzz"), 2, "unknown option --zzzzzzzzzz")

    # Names in any case.
    expect("--convention Vaswani", pecheck("validate", "pe.npy", "--convention", "Vaswani"), 0, "conforms",
           "convention: vaswani")
    expect("--rope LLAMA2", pecheck("validate", "cos.npy", "--sin", "sin.npy", "--rope", "LLAMA2"), 0, "conforms")

    # --atol/--rtol: assert_close's count, computed here from the float64 table.
    exact = np.load(os.path.join(w, "pe64.npy"))
    stored = pe.astype(np.float64)
    for atol, rtol in ((0.0, 0.0), (3e-8, 0.0), (1e-8, 2e-8)):
        beyond = int(np.count_nonzero(np.abs(stored - exact) > atol + rtol * np.abs(exact)))
        result = pecheck("validate", "pe.npy", "--atol", repr(atol), "--rtol", repr(rtol), "--json")
        if result.returncode not in (0, 1):
            failures.append(f"--atol {atol} --rtol {rtol}: exit {result.returncode}\n{result.stderr}")
            continue
        counted = json.loads(result.stdout)["comparisons"][0]["beyond_budget"]
        status = 0 if beyond == 0 else 1
        print(f"--atol {atol} --rtol {rtol}: {counted} beyond (NumPy: {beyond}), exit {result.returncode}")
        if counted != beyond or result.returncode != status:
            failures.append(f"--atol {atol} --rtol {rtol}: pecheck counts {counted} beyond, exit "
                            f"{result.returncode}; NumPy counts {beyond}")
    text = pecheck("validate", "pe.npy", "--atol", "0")
    expect("--atol text", text, 1, "the assert_close bound", "%) beyond")
    expect("--atol with --exec", pecheck("validate", "--exec", "x {rows} {dim} {offset} {output}", "--atol", "1"), 2,
           "--atol applies only to a FILE")

    if failures:
        sys.exit("validate mistakes:\n" + "\n".join(failures))


if __name__ == "__main__":
    main()
