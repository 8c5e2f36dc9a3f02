"""The session's events: one ``TypedDict`` per event type, the shared field helpers.

Every event is a JSON object (a ``dict`` at run time) with ``seq``, ``type`` and
``t``; events derived from an input carry ``"derived": True``. The shapes below are
the journal's line format — old journals hold exactly these keys, so they must stay.
An event a person should hear or see carries ``message`` (in the session's language)
and ``article`` (the FIDE Laws article, e.g. "D.2.3"); the table decides what is spoken.

Input events (:data:`INPUT_TYPES`) are journaled and replayed; each has exactly one
handler in the registry that :class:`blindchess.game.core.Game` builds
(``Game.handlers``: type -> handler). Derived events are never replayed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal, TypedDict

import chess

__all__ = [
    "Event", "Handler", "INPUT_TYPES", "DERIVED_TYPES", "BOARDS", "SCORES", "BoardName", "ScoreName",
    "color_name", "parse_color", "parse_square", "parse_move", "seconds",
]

#: An event as it travels: a JSON object. The TypedDicts below give each type's fields.
Event = dict[str, Any]
#: A handler of one input event type (the registry maps type -> handler).
Handler = Callable[[Event], None]

BoardName = Literal["sighted", "tactile"]
ScoreName = Literal["blind", "sighted"]
BOARDS: tuple[BoardName, BoardName] = ("sighted", "tactile")
SCORES: tuple[ScoreName, ScoreName] = ("blind", "sighted")


class _Base(TypedDict):
    seq: int
    type: str
    t: float


class _Told(_Base, total=False):
    derived: bool
    message: str
    article: str


# -- input events (journaled, replayed) ------------------------------------------------


class SessionStart(_Base, total=False):
    white: dict[str, Any]
    black: dict[str, Any]
    time_control: str | None
    start_fen: str
    chess960: bool
    chess960_number: int | None
    lang: str
    blind: str | None
    auto_press: bool
    tactile_senses_pieces: bool
    headers: dict[str, str]
    version: str


class ClockStart(_Base):
    color: str


class BoardMove(_Base, total=False):
    board: str
    uci: str
    san: str
    ply: int
    role: str          # "own" | "mirror"
    replaces: bool     # the pending own placement of this ply moved on (D.2.3)


class BoardMoveRejected(_Told, total=False):
    board: str
    uci: str
    reason: str        # "illegal" | "not-made" (older journals: absent = "illegal")


class TakeBack(_Base):
    board: str
    ply: int


class Announce(_Base, total=False):
    text: str
    uci: str | None
    ply: int
    correction: bool
    refused: bool      # D.2.8: a correction after the opponent's clock was started
    problem: str | None


class Press(_Base, total=False):
    color: str
    ply: int


class ClockPause(_Base):
    pass


class ClockResume(_Base, total=False):
    charge: bool


class ClockSet(_Base):
    color: str
    seconds: float


class Score(_Base, total=False):
    who: str
    index: int
    text: str
    uci: str | None
    problem: str | None


class Touch(_Told, total=False):
    board: str
    square: str
    piece: str | None
    by: str
    own: bool
    ply: int


class DrawOffer(_Told):
    color: str


class DrawAnswer(_Base):
    color: str
    accept: bool


class Resign(_Base):
    color: str


class Result(_Base, total=False):
    result: str
    reason: str


class TimeRequest(_Told, total=False):
    by: str
    white: dict[str, Any]
    black: dict[str, Any]


class Flag(_Base):
    color: str


class Ruling(_Told, total=False):
    kind: str
    moves: list[str]
    agreed_plies: int
    before: list[str]
    fix_boards: list[str]
    clocks: dict[str, Any] | None
    explanation: str


class RulingOverride(_Told, total=False):
    moves: list[str]
    clocks: dict[str, Any] | None
    note: str
    before: list[str]


class PgnImport(_Base, total=False):
    moves: list[str]
    clocks: list[list[float]] | None
    source: str


class Note(_Base, total=False):
    text: str


class Reopened(_Base, total=False):
    closed_at: float
    reopened_at: float | None
    counted: bool


class SealedMove(_Told, total=False):
    text: str
    public: dict[str, Any]
    hidden: dict[str, Any]   # only in the journal until the envelope is opened
    sealed: bool             # set on the public copy


class EnvelopeOpened(_Told, total=False):
    text: str
    sealed_seq: int
    hidden: dict[str, Any]


#: Input event type -> its shape. The registry of handlers covers exactly these keys.
INPUT_SHAPES: dict[str, type] = {
    "session-start": SessionStart, "clock-start": ClockStart, "board-move": BoardMove,
    "board-move-rejected": BoardMoveRejected, "take-back": TakeBack, "announce": Announce, "press": Press,
    "clock-pause": ClockPause, "clock-resume": ClockResume, "clock-set": ClockSet, "score": Score,
    "touch": Touch, "draw-offer": DrawOffer, "draw-answer": DrawAnswer, "resign": Resign, "result": Result,
    "time-request": TimeRequest, "flag": Flag, "ruling": Ruling, "ruling-override": RulingOverride,
    "pgn-import": PgnImport, "note": Note, "reopened": Reopened, "sealed-move": SealedMove,
    "envelope-opened": EnvelopeOpened,
}
INPUT_TYPES: frozenset[str] = frozenset(INPUT_SHAPES)


# -- derived events (told, journaled for the record, never replayed) -------------------


class MoveMade(_Told):
    ply: int
    color: str
    uci: str
    san: str
    text: str


class MoveWithdrawn(_Told):
    ply: int
    uci: str


class MirrorNeeded(_Told):
    board: str
    ply: int
    uci: str
    san: str
    text: str


class Mirrored(_Told):
    board: str
    ply: int


class Placed(_Told):
    ply: int
    uci: str


class AnnounceMismatch(_Told):
    ply: int
    announced: str
    placed: str


class Divergence(_Told):
    ply: int
    squares: list[str]
    board: str | None


class ClockTimes(_Told):
    ply: int
    white: float | None
    black: float | None
    move_time: float


class Question(_Told, total=False):
    question: str
    text: str
    candidates: list[str]
    sans: list[str]
    phrases: list[str]
    ply: int
    correction: bool


class GameEnd(_Told):
    result: str
    reason: str


DERIVED_SHAPES: dict[str, type] = {
    "move-made": MoveMade, "move-withdrawn": MoveWithdrawn, "mirror-needed": MirrorNeeded, "mirrored": Mirrored,
    "placed": Placed, "announce-mismatch": AnnounceMismatch, "announce-unclear": _Told,
    "announce-ignored": _Told, "correction-refused": _Told, "clock-refused": _Told, "clock": ClockTimes,
    "divergence": Divergence, "boards-agree": _Told, "score-deviation": _Told, "game-end": GameEnd,
    "journal-damaged": _Told, "question": Question, "heard": _Told, "flag-fallen": _Told,
    "draw-declined": _Told,
}
DERIVED_TYPES: frozenset[str] = frozenset(DERIVED_SHAPES)


# -- field helpers ---------------------------------------------------------------------


def color_name(color: chess.Color) -> str:
    """"white" / "black"."""
    return "white" if color == chess.WHITE else "black"


def parse_color(value: object) -> chess.Color:
    """``chess.WHITE``/``chess.BLACK`` or "white"/"black" ("w"/"b"); ValueError otherwise."""
    if isinstance(value, bool):
        return value
    if value in ("white", "w", "White", "WHITE"):
        return chess.WHITE
    if value in ("black", "b", "Black", "BLACK"):
        return chess.BLACK
    raise ValueError(f"not a colour: {value!r}")


def parse_square(value: object) -> chess.Square:
    """A square index or name ("e4"); ValueError for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return chess.parse_square(str(value).strip().lower())


def parse_move(value: object) -> chess.Move:
    """A ``chess.Move`` or its UCI text; ValueError for anything else."""
    return value if isinstance(value, chess.Move) else chess.Move.from_uci(str(value))


def seconds(x: float | None) -> float | None:
    """A time for an event: rounded to ms, None for "no limit"."""
    return None if x is None or math.isinf(x) else round(x, 3)
