"""The pytest plugin: the `pecheck` fixture, and --pecheck-report writing every validation of the session."""

import json


TESTS = '''
import numpy as np
import pecheck as pc

def test_conforms(pecheck):
    pecheck.assert_encoding_close(pecheck.table("vaswani", 64, 16), convention="vaswani")
    assert [r.verdict for r in pecheck.results] == ["conforms"]

def test_deviates(pecheck):
    pecheck.assert_encoding_close(np.zeros((16, 8), dtype=np.float32))

def test_without_the_fixture():
    assert pc.validate(pc.table("tensor2tensor", 32, 8)).conforms
'''


def test_the_fixture_asserts_and_the_report_holds_every_validation(pytester):
    pytester.makepyfile(test_kernels=TESTS)
    run = pytester.runpytest("-p", "pecheck.pytest_plugin", "--pecheck-report", "report")
    run.assert_outcomes(passed=2, failed=1)
    run.stdout.fnmatch_lines(["*AssertionError: Positional-encoding table is not close*"])
    index = json.loads((pytester.path / "report" / "index.json").read_text())["validations"]
    assert [(v["test"].split("::")[1], v["verdict"]) for v in index] == [
        ("test_conforms", "conforms"), ("test_deviates", "deviates"), ("test_without_the_fixture", "conforms")]
    for v in index:
        folder = pytester.path / "report" / v["directory"]
        assert json.loads((folder / "validation.json").read_text())["verdict"] == v["verdict"]
        assert (folder / "validation.txt").read_text().splitlines()[0].endswith(": " + v["verdict"])
    # The report of the checks on the values, as --output-dir writes it, where a convention was settled.
    assert (pytester.path / "report" / index[0]["directory"] / "report.html").exists()
    assert (pytester.path / "report" / index[0]["directory"] / "report.junit.xml").exists()


def test_without_the_option_nothing_is_written(pytester):
    pytester.makepyfile(test_kernels=TESTS)
    run = pytester.runpytest("-p", "pecheck.pytest_plugin")
    run.assert_outcomes(passed=2, failed=1)
    assert not (pytester.path / "report").exists()
