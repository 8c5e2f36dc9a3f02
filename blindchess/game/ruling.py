"""The arbiter's ruling when the boards diverge: FIDE Laws D.2.9; an arbiter's override; a game
continued from an imported score.

D.2.9: when both game scores correspond, the player who wrote the move correctly but
made the wrong move on his board corrects his board ("correct-board"): the game keeps
every half-move both scores agree on, the wrong board is set to the position after the
last of them, and the clocks keep their times. When the scores differ, the moves are
retraced to the point where they agree ("retrace") and the clocks are readjusted to the
times recorded there. After any ruling or override the clock runs for the side to move
and every move of the game counts as pressed (:meth:`blindchess.game.clock.Timing.align`).
A proposal is computed from the boards and scores as they are when it is asked for —
never kept from an earlier moment.
"""

from __future__ import annotations

from collections.abc import Iterable

import chess

from ..laws import ClockSetting, Proposal, rule
from .boards import Boards
from .clock import Timing
from .completion import Completion
from .events import BOARDS, PgnImport, Ruling, RulingOverride
from .scores import Scores
from .state import GameState

__all__ = ["GameRulings"]


class GameRulings:
    """GameRulings, overrides and imports; see the module docstring."""

    def __init__(self, state: GameState, boards: Boards, scores: Scores, timing: Timing,
                 completion: Completion) -> None:
        self.state = state
        self.boards = boards
        self.scores = scores
        self.timing = timing
        self.completion = completion
        self.applied: list[Ruling | RulingOverride] = []

    # -- commands ------------------------------------------------------------------------
    def propose(self, lang: str | None, *, force: bool) -> Proposal | None:
        """The D.2.9 ruling for the boards and scores now (None while the boards agree, unless ``force``)."""
        if self.boards.divergence is None and not force:
            return None
        rows = [(s.ply, s.remaining[0], s.remaining[1]) for s in self.timing.clock.history]
        return rule(self.scores.read("sighted"), self.scores.read("blind"),
                    self.boards.boards["sighted"], self.boards.boards["tactile"], start=self.state.start,
                    clock_history=rows, lang=lang or self.state.lang,
                    occupancy_only=() if self.state.tactile_senses_pieces else ("b",),
                    labels=("sighted", "tactile"))

    def apply(self, r: Proposal, now: float) -> None:
        """The arbiter accepts the ruling ``r``: boards, scores and clocks are set."""
        self.state.log.record(Ruling(
            t=now, kind=r.kind, moves=tuple(m.uci() for m in r.moves), agreed_plies=r.agreed_plies,
            before=tuple(m.uci() for m in self.state.moves),
            fix_boards=tuple("sighted" if b == "a" else "tactile" for b in r.fix_boards),
            clocks=r.clocks))

    def legal_line(self, moves: Iterable[chess.Move]) -> list[chess.Move]:
        """``moves`` as a game from the start position; ValueError at the first illegal one."""
        line = list(moves)
        board = self.state.start.copy()
        for m in line:
            if not board.is_legal(m):
                raise ValueError(f"illegal move {m.uci()}")
            board.push(m)
        return line

    def override(self, moves: Iterable[chess.Move], now: float, *, clocks: ClockSetting | None = None,
                 note: str = "") -> None:
        """The arbiter decides otherwise: both boards to ``moves`` from the start, clocks as given.
        ValueError when ``moves`` is no legal game."""
        line = self.legal_line(moves)
        self.state.log.record(RulingOverride(t=now, moves=tuple(m.uci() for m in line),
                                             clocks=clocks, note=note,
                                             before=tuple(m.uci() for m in self.state.moves)))

    def import_moves(self, moves: Iterable[chess.Move], now: float, *,
                     clocks: list[tuple[int, float, float]] | None = None, source: str = "pgn") -> None:
        """Set the game to ``moves`` (both boards, both scores as English SAN), e.g. from a PGN."""
        line = self.legal_line(moves)
        self.state.log.record(PgnImport(t=now, moves=tuple(m.uci() for m in line),
                                        clocks=tuple(tuple(float(x) for x in c) for c in clocks) if clocks else None,
                                        source=source))

    # -- handlers ----------------------------------------------------------------------------
    def on_ruling(self, ev: Ruling) -> None:
        self.applied.append(ev)
        if ev.kind == "none":  # the boards agree: nothing to set (the scores may still need a correction)
            return
        moves = [chess.Move.from_uci(u) for u in ev.moves]
        if ev.kind == "correct-board" and moves == self.state.moves:
            for name in ev.fix_boards or ("sighted", "tactile"):
                self.boards.set_board("tactile" if name == "tactile" else "sighted")
            for board in BOARDS:
                # a board that shows the game's position already, reached by another way (a slip made
                # good by the next move), takes the game's moves: nothing on it is to be set right
                if self.boards.boards[board].board_fen() == self.state.board.board_fen():
                    self.boards.set_board(board)
        else:
            self._set_game(moves)
        self.completion.announced = None
        if ev.kind == "retrace":
            self.scores.truncate(len(moves))
            if ev.clocks is not None and ev.clocks.restore:
                self.timing.restore(ev.clocks.ply, ev.t)
        else:
            self.scores.complete()
        self.timing.align(len(moves), ev.t)
        self.boards.check_divergence(ev.t)

    def on_ruling_override(self, ev: RulingOverride) -> None:
        self.applied.append(ev)
        moves = [chess.Move.from_uci(u) for u in ev.moves]
        self._set_game(moves)
        self.completion.announced = None
        self.scores.truncate(len(moves))
        if ev.clocks is not None:
            self.timing.set_clocks(ev.clocks, ev.t)
        self.timing.align(len(moves), ev.t)
        self.boards.check_divergence(ev.t)

    def on_pgn_import(self, ev: PgnImport) -> None:
        moves = [chess.Move.from_uci(u) for u in ev.moves]
        self._set_game(moves)
        board = self.state.start.copy()
        sans = []
        for m in moves:
            sans.append(board.san(m))
            board.push(m)
        self.scores.set_all(sans)
        self.timing.pressed = len(moves)
        rows = [(int(r[0]), float(r[1]), float(r[2])) for r in (ev.clocks or ())]
        self.timing.clock.load_history(rows, len(moves), self.state.start.turn, ev.t)
        self.boards.check_divergence(ev.t)

    def restore_before(self, index: int, now: float) -> None:
        """The position before half-move ``index`` restored (an illegal move claimed, Art. 7.5.1): the game,
        both boards and both scores go back; the clock runs for the player to move again."""
        self._set_game(list(self.state.moves[:index]))
        self.completion.announced = None
        self.scores.truncate(index)
        self.timing.align(index, now)
        self.boards.check_divergence(now)

    def _set_game(self, moves: list[chess.Move]) -> None:
        self.state.set_moves(moves)
        self.boards.set_all(moves)
