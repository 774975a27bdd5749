"""pecheck's pytest plugin: a `pecheck` fixture and a report directory.

Enable it with `pytest -p pecheck.pytest_plugin`, `pytest_plugins = ["pecheck.pytest_plugin"]`
in a conftest.py, or by installing pecheck with pip (its pytest11 entry point).

    def test_rope_cache(pecheck):
        cos, sin = my_kernel.cos_sin_cache(4096)
        pecheck.assert_rope_close((cos, sin), rope="llama3.1")

`--pecheck-report DIR` writes, for every validation the session made (through the
fixture or pecheck's functions), DIR/<test>/<n>/ as `pecheck validate --output-dir`
writes it (validation.txt and .json, and the HTML, Markdown, JSON and JUnit report of
the checks on the values), and DIR/index.json listing them.
"""

import json
import os
import re

import pytest

import pecheck as _pecheck
from pecheck import _observe


class PecheckFixture:
    """pecheck's functions, with the validations this test made in `results`."""

    def __init__(self):
        self.results = []
        _observe.add_listener(self.results.append)

    def close(self):
        _observe.remove_listener(self.results.append)

    validate = staticmethod(_pecheck.validate)
    validate_rope = staticmethod(_pecheck.validate_rope)
    table = staticmethod(_pecheck.table)
    rope_cache = staticmethod(_pecheck.rope_cache)
    reference = _pecheck.reference
    assert_conforms = staticmethod(_pecheck.testing.assert_conforms)
    assert_encoding_close = staticmethod(_pecheck.testing.assert_encoding_close)
    assert_rope_close = staticmethod(_pecheck.testing.assert_rope_close)


@pytest.fixture
def pecheck():
    fixture = PecheckFixture()
    yield fixture
    fixture.close()


def pytest_addoption(parser):
    group = parser.getgroup("pecheck")
    group.addoption("--pecheck-report", metavar="DIR", default=None,
                    help="write every validation the session made to DIR, as pecheck validate --output-dir "
                         "does, one directory per validation, and index.json listing them")


class ReportDirectory:
    """Writes each validation under the test that made it, as it is made."""

    def __init__(self, directory):
        self.directory = directory
        self.test = "outside-tests"
        self.counts = {}
        self.index = []
        os.makedirs(directory, exist_ok=True)

    def __call__(self, validation):
        folder = re.sub(r"[^A-Za-z0-9_.-]+", "_", self.test).strip("_") or "test"
        n = self.counts.get(folder, 0) + 1
        self.counts[folder] = n
        where = os.path.join(self.directory, folder, str(n))
        os.makedirs(os.path.dirname(where), exist_ok=True)
        validation.write_report(where, reproduce=f"pytest '{self.test}'")
        self.index.append({"test": self.test, "name": validation.name, "kind": validation.kind,
                           "verdict": validation.verdict, "directory": os.path.relpath(where, self.directory)})

    def finish(self):
        with open(os.path.join(self.directory, "index.json"), "w", encoding="utf-8") as file:
            json.dump({"validations": self.index}, file, indent=2)
            file.write("\n")


_REPORT_KEY = pytest.StashKey[ReportDirectory]()


def pytest_configure(config):
    directory = config.getoption("--pecheck-report")
    if directory:
        report = ReportDirectory(directory)
        config.stash[_REPORT_KEY] = report
        _observe.add_listener(report)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    report = item.config.stash.get(_REPORT_KEY, None)
    if report is not None:
        report.test = item.nodeid
    yield
    if report is not None:
        report.test = "outside-tests"


def pytest_unconfigure(config):
    report = config.stash.get(_REPORT_KEY, None)
    if report is not None:
        _observe.remove_listener(report)
        report.finish()
