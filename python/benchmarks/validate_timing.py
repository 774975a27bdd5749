"""Times pecheck's Python entry points against the command line on the same data.

    PYTHONPATH=build/python python3 python/benchmarks/validate_timing.py build/tools/pecheck

Prints, for a 65536 x 128 float32 table (pecheck.validate) and a 32768 x 128
float32 rotary cache (pecheck.validate_rope), the best of five wall times of the
call on live tensors, of `pecheck validate` on the same values saved as .npy
(the whole command: start, read, validate), their ratio, and the peak resident
memory each added over the tensors; and `import pecheck` in a fresh
interpreter (best of five). The issue's targets: within 1.2x of the command
line, peak memory within 1.2x of the tensors, the import under 0.3 s.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

import pecheck


def best_of(runs, call):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def python_peak(code):
    """(resident KiB once the tensors are made, peak resident KiB of the call) in a fresh interpreter.

    The peak is reset before the call (Linux: writing 5 to /proc/self/clear_refs
    resets VmHWM), so what making the tensors took does not count.
    """
    script = ("import numpy as np, torch, pecheck\n"
              "def status(key):\n"
              "    return int(next(l for l in open('/proc/self/status') if l.startswith(key)).split()[1])\n" +
              code.split("#RUN")[0] + "\nopen('/proc/self/clear_refs', 'w').write('5')\nbase = status('VmRSS:')\n" +
              code.split("#RUN")[1] + "\nprint(base, status('VmHWM:'))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), int(out[1])


def import_seconds(runs=5):
    """`import pecheck` alone, in fresh interpreters (NumPy's import included: pecheck needs it), best of `runs`."""
    code = "import time; t = time.perf_counter(); import pecheck; print(time.perf_counter() - t)"
    return min(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
               for _ in range(runs))


def main(cli):
    with tempfile.TemporaryDirectory() as tmp:
        table = torch.from_numpy(pecheck.table("vaswani", 65536, 128, impl="fast"))
        np.save(os.path.join(tmp, "pe.npy"), table.numpy())
        cos, sin = (torch.from_numpy(t) for t in pecheck.rope_cache("llama3.1", 32768, impl="fast"))
        np.save(os.path.join(tmp, "cos.npy"), cos.numpy())
        np.save(os.path.join(tmp, "sin.npy"), sin.numpy())
        cases = [
            ("validate 65536 x 128 float32", lambda: pecheck.validate(table),
             [cli, "validate", os.path.join(tmp, "pe.npy")], table.numel() * 4,
             "t = torch.from_numpy(pecheck.table('vaswani', 65536, 128, impl='fast'))\n#RUN\npecheck.validate(t)"),
            ("validate_rope 32768 x 128 float32", lambda: pecheck.validate_rope(cos, sin, rope="llama3.1"),
             [cli, "validate", os.path.join(tmp, "cos.npy"), "--sin", os.path.join(tmp, "sin.npy"), "--rope",
              "llama3.1"], (cos.numel() + sin.numel()) * 4,
             "c, s = (torch.from_numpy(t) for t in pecheck.rope_cache('llama3.1', 32768, impl='fast'))\n#RUN\n"
             "pecheck.validate_rope(c, s, rope='llama3.1')"),
        ]
        figures = []
        for name, call, command, data_bytes, peak_code in cases:
            python_s = best_of(5, call)
            cli_s = best_of(5, lambda: subprocess.run(command, capture_output=True, check=False))
            base, peak = python_peak(peak_code)
            added = (peak - base) * 1024
            figures.append({"case": name, "python_s": python_s, "cli_s": cli_s, "ratio": python_s / cli_s,
                            "data_bytes": data_bytes, "peak_added_bytes": added,
                            "peak_added_over_data": added / data_bytes})
            print(f"{name}: python {python_s * 1e3:.1f} ms, command line {cli_s * 1e3:.1f} ms "
                  f"(ratio {python_s / cli_s:.2f}); peak memory added {added / 2**20:.1f} MiB over "
                  f"{data_bytes / 2**20:.1f} MiB of tensors ({added / data_bytes:.2f}x)")
        seconds = import_seconds()
        print(f"import pecheck: {seconds * 1e3:.1f} ms (target < 300 ms)")
        figures.append({"case": "import pecheck", "seconds": seconds})
        print(json.dumps(figures))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "pecheck")
