"""The table's events: what happened at the table, typed, with one registry (pure).

Every event is a frozen dataclass on the one event base (:class:`blindchess.base.Event`:
``t``, seconds, the time passed in by the front end, and its JSON ``TYPE``) with
:meth:`~TableEventBase.to_json`, which gives exactly the scenario runner's JSON (docs/developer/scenario-format.md): ``t``, ``type`` and the event's fields, written and read by the one
codec (:func:`blindchess.base.encode_fields`, :func:`blindchess.base.decode_fields`).
:data:`EVENT_TYPES` maps every JSON type to its class; :func:`from_json` reads an event back.

The types of the scenario format (``said``, ``shown``, ``touched``, ``move``,
``question``, ``refused``, ``divergence``, ``ruling``, ``claim``, ``ended``,
``adjourned``, ``sealed``, ``resumed``, ``final``) are exact; the others (``speak``, ``mirrored``, ``clock``,
``game-end``, ``device``, ``heard``) are extra — front ends act on them (``speak``: start
saying a text now; ``device``: send a request to a board) and a scenario report
may list them.

``said`` is delivered when the utterance is over — finished or cut — with
``t`` the moment it began to be spoken: only then is ``cut`` known. ``speak``
is delivered when it begins (that is what a speech engine carries out).

``private`` (``said``, ``speak``, ``shown``): the text is for the one player it is
addressed to alone — the sealer told that he must write his sealed move again
(Guidelines I.1) —: his voice says it, or his screen shows it, and no front end
logs it, shows it to anyone else or gives it to a screen reader at the table.
The JSON has the field only when it is true.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from ..base import Event, decode_fields, encode_fields
from ..game import BoardName, ClaimKind, Color
from .setup import Who

__all__ = [
    "Said", "Speak", "Shown", "Touched", "Moved", "Asked", "Refused", "Diverged", "Ruled", "Final", "MirrorDone",
    "ClockPressed", "GameEnded", "ClaimDecided", "Ended", "GameAdjourned", "Sealed", "Resumed", "ResponderAbsent",
    "SealerAbsent", "IllegalMoveCorrected",
    "EnvelopeMissing", "DeviceRequest", "Device", "DeviceAction", "Heard", "TableEvent", "TableEventBase",
    "EVENT_TYPES", "from_json",
]


#: The devices the table asks for something (:class:`DeviceRequest`): the peg-board, the sighted
#: player's e-board, the engine of a practice game.
Device = Literal["pegboard", "eboard", "engine"]
#: What a device is asked: a snapshot (the peg-board's ``S`` line, the e-board's dump), the position the
#: peg-board should show (``fen``), the engine's move in position ``fen``.
DeviceAction = Literal["snapshot", "expect", "move"]


@dataclass(frozen=True)
class TableEventBase(Event):
    """Common part of the table's events: the JSON form (``t`` rounded to ms, ``type``, then the fields in
    declaration order)."""

    def to_json(self) -> dict[str, Any]:
        """``{"t": …, "type": …, <fields>}`` — the scenario JSON of this event (``private`` only when true)."""
        skip = ("t",) if getattr(self, "private", False) else ("t", "private")
        return {"t": round(float(self.t), 3), "type": self.TYPE, **encode_fields(self, skip=skip)}


@dataclass(frozen=True)
class Said(TableEventBase):
    """A text spoken to ``to`` ("blind", "sighted" or "all"); ``cut``: a later utterance interrupted it."""

    TYPE: ClassVar[str] = "said"
    to: str
    text: str
    cut: bool
    private: bool = False


@dataclass(frozen=True)
class Speak(TableEventBase):
    """Begin saying ``text`` now (``interrupt``: stop what is being said first). For speech engines."""

    TYPE: ClassVar[str] = "speak"
    to: str
    text: str
    priority: str
    interrupt: bool
    private: bool = False


@dataclass(frozen=True)
class Shown(TableEventBase):
    """A message shown to the sighted side (message line, log; ``private``: the message line only, for the
    sighted player alone)."""

    TYPE: ClassVar[str] = "shown"
    text: str
    private: bool = False


@dataclass(frozen=True)
class Touched(TableEventBase):
    """A touch that counts (D.2.2 on the tactile board, D.2.5 on the sighted board)."""

    TYPE: ClassVar[str] = "touched"
    square: str
    by: Who


@dataclass(frozen=True)
class Moved(TableEventBase):
    """A move made (D.2.3 / D.2.5); ``ply`` 1-based, ``san`` in English SAN."""

    TYPE: ClassVar[str] = "move"
    ply: int
    color: Color
    uci: str
    san: str


@dataclass(frozen=True)
class Asked(TableEventBase):
    """A question (D.2.1 unclear announcement, resignation, draw answer); ``candidates``: UCI or "yes"/"no"."""

    TYPE: ClassVar[str] = "question"
    text: str
    candidates: tuple[str, ...]
    to: Who


@dataclass(frozen=True)
class Refused(TableEventBase):
    """An action refused: ``what`` ("press", "move", "mirror", "answer", "ruling", …) and why, in words."""

    TYPE: ClassVar[str] = "refused"
    what: str
    text: str


@dataclass(frozen=True)
class Diverged(TableEventBase):
    """The boards part from the game at half-move index ``ply`` (D.2.9)."""

    TYPE: ClassVar[str] = "divergence"
    ply: int


@dataclass(frozen=True)
class Ruled(TableEventBase):
    """The arbiter's ruling (D.2.9) applied: ``kind`` "correct-board" | "retrace"; ``plies`` after it."""

    TYPE: ClassVar[str] = "ruling"
    kind: str
    plies: int


