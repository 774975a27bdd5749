#!/usr/bin/env python3
"""A deliberately broken --exec command, one fault per MODE, for the tests of
`pecheck validate --exec` (each must be reported, never crash pecheck; crash,
segfault and no-file fail on the first call, so pecheck stops with exit 2):

  faulty_encoding.py MODE ROWS DIM OFFSET DTYPE OUTPUT

  crash        raise an exception (exit status 1, a traceback on stderr)
  segfault     die by SIGSEGV
  hang         sleep far past any timeout
  no-file      exit 0 without writing OUTPUT
  wrong-shape  write one row too many
  float32-angles  write the table the PyTorch tutorial's way (valid, but not
                  within the budget past the first rows)
"""
import os
import signal
import subprocess
import sys
import time


def main(mode, rows, dim, offset, dtype, output):
    if mode == "crash":
        raise RuntimeError("this implementation is broken on purpose")
    if mode == "segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "hang":
        time.sleep(3600)
    if mode == "no-file":
        return
    here = os.path.dirname(os.path.abspath(__file__))
    args = [sys.executable, os.path.join(here, "numpy_tables.py"), "vaswani", rows, dim, offset, dtype, output]
    if mode == "wrong-shape":
        args[3] = str(int(rows) + 1)
    elif mode == "float32-angles":
        args += ["--angles", "float32"]
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    subprocess.run(args, check=True)


if __name__ == "__main__":
    if len(sys.argv) != 7:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
