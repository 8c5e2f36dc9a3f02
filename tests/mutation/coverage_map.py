"""pytest plugin for the mutation sample: which test runs which line of the mutated sources.

Loaded with ``-p tests.mutation.coverage_map`` and active only when ``BLINDCHESS_MUTATION_COVERAGE`` names a
data file: coverage.py then measures the files under ``BLINDCHESS_MUTATION_INCLUDE`` (``os.pathsep``-separated
patterns) with one context per test (its node id), starting as this plugin is imported, before any test
module imports the package. Beside the coverage data each process writes ``<data file>-tests.<pid>.json``: every
test's duration (set-up, call and tear-down) and the tests that start a subprocess, whose lines no
in-process measurement sees. Works under pytest-xdist (one data file per process, combined by the runner).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Generator
from typing import Any

import coverage
import pytest

_DATA = os.environ.get("BLINDCHESS_MUTATION_COVERAGE", "")
_COVERAGE: coverage.Coverage | None = None
_current = ""
_durations: dict[str, float] = {}
_spawning: set[str] = set()

if _DATA:
    _COVERAGE = coverage.Coverage(data_file=_DATA, data_suffix=True, config_file=False,
                                  include=os.environ.get("BLINDCHESS_MUTATION_INCLUDE", "").split(os.pathsep))
    _COVERAGE.start()
    _popen_init = subprocess.Popen.__init__

    def _noting_popen(self: subprocess.Popen[Any], *args: Any, **kwargs: Any) -> None:
        if _current:
            _spawning.add(_current)
        _popen_init(self, *args, **kwargs)

    subprocess.Popen.__init__ = _noting_popen  # type: ignore[method-assign]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    global _current
    if _COVERAGE is None:
        yield
        return
    _current = item.nodeid
    _COVERAGE.switch_context(item.nodeid)
    try:
        yield
    finally:
        _current = ""
        _COVERAGE.switch_context("")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if _COVERAGE is not None:
        _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration


def pytest_unconfigure(config: pytest.Config) -> None:
    if _COVERAGE is None:
        return
    _COVERAGE.stop()
    _COVERAGE.save()
    with open(f"{_DATA}-tests.{os.getpid()}.json", "w", encoding="utf-8") as out:
        json.dump({"durations": _durations, "spawning": sorted(_spawning)}, out)
