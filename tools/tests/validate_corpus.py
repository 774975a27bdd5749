#!/usr/bin/env python3
"""The validate corpus: `pecheck validate`'s text and --json output on tables,
rotary caches and input layers made here, held against the outputs recorded
in tools/tests/corpus/ (one NAME.txt and NAME.json per case, the exit status
on the first line of the .txt).

It guards behaviour across restructurings of the validation pipeline: a
difference is either a regression or a change that CHANGELOG.md lists with
its reason, after which the corpus is re-recorded with --record.

  validate_corpus.py --pecheck BIN --examples DIR --work DIR [--record] [--only NAME]

Every input is made at run time, deterministically: by `pecheck table` and
`pecheck rope` (the fast path, bit-identical on every build), and by the
NumPy example scripts (fixed seeds, each value rounded once). Files are
named relative to the work directory, which is the command's working
directory, so the outputs hold no machine path.
"""
import argparse
import difflib
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")

# name: (list of making steps, validate arguments). A step is
# ("pecheck", args) or ("py", script, args) or ("inline", python code).
CASES = {}


def case(name, steps, validate):
    CASES[name] = (steps, validate)


def table(convention, rows, dim, dtype="float32", offset=0, ext="npy", out=None):
    out = out or f"{convention}-{rows}x{dim}-{dtype}-o{offset}.{ext}"
    return ("pecheck", ["table", "--convention", convention, "--rows", str(rows), "--dim", str(dim), "--offset",
                        str(offset), "--dtype", dtype, "--output", out]), out


# Every additive preset in float32, and the formats and offsets.
for preset in ["vaswani", "tf-tutorial", "tensor2tensor", "fairseq", "musicgen", "marian-hf"]:
    step, out = table(preset, 64, 32)
    case(f"table-{preset}", [step], [out])
for dtype in ["float64", "float16", "bfloat16"]:
    step, out = table("vaswani", 128, 64, dtype)
    case(f"table-vaswani-{dtype}", [step], [out])
step, out = table("tensor2tensor", 96, 48, "bfloat16", ext="safetensors")
case("table-safetensors-bfloat16", [step], [out])
step, out = table("fairseq", 40, 16, "float16", ext="safetensors")
case("table-safetensors-float16", [step], [out])
step, out = table("vaswani", 50, 33)
case("table-odd-width", [step], [out])
step, out = table("vaswani", 64, 32, offset=1000)
case("table-offset-1000", [step], [out])
case("table-offset-given-wrong", [step], [out, "--offset", "3"])
step, out = table("vaswani", 64, 32)
case("table-convention-given", [step], [out, "--convention", "vaswani"])
case("table-convention-mismatch", [step], [out, "--convention", "tf-tutorial"])
case("table-max-ulp", [step], [out, "--max-ulp", "0.25"])
case("table-max-abs-error", [step], [out, "--max-abs-error", "1e-9"])
case("table-ulp-only", [step], [out, "--ulp-only"])
case("table-sample", [step], [out, "--sample", "8"])
case("table-dtype-float64", [step], [out, "--dtype", "float64"])

# NumPy tables: each fault of CONVENTIONS.md's list.
NT = "numpy_tables.py"
for name, args in {
    "np-correct-float32": ["vaswani", "256", "64", "0", "float32"],
    "np-angles-float64": ["vaswani", "256", "64", "0", "float64", "--angles", "float64"],
    "np-angles-float32": ["vaswani", "2048", "64", "0", "float32", "--angles", "float32"],
    "np-angles-float16": ["tf-tutorial", "512", "32", "0", "float32", "--angles", "float16"],
    "np-angles-bfloat16": ["vaswani", "512", "32", "0", "float32", "--angles", "bfloat16"],
    "np-positions-bfloat16": ["vaswani", "600", "32", "0", "float32", "--positions", "bfloat16"],
    "np-positions-float16": ["tensor2tensor", "3000", "16", "0", "float32", "--positions", "float16"],
    "np-noise": ["vaswani", "64", "32", "0", "float32", "--noise"],
    "np-scaled-sqrt-d": ["vaswani", "64", "32", "0", "float32", "--scale", "sqrt-d"],
    "np-buffer-1nd": ["fairseq", "64", "32", "0", "float32", "--buffer", "1nd"],
    "np-pytorch-tutorial": ["pytorch-tutorial", "4096", "32", "0", "float32"],
    "np-transformer-xl": ["transformer-xl", "64", "32", "0", "float32"],
    "np-espnet-rel": ["espnet-rel", "63", "32", "0", "float32"],
}.items():
    out = name + ".npy"
    case(name, [("py", NT, args[:5] + [out] + args[5:])], [out])

