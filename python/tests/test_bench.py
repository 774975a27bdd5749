"""`pecheck bench` times the module's calls against the commands, on the same files (issue 27's targets)."""

import json
import os
import subprocess
import sys


def bench(*args):
    run = subprocess.run([os.environ["PECHECK"], "bench", "--quick", "--no-reference", *args], capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_each_call_is_timed_against_its_command_on_the_same_data():
    figures = json.loads(bench("--json", "--python", sys.executable, "--python-path", os.environ["PYTHONPATH"]))
    python = figures["python"]
    assert python["import_seconds"] > 0
    rotated_entries = 1
    for extent in figures["rotated_cli"]["shape"]:
        rotated_entries *= extent
    expected_bytes = {
        "validate": figures["validate_cli"]["rows"] * figures["validate_cli"]["dim"] * 4,
        "validate_rope": 2 * figures["rope_validate_cli"]["rows"] * figures["rope_validate_cli"]["dim"] * 4,
        "validate_rotated": 2 * rotated_entries * 2,  # OUT and IN in bfloat16
    }
    for key, command in (("validate", "validate_cli"), ("validate_rope", "rope_validate_cli"),
                         ("validate_rotated", "rotated_cli")):
        call = python[key]
        assert call["measured"], call.get("skipped")
        assert call["verdict"] == "conforms"
        assert call["compared_with"] == command
        assert call["command_seconds"] == figures[command]["seconds"]
        assert call["tensor_bytes"] == expected_bytes[key]
        assert call["seconds"] > 0 and call["peak_added_bytes"] >= 0
    judged = {t["figure"]: t for t in figures["targets"]}
    for figure in ("python_validate", "python_validate_rope", "python_validate_rotated"):
        quantities = [c["quantity"] for c in judged[figure]["criteria"]]
        assert any(q.startswith("time over the command's") for q in quantities)
        assert "memory added over the tensors" in quantities
    assert "import pecheck s" in [c["quantity"] for c in judged["python_validate"]["criteria"]]


def test_an_interpreter_that_cannot_import_pecheck_is_named_not_measured():
    text = bench("--python", "/bin/false")
    assert "python calls   not measured: import pecheck failed (the interpreter exited with status 1)" in text
    assert "python_validate" not in text
    document = json.loads(bench("--json", "--python", "/bin/false"))
    assert document["python"]["skipped"].startswith("import pecheck failed")


def test_no_interpreter_means_no_python_figures():
    document = json.loads(bench("--json", "--no-python"))
    assert document["python"] is None
    text = bench("--no-python")
    assert "python_validate" not in text and "python calls" not in text


def test_no_python_with_an_interpreter_is_a_usage_error():
    run = subprocess.run([os.environ["PECHECK"], "bench", "--quick", "--no-python", "--python", sys.executable],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert "--no-python" in run.stderr and "--python" in run.stderr
