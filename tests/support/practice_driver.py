"""A blind player at the peg-board, for practice games against the computer (test helper).

:class:`BlindSide` plays the blind player's side of a practice game through
the real inputs of the headless scenario front (``HeadlessFront``: the table
the app runs) on a simulated clock: it moves pegs on the runner's simulated
peg-board (``PegBoardDevice``, which also answers the table's snapshot
requests), announces moves in the phonetic alphabet (``phonetic.announce``),
presses the clock and mirrors the computer's moves — everything generated from
the position as the game goes. Time passes as in the scenario runner: the
table is ticked whenever something falls due (``next_due``/``idle_at``), so the
computer's moves come exactly when they are due. Nothing sleeps.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import chess

from blindchess.language import phonetic
from blindchess.pegboard.choreography import plan_move
from blindchess.pegboard.protocol import format_line
from blindchess.scenario import HeadlessFront, PegBoardDevice, parse, start_engine
from blindchess.table.commands import BlindSays, ClockPress, PegLine, Tick
from blindchess.table.events import DeviceRequest, Said, TableEvent
from blindchess.table.table import Table

#: A bound for the time loops (wake-ups between two inputs), as the runner has.
MAX_WAKES = 10_000


class BlindSide:
    """The blind player of a practice game (see the module docstring)."""

    def __init__(self, header: str, journal: Path, *, engines: Callable = start_engine, seed: int = 1) -> None:
        self.script = parse(header, "de")
        self.front = HeadlessFront(engines=engines)
        self.events: list[TableEvent] = []
        self._requests: list[DeviceRequest] = []
        self.front.subscribe(self._event)
        self.device = PegBoardDevice(int(self.script.start_board().occupied))
        self.rng = random.Random(seed)
        self.settle = self.script.setup.settle or 0.5
        self.now = 0.0
        self.front.start(self.script, journal, 0.0)
        self._hello()

    # ---------------------------------------------------------------- plumbing
    def _event(self, event: TableEvent) -> None:
        self.events.append(event)
        if isinstance(event, DeviceRequest) and event.device == "pegboard" and event.what == "snapshot":
            self._requests.append(event)

    def _answer(self) -> None:
        for _ in range(8):
            if not self._requests:
                return
            self._requests.clear()
            self.front.handle(PegLine(self.device.snapshot()), self.now)

    def _hello(self) -> None:
        for line in self.device.hello():
            self.front.handle(PegLine(line), self.now)
        self._answer()

    @property
    def table(self) -> Table:
        return self.front.table

    @property
    def color(self) -> chess.Color:
        blind = self.table.session.snapshot.blind_color
        assert blind is not None
        return blind

    # ---------------------------------------------------------------- time
    def wait(self, until: float = float("inf"), *, flags: bool = False) -> float:
        """Let time pass up to ``until``, ticking whenever something falls due (the runner's way).

        Without ``flags`` (and an infinite ``until``) it stops when nothing started is pending.
        """
        for _ in range(MAX_WAKES):
            dues = [self.front.idle_at(self.now)]
            due = self.front.next_due(self.now)
            if due is not None and (flags or due <= dues[0]):
                dues.append(due)
            later = [d for d in dues if self.now < d <= until]
            if not later:
                break
            self.now = min(later)
            self.front.handle(Tick(), self.now)
            self._answer()
        if until != float("inf") and until > self.now:
            self.now = until
            self.front.handle(Tick(), self.now)
            self._answer()
        return self.now

    def later(self, seconds: float) -> None:
        """``seconds`` pass (with everything that falls due meanwhile)."""
        self.wait(self.now + seconds, flags=True)

    # ---------------------------------------------------------------- the blind player's hands and voice
    def peg(self, line: str) -> None:
        """One line of the peg-board (the pegs move, the link delivers the line)."""
        self.device.apply(line)
        self.front.handle(PegLine(line), self.now)
        self._answer()

    def pegs(self, move: chess.Move, board: chess.Board | None = None) -> None:
        """Carry out ``move`` with the pegs (a realistic hand: captured peg first or after, any order)."""
        board = board if board is not None else self.table.session.board("tactile")
        for step in plan_move(board, move, self.rng, settle=self.settle, slide_chance=0.0, hold_chance=0.0):
            if step.kind in ("L", "P") and step.square is not None:
                self.later(step.gap)
                self.peg(format_line(f"{step.kind} {chess.square_name(step.square)}").decode("ascii").strip())
        self.later(self.settle + 0.2)

    def say(self, text: str, confidence: float = 1.0) -> None:
        self.front.handle(BlindSays(text, confidence), self.now)

    def announce(self, move: chess.Move) -> None:
        """Announce ``move`` as the blind player should (D.2.1)."""
        self.say(phonetic.announce(self.table.session.game_board(), move, "de"))

    def press(self) -> None:
        self.front.handle(ClockPress(self.color), self.now)

    def play(self, move: chess.Move) -> None:
        """His own move: pegs, announcement, clock (D.2.3, D.2.4)."""
        self.later(1.0)
        self.pegs(move)
        self.announce(move)
        self.later(0.5)
        if self.table.session.snapshot.time_control is not None and not self.table.session.snapshot.finished:
            self.press()

    def mirror(self) -> bool:
        """Mirror the computer's moves not yet on the pegs; False when there is nothing to mirror."""
        s = self.table.session
        game, tactile = s.snapshot.game_moves, s.snapshot.moves("tactile")
        if len(tactile) >= len(game) or tactile != game[: len(tactile)]:
            return False
        self.later(1.0)
        self.pegs(game[len(tactile)])
        return True

    # ---------------------------------------------------------------- what he heard
    def said_to_blind(self) -> list[str]:
        return [e.text for e in self.events if isinstance(e, Said) and e.to in ("blind", "all")]

    def close(self) -> None:
        self.front.close()
