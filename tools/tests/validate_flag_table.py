#!/usr/bin/env python3
"""Every flag `pecheck validate --help` lists is in the table of which flag
applies to which kind of subject (reports/src/validation/validate_flag_table.cpp):
given to each kind, it is either taken or refused with exit 2 and one line
naming it, never silently ignored and never unknown to the table.

The subjects here are files that do not exist, so a flag the kind takes
ends at the file's error (exit 2, naming the file), and one it does not
take at the refusal (exit 2, naming the flag): both come before any work.

  validate_flag_table.py --pecheck BIN --examples DIR --work DIR
"""
import argparse
import re
import subprocess
import sys

# A value each flag accepts, so that its own parsing passes and the table is reached.
VALUES = {
    "--convention": "vaswani", "--offset": "auto", "--dtype": "float32", "--exec-protocol": "lines",
    "--exec-dtype": "float32", "--qkv-format": "bshd", "--model": "hf-float32", "--layout": "rotate-half",
    "--check": "encoding-bounds/unit-interval", "--seed": "1", "--layer-type": "full_attention",
    "--memory-limit": "4096",  # MiB: 1 would stop the child loading its C library
}
FLAGS_WITHOUT_VALUE = {"--json", "--full", "--ulp-only", "--quick", "--kernel"}

# One command line per kind of subject (the files named do not exist).
KINDS = {
    "table file": ["missing.npy"],
    "table exec": ["--exec", "true {rows} {dim} {offset} {output}"],
    "rotary file": ["missing.cos.npy", "--rope", "llama2"],
    "rotary exec": ["--rope", "llama2", "--exec", "true {rows} {dim} {offset} {output}"],
    "rotated file": ["missing.out.npy", "--input", "missing.in.npy", "--positions", "missing.pos.npy"],
    "kernel": ["--kernel", "--rope", "llama2", "--exec", "true {input} {positions} {output} {dtype}"],
    "input layer": ["missing.out.npy", "--vocabulary", "missing.vocab.npy", "--ids", "missing.ids.npy"],
    "vocabulary": ["--vocabulary", "missing.vocab.npy", "--convention", "vaswani"],
}


def main():
    parser = argparse.ArgumentParser()
    for name in ("--pecheck", "--examples"):
        parser.add_argument(name, required=True)
    args, _ = parser.parse_known_args()  # --work: nothing is written
    help_text = subprocess.run([args.pecheck, "validate", "--help"], stdout=subprocess.PIPE, text=True,
                               check=True).stdout
    flags = sorted(set(re.findall(r"^\s+(--[a-z][a-z-]+)", help_text, re.M)) - {"--help", "--help-all"})
    if len(flags) < 30:
        print(f"FAIL: only {len(flags)} flags found in validate --help:\n{help_text}")
        return 1
    failures = []
    for kind, base in KINDS.items():
        for flag in flags:
            if flag in base:
                continue
            extra = [flag] if flag in FLAGS_WITHOUT_VALUE else [flag, VALUES.get(flag, "1")]
            run = subprocess.run([args.pecheck, "validate", *base, *extra], cwd=args.examples,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
            line = run.stderr.strip()
            if "no row in the table" in line:
                failures.append(f"{kind} {flag}: unknown to the table: {line}")
            elif run.returncode == 2 and len(run.stderr.splitlines()) != 1:
                failures.append(f"{kind} {flag}: exit 2 with {len(run.stderr.splitlines())} lines:\n{run.stderr}")
            elif run.returncode not in (1, 2):
                failures.append(f"{kind} {flag}: exit {run.returncode} (expected a refusal or the file's error)")
    for failure in failures:
        print("FAIL", failure)
    print(f"{len(flags)} flags x {len(KINDS)} kinds: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