# Values out of range and non-finite, written inline from a correct table.
step, out = table("vaswani", 32, 16)
case("table-non-finite", [step, ("inline", f"import numpy as np; t = np.load('{out}'); t[3, 5] = np.nan; "
                                            f"t[7, 2] = np.inf; np.save('nonfinite.npy', t)")], ["nonfinite.npy"])
case("table-out-of-range", [step, ("inline", f"import numpy as np; t = np.load('{out}'); t[4, 1] = 1.5; "
                                              f"np.save('outofrange.npy', t)")], ["outofrange.npy"])

# Input layers: the scale faults, and the vocabulary alone.
IL = "numpy_input_layer.py"
for name, scale, dtype in [("il-sqrt", "sqrt", "float32"), ("il-one", "one", "float32"),
                           ("il-twice", "twice", "float32"), ("il-divided", "divided", "float32"),
                           ("il-bfloat16-scale", "sqrt-bfloat16", "bfloat16")]:
    case(name, [("py", IL, ["vaswani", "4", "24", "32", dtype, scale, name])],
         [name + ".output.npy", "--vocabulary", name + ".vocab.npy", "--ids", name + ".ids.npy"])
case("il-positions", [("py", IL, ["tensor2tensor", "3", "20", "16", "float32", "sqrt", "ilp", "--first-position",
                                  "100"])],
     ["ilp.output.npy", "--vocabulary", "ilp.vocab.npy", "--ids", "ilp.ids.npy", "--positions", "ilp.positions.npy"])
case("vocabulary-alone", [("py", IL, ["vaswani", "2", "8", "32", "float32", "sqrt", "voc"])],
     ["--vocabulary", "voc.vocab.npy", "--convention", "vaswani"])

# Rotary caches: pecheck's own, then the Hugging Face formulas with each fault.
for preset, rows in [("llama2", 64), ("llama3.1", 64), ("qwen2", 32)]:
    cos, sin = f"rope-{preset}.cos.npy", f"rope-{preset}.sin.npy"
    case(f"rope-{preset}", [("py", "rope_caches.py", ["--preset", preset, "--rows", str(rows), "--cos", cos,
                                                       "--sin", sin])],
         [cos, "--sin", sin])
