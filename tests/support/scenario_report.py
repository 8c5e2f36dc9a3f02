"""The JSON lines of one ``blindchess scenario run --json``, as the scenario tests read them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blindchess.cli import main

from .paths import SCENARIOS


class Report:
    """The events of one run, in time order."""

    def __init__(self, lines: list[dict]) -> None:
        self.events = lines

    def of(self, type_: str, **match: object) -> list[dict]:
        """The events of ``type_`` whose fields equal ``match``."""
        return [e for e in self.events if e["type"] == type_ and all(e.get(k) == v for k, v in match.items())]

    def between(self, kind: str, start: float, end: float = float("inf")) -> list[dict]:
        return [e for e in self.of(kind) if start <= e["t"] < end]

    def moves(self) -> list[str]:
        return [e["uci"] for e in self.of("move")]

    def said(self, to: str = "blind") -> list[dict]:
        """What was said to ``to`` (and to everybody)."""
        return [e for e in self.of("said") if e["to"] in (to, "all")]

    said_to = said

    def shown(self, part: str) -> list[dict]:
        return [e for e in self.of("shown") if part in e["text"]]

    @property
    def final(self) -> dict:
        return self.events[-1]


def run(name: str | Path, capsys: pytest.CaptureFixture[str], *extra: str) -> Report:
    """``scenario run NAME --json`` (a name in tests/scenarios/ or a path); exit code 0 is asserted."""
    code = main(["scenario", "run", str(SCENARIOS / name), "--json", *extra])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return Report([json.loads(line) for line in captured.out.splitlines()])
