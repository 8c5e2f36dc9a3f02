"""A game's record half-move by half-move, as the PGN export writes it — kept up to date as the game goes on.

What each half-move carries in the record (:class:`PlyRecord`): the move, ``[%clk]`` (the mover's time
after his press; for a move that ended the game without a press, mate or stalemate, the time left when
the clock stopped), ``[%emt]`` (the time the move took) and the comments, in the record's language:
where a game score differs from the game (the entry as written, FIDE Laws D.2.7), an entry that
cannot be read, the touches (D.2.2, D.2.10 e), the rulings (D.2.9) and why the game ended.
:func:`blindchess.records.pgn.session_to_game` builds its tree from one :class:`RecordBook`.

A :class:`RecordBook` kept beside a game that goes on (the live broadcast) brings itself in line with
it at each :meth:`RecordBook.update` at the cost of what changed: the half-moves made since, the last
one again (its clock, the end), an entry written late, a touch — not the whole game. What it cannot
follow cheaply — a ruling, a score read again from its start after an entry was amended, a clock
history set back — makes it compute the whole record again, exactly as a new book would.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import chess
import chess.pgn

from ..base import tr
from ..language import ScoreReading
from ..laws import Clock, ClockSnapshot, TimeControl

__all__ = ["PlyRecord", "RecordBook", "GameFacts", "GameRecord", "record_headers"]


class Named(Protocol):
    """A player as the export reads him: his name."""

    @property
    def name(self) -> str: ...


class TouchRecord(Protocol):
    """A touch as the game records it (D.2.2, D.2.10 e)."""

    @property
    def board(self) -> str: ...
    @property
    def square(self) -> str: ...
    @property
    def piece(self) -> str | None: ...
    @property
    def ply(self) -> int: ...


class RulingRecord(Protocol):
    """A ruling or the arbiter's override as the game records it (D.2.9): the game from the start
    after it (``moves``) and before it (``before``), UCI."""

    @property
    def moves(self) -> Sequence[str]: ...
    @property
    def before(self) -> Sequence[str]: ...


class GameFacts(Protocol):
    """What the record reads of a game as it stands (the rules engine's :class:`blindchess.game.GameSnapshot`)."""

    @property
    def headers(self) -> Mapping[str, str]: ...
    @property
    def white(self) -> Named: ...
    @property
    def black(self) -> Named: ...
    @property
    def time_control(self) -> TimeControl | None: ...
    @property
    def blind_color(self) -> chess.Color | None: ...
    @property
    def start(self) -> chess.Board: ...
    @property
    def lang(self) -> str: ...
    @property
    def touches(self) -> Sequence[TouchRecord]: ...
    @property
    def rulings(self) -> Sequence[RulingRecord]: ...
    @property
    def result(self) -> str | None: ...
    @property
    def result_reason(self) -> str | None: ...
    @property
    def game_moves(self) -> Sequence[chess.Move]: ...


class GameRecord(Protocol):
    """What the record reads of a game (the rules engine's :class:`blindchess.game.Session` has it all): its
    facts, its clock, its two scores as understood."""

    @property
    def snapshot(self) -> GameFacts: ...
    @property
    def clock(self) -> Clock: ...

    def score_read(self, who: Literal["blind", "sighted"]) -> ScoreReading: ...


@dataclass(frozen=True)
class PlyRecord:
    """One half-move in the record: the move, ``clock`` (``[%clk]``, None: none), ``emt`` (``[%emt]``, None:
    none) and the comments, in order."""

    move: chess.Move
    clock: float | None
    emt: float | None
    comments: tuple[str, ...]

    def comment(self) -> str:
        """The move's comment as the PGN carries it: ``[%clk …] [%emt …]`` (python-chess writes them), then
        the comments."""
        node = chess.pgn.Game().add_variation(self.move)
        if self.clock is not None:
            node.set_clock(self.clock)
        if self.emt is not None:
            node.set_emt(self.emt)
        if self.comments:
            node.comment = " ".join([node.comment, *self.comments]).strip() if node.comment else \
                " ".join(self.comments)
        return node.comment


def record_headers(facts: GameFacts) -> chess.pgn.Game:
    """A game without moves that carries the record's tag pairs: the seven-tag roster, ``TimeControl``,
    ``VisuallyImpaired``, the game's own headers, ``SetUp``/``FEN`` and ``Variant "Chess960"`` where needed."""
    game = chess.pgn.Game()
    h = game.headers
    extra = dict(facts.headers)
    h["Event"] = extra.pop("Event", "?")
    h["Site"] = extra.pop("Site", "?")
    h["Date"] = extra.pop("Date", "????.??.??")
    h["Round"] = extra.pop("Round", "?")
    h["White"] = facts.white.name or "?"
    h["Black"] = facts.black.name or "?"
    h["Result"] = facts.result or "*"
    h["TimeControl"] = str(facts.time_control) if facts.time_control else "-"
    if facts.blind_color is not None:
        h["VisuallyImpaired"] = "White" if facts.blind_color == chess.WHITE else "Black"
    for k, v in extra.items():
        h[str(k)] = str(v)
    start = facts.start
    if start.fen() != chess.STARTING_FEN or start.chess960:
        game.setup(start)
        if start.chess960:
            h["Variant"] = "Chess960"
    if facts.result is not None and facts.result_reason:
        h["Termination"] = _termination(facts.result_reason)
    return game


class RecordBook:
    """The record of one game half-move by half-move (module docstring). ``lang``: the comments' language
    (None: the game's own)."""

    def __init__(self, lang: str | None = None) -> None:
        self.lang = lang
        #: The game without moves that carries the tag pairs (:func:`record_headers`).
        self.headers: chess.pgn.Game = chess.pgn.Game()
        #: The comments before the first move (a touch before it, a ruling back to the start, an end without a move).
        self.opening: tuple[str, ...] = ()
        #: Every half-move made, in order.
        self.plies: list[PlyRecord] = []
        self._fresh = True
        self._moves: list[chess.Move] = []
        self._history: object = None
        self._history_len = 0
        self._snaps: dict[int, ClockSnapshot] = {}
        self._reads: dict[str, tuple[ScoreReading, int]] = {}
        self._touches: object = None      # the last touch recorded (the snapshot's tuple is new at each command)
        self._touch_len = 0
        self._touch_at: dict[int, list[str]] = {}
        self._ruling_at: dict[int, list[str]] = {}
        self._rulings = 0
        self._end: tuple[str | None, str | None] = (None, None)

    def update(self, session: GameRecord) -> int:
        """Bring the record in line with ``session``; returns the first half-move whose record may have
        changed (0: the comments before the first move too). Half-moves before it are as they were."""
        facts = session.snapshot
        lang = self.lang or facts.lang
        moves = list(facts.game_moves)
        full = self._fresh
        dirty = _common_prefix(self._moves, moves) + 1
        history = session.clock.history
        if history is self._history and len(history) >= self._history_len:
            for snap in history[max(0, self._history_len - 1):]:
                if snap.ply > 0:
                    self._snaps[snap.ply] = snap
                    dirty = min(dirty, snap.ply)
        else:
            full = True
        whos: tuple[Literal["sighted", "blind"], ...] = ("sighted", "blind")
        reads = {who: session.score_read(who) for who in whos}
        for who, read in reads.items():
            seen = self._reads.get(who)
            if seen is None or seen[0] is not read or len(read.entries) < seen[1]:
                full = True
            elif len(read.entries) > seen[1]:
                dirty = min(dirty, seen[1] + 1)
        touches = facts.touches
        if len(touches) >= self._touch_len and (self._touch_len == 0 or touches[self._touch_len - 1] is self._touches):
            for touch in touches[self._touch_len:]:
                self._touch_at.setdefault(touch.ply, []).append(_touch_text(touch, lang))
                dirty = min(dirty, touch.ply)
        else:
            full = True
        if len(facts.rulings) != self._rulings:
            full = True
        end = (facts.result, facts.result_reason)
        if end != self._end:
            dirty = min(dirty, len(moves))
        if full:
            dirty = 0
            self._snaps = {snap.ply: snap for snap in history if snap.ply > 0}
            self._touch_at = {}
            for touch in touches:
                self._touch_at.setdefault(touch.ply, []).append(_touch_text(touch, lang))
            self._ruling_at = {}
            for ruling in facts.rulings:
                self._ruling_at.setdefault(len(ruling.moves), []).append(
                    tr("session.pgn_ruling", lang, text=_ruling_text(ruling, lang)))
        dirty = max(0, min(dirty, len(moves)))       # the last half-move always (its clock, the end)

        self.headers = record_headers(facts)
        names = {who: tr(f"session.score_{who}", lang) for who in reads}
        end_text = tr("records.pgn_end", lang, reason=tr(f"session.reason_{facts.result_reason}", lang)) \
            if facts.result is not None and facts.result_reason else None

        def comments(ply: int) -> tuple[str, ...]:
            out: list[str] = []
            i = ply - 1
            for who, read in reads.items():
                if 0 <= i < len(read.entries):
                    if i < len(read.moves):
                        if i < len(moves) and read.moves[i] != moves[i]:
                            out.append(tr("session.pgn_deviation", lang, score=names[who],
                                          written=read.entries[i].written))
                    elif read.problem is not None and i == read.problem.index:
                        out.append(tr("session.pgn_problem", lang, score=names[who], written=read.entries[i].written,
                                      problem=tr(f"session.problem_{read.problem.problem}", lang)))
            out += self._touch_at.get(ply, ())
            out += self._ruling_at.get(ply, ())
            if end_text is not None and ply == len(moves):
                out.append(end_text)
            return tuple(out)

        if dirty == 0:
            self.opening = comments(0)
        del self.plies[max(0, dirty - 1):]
        start_turn = facts.start.turn
        for ply in range(max(1, dirty), len(moves) + 1):
            mover = start_turn if ply % 2 == 1 else not start_turn
            clock: float | None = None
            emt: float | None = None
            found = self._snaps.get(ply)
            if found is not None:
                remaining = found.remaining_of(mover)
                if not math.isinf(remaining):
                    clock = max(0.0, remaining)
                if found.move_time:
                    emt = found.move_time
            elif ply == len(moves):
                stopped = _last_move_clock(session, mover)
                if stopped is not None:
                    clock, emt = stopped
            self.plies.append(PlyRecord(moves[ply - 1], clock, emt, comments(ply)))

        self._fresh = False
        self._moves = moves
        self._history, self._history_len = history, len(history)
        self._reads = {who: (read, len(read.entries)) for who, read in reads.items()}
        self._touches, self._touch_len = (touches[-1] if touches else None), len(touches)
        self._rulings = len(facts.rulings)
        self._end = end
        return dirty


def _common_prefix(old: list[chess.Move], new: list[chess.Move]) -> int:
    """How many first moves the two lists share (compared at once when the older is the newer's start)."""
    n = min(len(old), len(new))
    if old[:n] == new[:n]:
        return n
    return next(i for i in range(n) if old[i] != new[i])


def _touch_text(ev: TouchRecord, lang: str) -> str:
    """A touch (D.2.2, D.2.10 e) in ``lang`` from the record's fields (square as in notation)."""
    piece = ev.piece
    words = tr(f"session.piece_{'w' if piece.isupper() else 'b'}{piece.lower()}", lang) \
        if isinstance(piece, str) and piece else tr("session.piece_none", lang)
    key = "session.touch_tactile" if ev.board == "tactile" else "session.touch_sighted"
    return tr(key, lang, piece=words, square=ev.square)


def _ruling_text(ev: RulingRecord, lang: str) -> str:
    """A ruling (D.2.9) in ``lang`` from the record's fields: what was set, from which move on. An override
    (no ``kind``) is the arbiter's own decision."""
    kind = getattr(ev, "kind", None)
    if kind is None:
        return tr("records.pgn_override", lang, plies=len(ev.moves), note=str(getattr(ev, "note", "") or ""))
    key = {"retrace": "records.pgn_ruling_retrace", "correct-board": "records.pgn_ruling_correct"}.get(
        str(kind), "records.pgn_ruling_none")
    return tr(key, lang, plies=len(ev.moves))


def _last_move_clock(session: GameRecord, mover: chess.Color) -> tuple[float, float] | None:
    """(time left, time used) for the move that ended the game without a press (mate, stalemate), from the
    stopped clock; None while the game goes on or when the clock has no time control."""
    clock = session.clock
    if session.snapshot.result is None or clock.running is not None or not clock.history:
        return None
    last = clock.history[-1]
    now = last.time
    remaining = clock.remaining(mover, now)
    if math.isinf(remaining):
        return None
    return remaining, max(0.0, clock.used(mover, now) - last.used[0 if mover == chess.WHITE else 1])


def _termination(reason: str) -> str:
    """The PGN ``Termination`` tag of an end (the standard's words: "normal", "time forfeit", …)."""
    if reason in ("time_forfeit", "time_no_mate", "both_flags"):
        return "time forfeit"
    if reason in ("arbiter", "illegal_move", "illegal_move_no_mate", "sealed_move"):
        return "rules infraction" if reason != "arbiter" else "adjudication"
    if reason == "late":
        return "abandoned"          # a player too late at the resumption loses by default (Guidelines I.10)
    if reason == "annulled":
        return "emergency"          # a position that cannot be re-established (Guidelines I.12 b)
    return "normal"
