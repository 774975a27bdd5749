#!/usr/bin/env python3
"""Every command the README and docs/ show as runnable, run as a doctest is:
a ```sh block preceded by the line `<!-- runnable -->` (or `<!-- runnable:
exit N -->` where the page says the commands end with status N) is run as a
bash script (`set -e -o pipefail`, so its first failing command ends it),
with `build/tools/pecheck` replaced by the build's pecheck, `python3` and
`/usr/bin/python3` by the Python running this test, and `examples/` by the
source's examples/. The block must end with the status the page gives (0 when it
gives none). A code block preceded by `<!-- runnable: file NAME -->` is
written to NAME first (a module the page asks the reader to save). The
blocks of one page run in order in one fresh directory, as a reader runs
them. A page whose runnable block broke shows here, not in a newcomer's
first minute.

  doc_commands.py --pecheck BIN --examples DIR --work DIR [--list]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

MARK = re.compile(r"^\s*<!-- runnable(?::\s*(?:exit\s+(\d+)|file\s+(\S+)))?\s*-->\s*$")


def runnable_blocks(path):
    """(line number, expected status or None for a file, file name, text) of each marked block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks = []
    k = 0
    while k < len(lines):
        mark = MARK.match(lines[k])
        if not mark:
            k += 1
            continue
        fence = lines[k + 1].strip() if k + 1 < len(lines) else ""
        name = mark.group(2)
        if not fence.startswith("```") or (name is None and fence != "```sh"):
            sys.exit(f"{path}:{k + 1}: a runnable mark must stand right above a ```sh block (or any block with file NAME)")
        end = k + 2
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        if end == len(lines):
            sys.exit(f"{path}:{k + 2}: a runnable block is never closed")
        # A block indented in a list item loses the item's indentation.
        body = lines[k + 2:end]
        indent = len(lines[k + 1]) - len(lines[k + 1].lstrip())
        body = [line[indent:] if line[:indent].strip() == "" else line for line in body]
        status = None if name else int(mark.group(1) or 0)
        blocks.append((k + 2, status, name, "\n".join(body) + "\n"))
        k = end + 1
    return blocks


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pecheck", required=True)
    parser.add_argument("--examples", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    source = os.path.dirname(os.path.abspath(args.examples))
    pages = [os.path.join(source, "README.md")] + sorted(
        os.path.join(source, "docs", name) for name in os.listdir(os.path.join(source, "docs")) if name.endswith(".md"))
    failures = []
    tested = 0
    shutil.rmtree(args.work, ignore_errors=True)
    for number, page in enumerate(pages):
        directory = os.path.join(args.work, str(number))
        os.makedirs(directory)
        for line, expected, name, text in runnable_blocks(page):
            where = f"{os.path.relpath(page, source)}:{line}"
            if name:
                with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
                    f.write(text)
                continue
            tested += 1
            if args.list:
                print(f"{where} (exit {expected})\n{text}")
                continue
            body = text.replace("build/tools/pecheck", args.pecheck)
            body = re.sub(r"(?:/usr/bin/python3|(?<![\w/.-])python3) ", lambda m: sys.executable + " ", body)
            body = re.sub(r"(?<![\w/.-])examples/", args.examples + "/", body)
            # A CI recipe writes the job summary where GitHub says; here, a file.
            env = dict(os.environ, GITHUB_STEP_SUMMARY=os.path.join(directory, "summary.md"))
            started = time.monotonic()
            run = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", body], cwd=directory, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
            print(f"{where}: exit {run.returncode} (expected {expected}) in {time.monotonic() - started:.1f} s")
            if run.returncode != expected:
                failures.append(f"{where}: exit {run.returncode}, expected {expected}\n{text}--- output:\n"
                                f"{run.stdout[-3000:]}")
    if tested == 0:
        sys.exit("no runnable block in README.md or docs/*.md: nothing was tested")
    # docs/cli.md's option tables hold every option each command's --help lists.
    cli = open(os.path.join(source, "docs", "cli.md"), encoding="utf-8").read()
    for command in ("table", "rope", "check", "validate", "report", "bench", "sweep", "merge"):
        shown = subprocess.run([args.pecheck, command, "--help"], stdout=subprocess.PIPE, text=True).stdout
        for option in sorted(set(re.findall(r"^  (?:-\w,)?(--[a-z][a-z0-9-]*)", shown, re.M)) - {"--help", "--help-all"}):
            if f"`{option}" not in cli:
                failures.append(f"docs/cli.md lacks `{option}` of `pecheck {command}` (see pecheck {command} --help)")
    if failures:
        sys.exit("doc commands:\n" + "\n".join(failures))


if __name__ == "__main__":
    main()