RC = "rope_caches.py"
for name, args in {
    "rc-llama2-given": ["--preset", "llama2", "--rows", "128"],
    "rc-first-position": ["--preset", "llama3.1", "--rows", "128", "--first-position", "9000"],
    "rc-bfloat16": ["--preset", "llama2", "--rows", "128", "--dtype", "bfloat16"],
    "rc-float16": ["--preset", "mistral", "--rows", "128", "--dtype", "float16"],
    "rc-interleaved": ["--preset", "gpt-j", "--rows", "64"],
    "rc-complex": ["--preset", "llama2-meta", "--rows", "64"],
    "rc-positions-bfloat16": ["--preset", "llama2", "--rows", "1024", "--first-position", "15000",
                              "--positions", "bfloat16"],
    "rc-angles-bfloat16": ["--preset", "llama2", "--rows", "256", "--angles", "bfloat16"],
    "rc-angles-float16": ["--preset", "llama2", "--rows", "256", "--first-position", "2000", "--angles", "float16"],
    "rc-inv-freq-bfloat16": ["--preset", "llama2", "--rows", "256", "--inv-freq", "bfloat16"],
    "rc-wrong-base": ["--preset", "llama2", "--rows", "256", "--base", "500000"],
    "rc-scaling-dropped": ["--preset", "llama3.1", "--rows", "256", "--scaling", "none"],
    "rc-swapped": ["--preset", "llama2", "--rows", "128", "--swap-cos-sin"],
    "rc-attention-missing": ["--preset", "yarn", "--rows", "128", "--attention-factor", "missing"],
    "rc-yarn": ["--preset", "yarn", "--rows", "128"],
    "rc-dynamic": ["--preset", "llama2-dynamic", "--rows", "64", "--sequence-length", "8192"],
    "rc-gpt-neox": ["--preset", "gpt-neox", "--rows", "64"],
}.items():
    cos, sin = name + ".cos.npy", name + ".sin.npy"
    validate = [cos, "--sin", sin]
    if name == "rc-llama2-given":
        validate += ["--rope", "llama2"]
    if name == "rc-wrong-base":
        validate += ["--rope", "llama2"]
    if name == "rc-scaling-dropped":
        validate += ["--rope", "llama3.1"]
    case(name, [("py", RC, args + ["--cos", cos, "--sin", sin])], validate)
case("rc-offset-given-wrong", [("py", RC, ["--preset", "llama2", "--rows", "64", "--first-position", "10", "--cos",
                                           "off.cos.npy", "--sin", "off.sin.npy"])],
     ["off.cos.npy", "--sin", "off.sin.npy", "--offset", "0"])


def make(steps, pecheck, examples, work):
    for step in steps:
        if step[0] == "pecheck":
            command = [pecheck] + step[1]
        elif step[0] == "py":
            command = [sys.executable, os.path.join(examples, step[1])] + step[2]
        else:
            command = [sys.executable, "-c", step[1]]
        done = subprocess.run(command, cwd=work, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"making the input failed: {' '.join(command)}\n{done.stderr}")


def run(pecheck, work, args):
    """(text output with the exit status first, json output)."""
    text = subprocess.run([pecheck, "validate"] + args, cwd=work, capture_output=True, text=True)
    json_ = subprocess.run([pecheck, "validate"] + args + ["--json"], cwd=work, capture_output=True, text=True)
    return (f"exit {text.returncode}\n{text.stdout}{text.stderr}", f"{json_.stdout}{json_.stderr}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pecheck", required=True)
    parser.add_argument("--examples", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--record", action="store_true", help="write the outputs as the corpus")
    parser.add_argument("--only")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    os.makedirs(CORPUS, exist_ok=True)
    failures = []
    names = [args.only] if args.only else sorted(CASES)
    for name in names:
        steps, validate = CASES[name]
        make(steps, os.path.abspath(args.pecheck), os.path.abspath(args.examples), args.work)
        outputs = run(os.path.abspath(args.pecheck), args.work, validate)
        # Every line of the text output is under 100 characters (issue 29), recorded or not.
        for line in outputs[0].splitlines():
            if len(line) >= 100:
                failures.append(f"{name}.txt: a line of {len(line)} characters: {line}")
        for suffix, got in zip((".txt", ".json"), outputs):
            path = os.path.join(CORPUS, name + suffix)
            if args.record:
                with open(path, "w") as f:
                    f.write(got)
                continue
            with open(path) as f:
                want = f.read()
            if got != want:
                diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "recorded", "now"))
                failures.append(f"{name}{suffix}:\n{diff}")
    if failures:
        print(f"{len(failures)} outputs differ from the corpus (tools/tests/corpus):\n" + "\n".join(failures))
        return 1
    print(f"{len(names)} cases, {2 * len(names)} outputs: {'recorded' if args.record else 'as recorded'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
