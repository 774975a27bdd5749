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
    def handle(line):
        rows, dim, offset, dtype, output = line.split(" ", 4)
        write_table(int(rows), int(dim), int(offset), dtype, output)
    serve_lines(handle)


def serve_lines(handle):
    """Answers one request line at a time until stdin ends: handle(line) does the work, and a line
    it raises on is answered "error MESSAGE" (a RoPE kernel's requests are DTYPE INPUT POSITIONS OUTPUT)."""
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        try:
            handle(line)
        except Exception as error:  # one failed request is a reply, not the end of the server
            traceback.print_exc(file=sys.stderr)
            message = " ".join(f"{type(error).__name__}: {error}".split())  # one line
            print(f"error {message}", flush=True)
        else:
            print("ok", flush=True)
