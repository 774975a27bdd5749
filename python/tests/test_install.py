"""`cmake --install --component python` into a virtual environment gives an importable pecheck."""

import os
import subprocess
import sys
import venv


def test_the_installed_package_imports_and_validates(tmp_path):
    prefix = tmp_path / "venv"
    # System site packages: NumPy and PyTorch come from the system, as in the README's steps.
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(prefix)
    subprocess.run([os.environ["CMAKE_COMMAND"], "--install", os.environ["PECHECK_BUILD_DIR"], "--component", "python",
                    "--prefix", str(prefix)], check=True, capture_output=True)
    python = prefix / "bin" / "python"
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # not the build tree's package
    run = subprocess.run([str(python), "-c",
                          "import pecheck; print(pecheck.__file__); "
                          "print(pecheck.validate(pecheck.table('vaswani', 32, 8)).verdict)"],
                         capture_output=True, text=True, env=environment)
    assert run.returncode == 0, run.stderr
    where, verdict = run.stdout.split()
    assert where.startswith(str(prefix)) and verdict == "conforms"


def test_the_package_imports_quickly():
    # The target is 0.3 s; the interpreter's own start is included here.
    run = subprocess.run([sys.executable, "-X", "importtime", "-c", "import pecheck"], capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    last = run.stderr.strip().splitlines()[-1]  # "import time: self | cumulative | pecheck"
    cumulative_us = int(last.split("|")[1])
    assert last.split("|")[2].strip() == "pecheck"
    assert "torch" not in run.stderr  # torch is imported by the caller, never by pecheck
    print(f"import pecheck: {cumulative_us / 1e6:.3f} s")
