"""The arbiter's ruling when the boards diverge: FIDE Laws D.2.9; an arbiter's override; a game
continued from an imported score.

D.2.9: when both game scores correspond, the player who wrote the move correctly
but made the wrong move on his board corrects his board ("correct-board"): the
clocks keep their times. When the scores differ, the moves are retraced to the
point where they agree ("retrace") and the clocks are readjusted to the times
recorded there. After any ruling or override both boards show the game, the
clock runs for the side to move and every move of the game counts as pressed
(:meth:`blindchess.game.timing.Timing.align`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import chess

from ..clock import ClockError
from ..i18n import tr
from ..ruling import Ruling, rule
from .boards import Boards
from .completion import Completion
from .events import Event, color_name, parse_move
from .scores import Scores
from .state import GameState
from .timing import Timing

__all__ = ["Rulings"]


class Rulings:
    """Rulings, overrides and imports; see the module docstring."""

    def __init__(self, state: GameState, boards: Boards, scores: Scores, timing: Timing,
                 completion: Completion) -> None:
        self.state = state
        self.boards = boards
        self.scores = scores
        self.timing = timing
        self.completion = completion

    # -- inputs ------------------------------------------------------------------------

    def propose(self, lang: str | None = None, *, force: bool = False) -> Ruling | None:
        """The D.2.9 ruling for the present boards and scores (None while the boards agree, unless ``force``)."""
        if self.boards.divergence is None and not force:
            return None
        rows = [(s.ply, s.remaining[0], s.remaining[1]) for s in self.timing.clock.history]
        return rule(self.scores.read("sighted"), self.scores.read("blind"),
                    self.boards.boards["sighted"], self.boards.boards["tactile"], start=self.state.start,
                    clock_history=rows, lang=lang or self.state.lang,
                    occupancy_only=() if self.state.tactile_senses_pieces else ("b",),
                    labels=("sighted", "tactile"))

    def apply(self, r: Ruling, now: float) -> Event:
        """The arbiter accepts the ruling: boards, scores and clocks are set; journaled as ``ruling``."""
        explanation = r.explain(self.state.lang)
        return self.state.log.do("ruling", now, kind=r.kind, moves=[m.uci() for m in r.moves],
                                 agreed_plies=r.agreed_plies, before=[m.uci() for m in self.state.moves],
                                 fix_boards=["sighted" if b == "a" else "tactile" for b in r.fix_boards],
                                 clocks=r.clocks, explanation=explanation, article="D.2.9", message=explanation)

    def legal_line(self, moves: Iterable[object]) -> list[chess.Move]:
        """``moves`` as a game from the start position; ValueError at the first illegal one."""
        line = [parse_move(m) for m in moves]
        board = self.state.start.copy(stack=False)
        for m in line:
            if not board.is_legal(m):
                raise ValueError(f"illegal move {m.uci()}")
            board.push(m)
        return line

    def override(self, moves: Iterable[object], now: float, *, clocks: dict[str, Any] | None = None,
                 note: str = "") -> Event:
        """The arbiter decides otherwise: both boards to ``moves`` from the start, clocks as given."""
        line = self.legal_line(moves)
        return self.state.log.do("ruling-override", now, moves=[m.uci() for m in line], clocks=clocks, note=note,
                                 before=[m.uci() for m in self.state.moves], article="D.2.9",
                                 message=tr("session.override", self.state.lang, note=note))

    def import_moves(self, moves: Iterable[object], now: float, *,
                     clocks: list[tuple[int, float, float]] | None = None, source: str = "pgn") -> Event:
        """Set the game to ``moves`` (both boards, both scores as English SAN), e.g. from a PGN."""
        line = self.legal_line(moves)
        return self.state.log.do("pgn-import", now, moves=[m.uci() for m in line],
                                 clocks=[list(c) for c in clocks] if clocks else None, source=source)

    # -- handlers ----------------------------------------------------------------------------

    def on_ruling(self, ev: Event) -> None:
        self.state.rulings.append(ev)
        if ev.get("kind") == "none":  # the boards agree: nothing to set (the scores may still need a correction)
            return
        now = float(ev["t"])
        moves = [chess.Move.from_uci(u) for u in ev["moves"]]
        self._set_game(moves)
        if ev.get("kind") == "retrace":
            self.scores.truncate(len(moves))
            clocks = ev.get("clocks")
            if clocks and clocks.get("restore"):
                try:
                    self.timing.clock.restore(int(clocks["ply"]), now)
                except ClockError:
                    pass  # no record at that ply: the times stay as they are
        self.timing.align(len(moves), now)
        self.boards.check_divergence(now)

    def on_ruling_override(self, ev: Event) -> None:
        self.state.rulings.append(ev)
        now = float(ev["t"])
        moves = [chess.Move.from_uci(u) for u in ev["moves"]]
        self._set_game(moves)
        self.scores.truncate(len(moves))
        clocks = ev.get("clocks") or {}
        for color in (chess.WHITE, chess.BLACK):
            value = clocks.get(color_name(color))
            if value is not None:
                self.timing.clock.set_remaining(color, float(value), now)
        self.timing.align(len(moves), now)
        self.boards.check_divergence(now)

    def on_pgn_import(self, ev: Event) -> None:
        now = float(ev["t"])
        moves = [chess.Move.from_uci(u) for u in ev["moves"]]
        self._set_game(moves)
        board = self.state.start.copy(stack=False)
        sans = []
        for m in moves:
            sans.append(board.san(m))
            board.push(m)
        self.scores.set_all(sans)
        self.timing.pressed = len(moves)
        rows = [(int(r[0]), float(r[1]), float(r[2])) for r in (ev.get("clocks") or [])]
        self.timing.clock.load_history(rows, len(moves), self.state.start.turn, now)
        self.boards.check_divergence(now)

    def _set_game(self, moves: list[chess.Move]) -> None:
        self.state.moves[:] = moves
        self.boards.set_all(moves)
        self.completion.announced = None
