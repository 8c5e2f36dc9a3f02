"""How a table is set up, and the small words every part of the table shares (pure).

:class:`TableSetup` is what the new-game dialog or a scenario's header lines
choose; the parts the session does not keep are kept in the game's first line
so a resumed game is set up the same way. ``Who``, ``Answer`` and
:class:`Question` are the small types the parts share; :func:`color_name` (the engine's) and
:func:`to_color` turn colours into the names the events carry and back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

import chess

from ..base import UI_LANGS, tr
from ..game import Color, color_name
from ..language import WORDINGS
from ..pegboard import DEFAULT_SETTLE

__all__ = ["TableSetup", "Who", "Answer", "QuestionKind", "Question", "BOARDS", "Color", "color_name", "to_color",
           "SetupFault"]

#: The two players at the table (and their two scores).
Who = Literal["blind", "sighted"]
#: An answer to the open question: the candidate's number (1…n), yes or no.
Answer = int | Literal["yes", "no"]
#: What the table asks: which move was announced (D.2.1), whether he resigns, whether he accepts a draw.
QuestionKind = Literal["move", "resign", "draw-accept"]
#: What a player claims was set up wrongly (Appendix A a): the pieces, the board's orientation, the clock.
SetupFault = Literal["pieces", "orientation", "clock"]

#: What texts about the boards parting (the divergence, an announcement the pegs contradict) are
#: ``about`` (``SpeechPolicy.say``): a ruling settles them, so those still waiting are not said after it.
BOARDS = "boards"


@dataclass(frozen=True)
class Question:
    """The table's open question.

    ``kind``: which move was announced (D.2.1), a resignation, accepting a draw.
    ``to``: who answers. ``candidates``: UCI moves or ("yes", "no").
    ``phrases``: how each candidate is said. ``correction``: the move question
    is about a correction (D.2.8). ``color``: whose resignation or acceptance.
    """

    kind: QuestionKind
    to: Who
    text: str
    candidates: tuple[str, ...]
    phrases: tuple[str, ...] = ()
    correction: bool = False
    color: Color | None = None

    @classmethod
    def from_dict(cls, d: Any) -> Question:
        """The question as the journal notes it (every version's form); KeyError for a missing field,
        TypeError/ValueError for one of the wrong kind."""
        kind, to, color = d["kind"], d["to"], d.get("color")
        if kind not in get_args(QuestionKind) or to not in get_args(Who) or color not in ("white", "black", None):
            raise ValueError(f"not a question: {d!r}")
        return cls(kind, to, str(d["text"]), tuple(str(c) for c in d["candidates"]),
                   tuple(str(p) for p in d.get("phrases", ())), bool(d.get("correction")), color)


@dataclass(frozen=True)
class TableSetup:
    """How the table is set up (the new-game dialog, a scenario's header lines).

    ``blind``: "white" | "black" | "both" | "none" (who uses the tactile board).
    ``time_control``: "90+30", a PGN time control, or None (no clock).
    ``tactile``: "pegboard" (a peg-board sends protocol lines) | "none" (moves
    on the tactile board are entered as ``TactileMove`` commands).
    ``settle``: the peg-board's settle time (None: the tracker's default).
    ``headers``: PGN headers (Event, Site, Date, Round).
    ``warnings``: low-time thresholds (seconds) the blind player chose to hear;
    empty = none (D.2.10 d). ``wpm``: the voice's rate (None: the voice file's).
    ``sighted_board``: "window" (moves on the sighted board are entered in the
    window) | "dgt" (the sighted player's DGT e-board is read by itself;
    the window's board still works); its settle time is ``settle``'s.
    ``opponent``: "human" | "engine" (practice: the computer plays the sighted
    side, :mod:`blindchess.table.opponent`; needs ``blind`` "white" or "black"),
    ``engine_level`` 1…6 (``blindchess.adapters.engine.LEVELS``), ``engine_path`` (None:
    Stockfish where it is installed), ``coaching``: tips, take-backs and a
    summary of slips (practice only).
    ``wording``: how the blind player hears moves and squares —
    ``board_words.WORDINGS``: "phonetic" (D.2.1, "Springer Felix drei"), "nato"
    ("Springer Foxtrot drei"), "san" ("Sf3"); changed with the ``SetWording`` command.
    ``rules``: "standard", "rapid" or "blitz" (None: from the time control, Appendices A
    and B); ``supervised``: adequate supervision (A.3) — without it flags and illegal
    moves count only when a player claims them.

    Raises ValueError for an unknown ``blind``, ``tactile``, ``sighted_board`` or ``wording`` value or a negative
    settle time, an unknown ``rules`` or ``opponent``, an engine without exactly one blind player, or a level outside 1…6.
    """

    white: str = ""   # "" (or another language's default): the word for White in ``lang`` (table.white)
    black: str = ""
    blind: str = "white"
    time_control: str | None = None
    start_fen: str | None = None
    chess960: int | None = None
    lang: str = "de"
    tactile: str = "pegboard"
    settle: float | None = None
    assistant: str | None = None
    headers: Mapping[str, str] | None = None
    auto_press: bool = False
    senses_pieces: bool = False
    min_confidence: float = 0.6
    warnings: tuple[float, ...] = ()
    wpm: float | None = None
    sighted_board: str = "window"
    opponent: str = "human"
    engine_level: int = 2
    engine_path: str | None = None
    coaching: bool = False
    wording: str = "phonetic"
    rules: str | None = None
    supervised: bool = True

    def __post_init__(self) -> None:
        for side in ("white", "black"):
            defaults = {tr(f"table.{side}", code) for code in UI_LANGS}
            if not getattr(self, side) or getattr(self, side) in defaults:
                object.__setattr__(self, side, tr(f"table.{side}", self.lang))
        if self.blind not in ("white", "black", "both", "none"):
            raise ValueError(f"blind must be white, black, both or none: {self.blind!r}")
        if self.tactile not in ("pegboard", "none"):
            raise ValueError(f"tactile must be pegboard or none: {self.tactile!r}")
        if self.sighted_board not in ("window", "dgt"):
            raise ValueError(f"sighted_board must be window or dgt: {self.sighted_board!r}")
        if self.settle is not None and self.settle < 0:
            raise ValueError(f"settle time must not be negative: {self.settle}")
        if self.opponent not in ("human", "engine"):
            raise ValueError(f"opponent must be human or engine: {self.opponent!r}")
        if self.opponent == "engine" and self.blind not in ("white", "black"):
            raise ValueError(f"a game against the computer needs blind white or black: {self.blind!r}")
        if not 1 <= self.engine_level <= 6:
            raise ValueError(f"engine level must be 1 to 6: {self.engine_level!r}")
        if self.wording not in WORDINGS:
            raise ValueError(f"wording must be one of {', '.join(WORDINGS)}: {self.wording!r}")
        if self.rules not in (None, "standard", "rapid", "blitz"):
            raise ValueError(f"rules must be standard, rapid or blitz: {self.rules!r}")

    @property
    def settle_time(self) -> float:
        """The settle time in seconds."""
        return DEFAULT_SETTLE if self.settle is None else float(self.settle)

    def to_note(self) -> dict[str, Any]:
        """The parts the session does not keep, for the journal."""
        return {"tactile": self.tactile, "settle": self.settle_time, "min_confidence": self.min_confidence,
                "warnings": list(self.warnings), "wpm": self.wpm, "sighted_board": self.sighted_board,
                "opponent": self.opponent, "engine_level": self.engine_level, "engine_path": self.engine_path,
                "coaching": self.coaching, "wording": self.wording}


def to_color(name: Color) -> chess.Color:
    """The colour the engine's events name ("white", "black")."""
    return chess.WHITE if name == "white" else chess.BLACK