@dataclass(frozen=True)
class Final(TableEventBase):
    """The state at the end of a script: boards and game (FEN), plies, both scores, clocks, result."""

    TYPE: ClassVar[str] = "final"
    boards: dict[str, str]
    game: str
    plies: int
    scores: dict[str, list[str]]
    clocks: dict[str, float | None]
    result: str | None


@dataclass(frozen=True)
class MirrorDone(TableEventBase):
    """Board ``board`` now shows the move of ``ply`` as made (a correct mirror)."""

    TYPE: ClassVar[str] = "mirrored"
    board: BoardName
    ply: int


@dataclass(frozen=True)
class ClockPressed(TableEventBase):
    """The clock was pressed after half-move ``ply``: remaining times (None without a clock)."""

    TYPE: ClassVar[str] = "clock"
    ply: int
    white: float | None
    black: float | None


@dataclass(frozen=True)
class GameEnded(TableEventBase):
    """The game ended: ``result`` ("1-0", "0-1", "1/2-1/2") and ``reason`` (e.g. "checkmate")."""

    TYPE: ClassVar[str] = "game-end"
    result: str
    reason: str


@dataclass(frozen=True)
class ClaimDecided(TableEventBase):
    """A claim judged (Art. 6.8, 9.2, 9.3, 9.5; A.4, B): ``by`` "blind" or "sighted" (the assistant on his
    side), ``kind`` "threefold" | "fifty" | "time" | "illegal" | "quickplay" (Guidelines III.4: refused when it
    cannot be filed, else upheld or not by the arbiter's verdict; a postponed claim is no judgment) | "setup" (a
    wrong set-up, Appendix A a: upheld when it may still be claimed; the arbiter decides) | "touch" (touch-move,
    Art. 4.3, A b: upheld when the touches recorded show a breach; the arbiter rules), ``upheld``."""

    TYPE: ClassVar[str] = "claim"
    by: Who
    kind: ClaimKind | Literal["quickplay", "setup", "touch"]
    upheld: bool


@dataclass(frozen=True)
class Ended(TableEventBase):
    """The game ended, however it ended: ``result`` ("1-0", "0-1", "1/2-1/2") and ``reason``
    ("checkmate", "resignation", "agreement", "threefold_repetition", "time_forfeit", …)."""

    TYPE: ClassVar[str] = "ended"
    result: str
    reason: str


@dataclass(frozen=True)
class GameAdjourned(TableEventBase):
    """The game is adjourned (Guidelines I.1): ``sealer`` ("blind"/"sighted") seals half-move ``ply`` (1-based)."""

    TYPE: ClassVar[str] = "adjourned"
    sealer: Who
    ply: int


