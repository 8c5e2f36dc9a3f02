"""The game assembled: its collaborators, the ONE registry of input event handlers, and journals.

:class:`Game` builds one collaborator per group of FIDE Laws articles and maps each
input event type to exactly one handler (:attr:`Game.handlers`); the event log
applies an event through that map, live and when a journal is replayed.

=========================  =====================================================
collaborator               articles
=========================  =====================================================
:mod:`.log`                the journal (the game's record), sealed-move privacy
:mod:`.boards`             D.1 two boards, D.2.9 divergence, D.2.2 / D.2.10 e touches
:mod:`.completion`         D.2.3, D.2.5 move made; D.2.8 slip of the tongue
:mod:`.hearing`            D.2.1 announcing, questions instead of guesses
:mod:`.scores`             D.2.7, D.2.10 c the game scores
:mod:`.timing`             D.2.4 press, D.2.6 clock, D.2.10 d time on request, Art. 6.9 flags
:mod:`.ending`             Art. 5, 9.1 resignation, draws, results
:mod:`.rulings`            D.2.9 ruling, arbiter's override, imported games
:mod:`.adjournment`        Guidelines I sealed move
=========================  =====================================================
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import chess

from .. import __version__
from ..clock import TimeControl
from ..errors import UserError
from ..i18n import tr
from ..journal import read_journal
from ..plural import plural
from .adjournment import Adjournment
from .boards import Boards
from .completion import Completion
from .ending import Ending
from .events import INPUT_TYPES, Event, Handler, color_name
from .hearing import Hearing
from .log import EventLog
from .rulings import Rulings
from .scores import Scores
from .state import GameState, Player
from .timing import Timing

__all__ = ["Game", "start_board"]

#: Errors a journal line that does not fit the game raises while it is replayed.
_INAPPLICABLE = (ValueError, KeyError, TypeError, IndexError, AssertionError, AttributeError)


def start_board(chess960: int | None, start_fen: str | None) -> chess.Board:
    """The start position: Chess960 number, FEN, or the standard one. ValueError for a bad one."""
    if chess960 is not None:
        if not 0 <= int(chess960) <= 959:
            raise ValueError(f"Chess960 number {chess960} out of range 0-959")
        return chess.Board.from_chess960_pos(int(chess960))
    if start_fen:
        board = chess.Board(start_fen, chess960=True)
        if not board.has_chess960_castling_rights():
            board.chess960 = False
        return board
    return chess.Board()


class Game:
    """One game's collaborators and the registry that applies its input events."""

    def __init__(self, white: Player, black: Player, time_control: TimeControl | None, *, start: chess.Board,
                 lang: str = "de", now: float = 0.0, auto_press: bool = False,
                 tactile_senses_pieces: bool = False, chess960_number: int | None = None,
                 headers: dict[str, str] | None = None) -> None:
        self.created = now
        self.log = EventLog(now, lang)
        self.state = GameState(white, black, start, lang, self.log, auto_press=auto_press,
                               tactile_senses_pieces=tactile_senses_pieces, chess960_number=chess960_number,
                               headers=dict(headers or {}))
        self.timing = Timing(self.state, time_control, now)
        self.ending = Ending(self.state, self.timing)
        self.boards = Boards(self.state)
        self.scores = Scores(self.state)
        self.completion = Completion(self.state, self.boards, self.timing, self.ending)
        self.hearing = Hearing(self.state, self.completion, self.timing, self.ending)
        self.rulings = Rulings(self.state, self.boards, self.scores, self.timing, self.completion)
        self.adjournment = Adjournment(self.state)
        t, e, r = self.timing, self.ending, self.rulings
        #: The registry: input event type -> its one handler.
        self.handlers: dict[str, Handler] = {
            "session-start": _ignore, "clock-start": t.on_clock_start, "board-move": self._on_board_move,
            "board-move-rejected": _ignore, "take-back": self._on_take_back, "announce": self._on_announce,
            "press": t.on_press, "clock-pause": t.on_clock_pause, "clock-resume": t.on_clock_resume,
            "clock-set": t.on_clock_set, "score": self.scores.on_score, "touch": self.boards.on_touch,
            "draw-offer": e.on_draw_offer, "draw-answer": e.on_draw_answer, "resign": e.on_resign,
            "result": e.on_result, "time-request": _ignore, "flag": t.on_flag, "ruling": r.on_ruling,
            "ruling-override": r.on_ruling_override, "pgn-import": r.on_pgn_import, "note": _ignore,
            "reopened": t.on_reopened, "sealed-move": _ignore,
            "envelope-opened": self.adjournment.on_envelope_opened,
        }
        assert set(self.handlers) == INPUT_TYPES
        self.log.bind(self._apply)

    def _apply(self, ev: Event) -> None:
        self.handlers[str(ev["type"])](ev)

    # -- the handlers that involve several collaborators --------------------------------------

    def _on_board_move(self, ev: Event) -> None:
        name, index, move = self.boards.on_board_move(ev)
        now = float(ev["t"])
        self.completion.on_board_move(name, index, move, str(ev.get("role", "")), now)
        self.boards.check_divergence(now)

    def _on_take_back(self, ev: Event) -> None:
        self.boards.on_take_back(ev)
        self.boards.check_divergence(float(ev["t"]))

    def _on_announce(self, ev: Event) -> None:
        self.completion.on_announce(ev)
        self.boards.check_divergence(float(ev["t"]))

    # -- journals -----------------------------------------------------------------------------

    def start_fields(self) -> dict[str, Any]:
        """The fields of ``session-start``: everything needed to set the game up again."""
        s = self.state
        tc = self.timing.time_control
        return {
            "white": s.white.to_dict(), "black": s.black.to_dict(),
            "time_control": str(tc) if tc else None,
            "start_fen": s.start.fen(), "chess960": s.start.chess960,
            "chess960_number": s.chess960_number, "lang": s.lang,
            "blind": None if s.blind_color is None else color_name(s.blind_color),
            "auto_press": s.auto_press, "tactile_senses_pieces": s.tactile_senses_pieces,
            "headers": s.headers, "version": __version__,
        }

    @classmethod
    def from_start_event(cls, ev: Event) -> Game:
        """The game as its ``session-start`` event sets it up (KeyError/ValueError/TypeError if damaged)."""
        tc = TimeControl.parse(ev["time_control"]) if ev.get("time_control") else None
        start = chess.Board(ev["start_fen"], chess960=bool(ev.get("chess960")))
        number = ev.get("chess960_number")
        return cls(Player.from_dict(ev["white"]), Player.from_dict(ev["black"]), tc, start=start,
                   lang=str(ev.get("lang", "de")), now=float(ev.get("t", 0.0)), auto_press=bool(ev.get("auto_press")),
                   tactile_senses_pieces=bool(ev.get("tactile_senses_pieces")),
                   chess960_number=None if number is None else int(number), headers=dict(ev.get("headers") or {}))

    @classmethod
    def load(cls, path: Path) -> Game:
        """The game rebuilt from its journal, read-only; damaged lines in ``log.problems``.

        Raises UserError for a file that cannot be read or holds no game.
        """
        try:
            read = read_journal(path)
        except OSError as exc:
            raise UserError(tr("session.journal_unreadable", None, path=path, error=exc.strerror or exc)) from exc
        start = next((e for e in read.events if e.get("type") == "session-start"), None)
        if start is None:
            raise UserError(tr("session.journal_no_start", None, path=path))
        problems = list(read.problems)
        try:
            game = cls.from_start_event(start)
        except _INAPPLICABLE as exc:   # e.g. a start_fen that is no text
            raise UserError(tr("session.journal_no_start", None, path=path)) from exc
        log = game.log
        log.replaying = True
        try:
            log.record_input(start)
            for line, ev in zip(read.lines, read.events, strict=False):
                if ev is start or ev.get("derived") or ev.get("type") not in INPUT_TYPES \
                        or ev.get("type") == "session-start":
                    continue
                log.seq = max(log.seq, int(ev.get("seq", log.seq + 1)))
                ev = dict(ev, seq=log.seq)
                try:
                    log.record_input(ev)
                except _INAPPLICABLE:
                    # A line that does not fit the game (edited by hand?): reported, skipped.
                    log.drop_last(ev)
                    problems.append((line, "inapplicable"))
        finally:
            log.replaying = False
        log.problems = sorted(problems)
        log.journal_path = path
        return game

    def reopen(self, path: Path, now: float | None, count_closed_time: bool) -> None:
        """Append to ``path`` from now on; report damaged lines; stop or restart a running clock."""
        log = self.log
        read_problems = log.problems
        log.open_journal(path)
        if read_problems:
            lines = [n for n, _ in read_problems]
            log.do("note", log.last_t, text="journal-damaged", lines=lines)
            log.told("journal-damaged", log.last_t, lines=lines, message=plural(
                len(lines), "session.journal_damaged_one", "session.journal_damaged", self.state.lang,
                lines=", ".join(map(str, lines)), path=path))
        if self.timing.clock.ticking and self.state.result is None:
            last = log.last_t
            if now is None:
                log.do("reopened", last, closed_at=last, reopened_at=None, counted=False)
            else:
                log.do("reopened", now, closed_at=last, reopened_at=now, counted=bool(count_closed_time))
        elif now is not None:
            log.last_t = now


def _ignore(ev: Event) -> None:
    """Input events that only record (the table and the arbiter read them)."""
    return None
