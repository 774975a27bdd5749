"""The `lines` protocol of `pecheck validate --exec-protocol lines`, for the
example adapters: pecheck starts the command once and writes one request per
line on its stdin,

  ROWS DIM OFFSET DTYPE OUTPUT

(OUTPUT, the rest of the line, is an absolute path); the command writes the
table at OUTPUT and answers one line on its stdout: "ok", or "error MESSAGE"
when it cannot. Nothing else goes to stdout (diagnostics go to stderr). The
command exits when its stdin ends.
"""
import sys
import traceback


def serve(write_table):
    """Answers requests until stdin ends; write_table(rows, dim, offset, dtype, output)."""
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        try:
            rows, dim, offset, dtype, output = line.split(" ", 4)
            write_table(int(rows), int(dim), int(offset), dtype, output)
        except Exception as error:  # one failed request is a reply, not the end of the server
            traceback.print_exc(file=sys.stderr)
            message = " ".join(f"{type(error).__name__}: {error}".split())  # one line
            print(f"error {message}", flush=True)
        else:
            print("ok", flush=True)
