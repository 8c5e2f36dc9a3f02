"""Helpers for the table tests: a table with its events and a peg-board whose pegs stand where the hands put them."""

from __future__ import annotations

from pathlib import Path

import chess

from blindchess.pegboard.tracker import occupancy
from blindchess.table.commands import BlindSays, Command, PegLine, Tick
from blindchess.table.events import DeviceRequest, Said, TableEvent
from blindchess.table.table import Table, TableSetup


class Run:
    """A table driven with explicit times; ``events`` holds everything it reported.

    The peg-board is simulated as a device: it keeps its pegs (also across a
    crash) and answers every snapshot request with them.
    """

    def __init__(self, journal: Path | None = None, **setup: object) -> None:
        setup.setdefault("settle", 0.5)
        self.setup = TableSetup(**setup)  # type: ignore[arg-type]
        self.journal = journal
        self.events: list[TableEvent] = []
        self.table = Table.new(self.setup, 0.0, journal)
        self.pegs = occupancy(self.table.session.snapshot.start)
        self._snapshot_due: float | None = None
        self.table.subscribe(self._collect)
        self._answer_snapshot()

    def _collect(self, event: TableEvent) -> None:
        self.events.append(event)
        if isinstance(event, DeviceRequest) and event.what == "snapshot":
            self._snapshot_due = event.t

    def _answer_snapshot(self) -> None:
        while self._snapshot_due is not None:
            t, self._snapshot_due = self._snapshot_due, None
            self.table.handle(PegLine(f"S {self.pegs:016X}"), t)

    # -- the devices
    def lift(self, square: str, t: float) -> None:
        self.pegs &= ~chess.BB_SQUARES[chess.parse_square(square)]
        self.table.handle(PegLine(f"L {square}"), t)
        self._answer_snapshot()

    def place(self, square: str, t: float) -> None:
        self.pegs |= chess.BB_SQUARES[chess.parse_square(square)]
        self.table.handle(PegLine(f"P {square}"), t)
        self._answer_snapshot()

    def peg_move(self, uci: str, t: float, *, capture: bool = False) -> None:
        """Lift (the captured peg first), place: the last change at ``t + 0.2``."""
        frm, to = uci[:2], uci[2:4]
        if capture:
            self.lift(to, t)
            t += 0.1
        self.lift(frm, t)
        self.place(to, t + 0.2)

    def crash_and_resume(self, t: float) -> None:
        """The program is killed and started again from its journal; the peg-board keeps its pegs."""
        assert self.journal is not None
        self.table.abandon()                   # the system closes a killed program's files
        self.table = Table.resume(self.journal, t)
        self.table.subscribe(self._collect)
        self._answer_snapshot()

    # -- inputs that may ask for a snapshot
    def handle(self, command: Command, t: float) -> None:
        self.table.handle(command, t)
        self._answer_snapshot()

    # -- what happened
    def of(self, cls: type) -> list:
        return [e for e in self.events if isinstance(e, cls)]

    def said(self) -> list[Said]:
        return self.of(Said)

    def json(self) -> list[dict]:
        return [e.to_json() for e in self.events]


def blind_move(run: Run, uci: str, phrase: str, t: float, *, capture: bool = False) -> None:
    """The blind player moves the pegs and announces; everything settled at ``t + 1``."""
    run.peg_move(uci, t, capture=capture)
    run.table.handle(BlindSays(phrase, 1.0), t + 0.4)
    run.table.handle(Tick(), t + 1.0)