@dataclass(frozen=True)
class Sealed(TableEventBase):
    """``by`` sealed his move: the envelope is closed (Guidelines I.1). Nothing of the move — not whether it
    reads as a legal move — is in it; a sealed move he must write again is told to him alone."""

    TYPE: ClassVar[str] = "sealed"
    by: Who


@dataclass(frozen=True)
class Resumed(TableEventBase):
    """The envelope was opened at resumption (Guidelines I.7, I.9 a): ``uci`` the sealed move made on both
    boards (None: it loses, I.8)."""

    TYPE: ClassVar[str] = "resumed"
    uci: str | None


@dataclass(frozen=True)
class ResponderAbsent(TableEventBase):
    """At resumption the player who must reply to the sealed move, ``responder`` ("blind"/"sighted"), is
    absent: his clock is started, the envelope opened when he arrives (Guidelines I.9 b)."""

    TYPE: ClassVar[str] = "responder-absent"
    responder: Who


@dataclass(frozen=True)
class SealerAbsent(TableEventBase):
    """At resumption the player who sealed, ``sealer`` ("blind"/"sighted"), is absent: the envelope was opened,
    the sealed move made, and his opponent seals his reply in a new envelope (Guidelines I.9 c)."""

    TYPE: ClassVar[str] = "sealer-absent"
    sealer: Who


@dataclass(frozen=True)
class IllegalMoveCorrected(TableEventBase):
    """The illegal move of half-move ``ply`` (1-based) that stood is taken back with every move after it, the
    position before it set up again: ``by`` "claim" (claimed in rapid, A.4.2), "agreement" (both players,
    blitz, Appendix B) or "arbiter" (without a claim: both kings in check or a promotion not completed,
    rapid, Appendix A c)."""

    TYPE: ClassVar[str] = "illegal-corrected"
    ply: int
    by: Literal["claim", "agreement", "arbiter"]


@dataclass(frozen=True)
class EnvelopeMissing(TableEventBase):
    """Resumed without the envelope (Guidelines I.12): ``reason`` "missing" or "mismatch" (its move is not
    the one committed to at the sealing); ``sealer`` ("blind"/"sighted") makes the move he states he sealed."""

    TYPE: ClassVar[str] = "envelope-lost"
    sealer: Who
    reason: Literal["missing", "mismatch"]


@dataclass(frozen=True)
class DeviceRequest(TableEventBase):
    """Something a device must do: the peg-board a snapshot or the position it should show (``fen``), the
    e-board a dump, the engine a move in position ``fen``."""

    TYPE: ClassVar[str] = "device"
    device: Device
    what: DeviceAction
    fen: str | None = None


@dataclass(frozen=True)
class Heard(TableEventBase):
    """What the recogniser heard from ``by`` (with its confidence), as passed to the table."""

    TYPE: ClassVar[str] = "heard"
    by: Who
    text: str
    confidence: float | None


TableEvent = (Said | Speak | Shown | Touched | Moved | Asked | Refused | Diverged | Ruled | Final | MirrorDone
              | ClockPressed | GameEnded | ClaimDecided | Ended | GameAdjourned | Sealed | Resumed | ResponderAbsent
              | SealerAbsent | IllegalMoveCorrected | EnvelopeMissing | DeviceRequest | Heard)

#: JSON type -> event class (the one registry).
EVENT_TYPES: dict[str, type[TableEventBase]] = {
    cls.TYPE: cls
    for cls in (Said, Speak, Shown, Touched, Moved, Asked, Refused, Diverged, Ruled, Final, MirrorDone,
                ClockPressed, GameEnded, ClaimDecided, Ended, GameAdjourned, Sealed, Resumed, ResponderAbsent,
                SealerAbsent, IllegalMoveCorrected, EnvelopeMissing, DeviceRequest, Heard)
}


def from_json(data: Mapping[str, Any]) -> TableEventBase:
    """The event of a :meth:`~TableEventBase.to_json` dict, read by the one codec. Raises KeyError for an
    unknown type or a missing field, TypeError/ValueError for a value of the wrong kind."""
    cls = EVENT_TYPES[str(data["type"])]
    return cls(**decode_fields(cls, data))
