"""The table's events: what happened at the table, typed, with one registry (pure).

Every event is a frozen dataclass with ``t`` (seconds, the time passed in by the
front end) and :meth:`to_json`, which gives exactly the scenario runner's JSON
(docs/developer/scenario-format.md): ``t``, ``type`` and the event's fields. :data:`EVENT_TYPES`
maps every JSON type to its class; :func:`from_json` reads an event back.

The types of the scenario format (``said``, ``shown``, ``touched``, ``move``,
``question``, ``refused``, ``divergence``, ``ruling``, ``claim``, ``ended``,
``adjourned``, ``sealed``, ``resumed``, ``final``) are exact; the others (``speak``, ``mirrored``, ``clock``,
``game-end``, ``device``, ``heard``) are extra — front ends act on them (``speak``: start
saying a text now; ``device``: send a request to a board) and a scenario report
may list them.

``said`` is delivered when the utterance is over — finished or cut — with
``t`` the moment it began to be spoken: only then is ``cut`` known. ``speak``
is delivered when it begins (that is what a speech engine carries out).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

__all__ = [
    "Said", "Speak", "Shown", "Touched", "Moved", "Asked", "Refused", "Diverged", "Ruled", "Final",
    "MirrorDone", "ClockPressed", "GameEnded", "ClaimDecided", "Ended", "GameAdjourned", "Sealed", "Resumed", "ResponderAbsent", "EnvelopeMissing",
    "DeviceRequest", "Heard", "TableEvent", "EVENT_TYPES",
    "from_json",
]


def _round(t: float) -> float:
    return round(float(t), 3)


@dataclass(frozen=True)
class _Event:
    """Common part: ``t`` and the JSON form (``t``, ``type``, then the fields in declaration order)."""

    type_name: ClassVar[str] = ""
    t: float

    def to_json(self) -> dict[str, Any]:
        """``{"t": …, "type": …, <fields>}`` — the scenario JSON of this event."""
        out: dict[str, Any] = {"t": _round(self.t), "type": self.type_name}
        for f in dataclasses.fields(self):
            if f.name == "t":
                continue
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True)
class Said(_Event):
    """A text spoken to ``to`` ("blind", "sighted" or "all"); ``cut``: a later utterance interrupted it."""

    type_name: ClassVar[str] = "said"
    to: str
    text: str
    cut: bool


@dataclass(frozen=True)
class Speak(_Event):
    """Begin saying ``text`` now (``interrupt``: stop what is being said first). For speech engines."""

    type_name: ClassVar[str] = "speak"
    to: str
    text: str
    priority: str
    interrupt: bool


@dataclass(frozen=True)
class Shown(_Event):
    """A message shown to the sighted side (message line, log)."""

    type_name: ClassVar[str] = "shown"
    text: str


@dataclass(frozen=True)
class Touched(_Event):
    """A touch that counts (D.2.2 on the tactile board, D.2.5 on the sighted board)."""

    type_name: ClassVar[str] = "touched"
    square: str
    by: str


@dataclass(frozen=True)
class Moved(_Event):
    """A move made (D.2.3 / D.2.5); ``ply`` 1-based, ``san`` in English SAN."""

    type_name: ClassVar[str] = "move"
    ply: int
    color: str
    uci: str
    san: str


@dataclass(frozen=True)
class Asked(_Event):
    """A question (D.2.1 unclear announcement, resignation, draw answer); ``candidates``: UCI or "yes"/"no"."""

    type_name: ClassVar[str] = "question"
    text: str
    candidates: tuple[str, ...]
    to: str


@dataclass(frozen=True)
class Refused(_Event):
    """An action refused: ``what`` ("press", "move", "mirror", "answer", "ruling", …) and why, in words."""

    type_name: ClassVar[str] = "refused"
    what: str
    text: str


@dataclass(frozen=True)
class Diverged(_Event):
    """The boards part from the game at half-move index ``ply`` (D.2.9)."""

    type_name: ClassVar[str] = "divergence"
    ply: int


@dataclass(frozen=True)
class Ruled(_Event):
    """The arbiter's ruling (D.2.9) applied: ``kind`` "correct-board" | "retrace"; ``plies`` after it."""

    type_name: ClassVar[str] = "ruling"
    kind: str
    plies: int


@dataclass(frozen=True)
class Final(_Event):
    """The state at the end of a script: boards and game (FEN), plies, both scores, clocks, result."""

    type_name: ClassVar[str] = "final"
    boards: dict[str, str]
    game: str
    plies: int
    scores: dict[str, list[str]]
    clocks: dict[str, float | None]
    result: str | None


@dataclass(frozen=True)
class MirrorDone(_Event):
    """Board ``board`` now shows the move of ``ply`` as made (a correct mirror)."""

    type_name: ClassVar[str] = "mirrored"
    board: str
    ply: int


@dataclass(frozen=True)
class ClockPressed(_Event):
    """The clock was pressed after half-move ``ply``: remaining times (None without a clock)."""

    type_name: ClassVar[str] = "clock"
    ply: int
    white: float | None
    black: float | None


@dataclass(frozen=True)
class GameEnded(_Event):
    """The game ended: ``result`` ("1-0", "0-1", "1/2-1/2") and ``reason`` (e.g. "checkmate")."""

    type_name: ClassVar[str] = "game-end"
    result: str
    reason: str


@dataclass(frozen=True)
class ClaimDecided(_Event):
    """A claim judged (Art. 6.8, 9.2, 9.3, 9.5; A.4, B): ``by`` "blind" or "sighted" (the assistant on his
    side), ``kind`` "threefold" | "fifty" | "time" | "illegal" | "quickplay" (Guidelines III.4: refused when it
    cannot be filed, else upheld or not by the arbiter's verdict; a postponed claim is no judgment), ``upheld``."""

    type_name: ClassVar[str] = "claim"
    by: str
    kind: str
    upheld: bool


@dataclass(frozen=True)
class Ended(_Event):
    """The game ended, however it ended: ``result`` ("1-0", "0-1", "1/2-1/2") and ``reason``
    ("checkmate", "resignation", "agreement", "threefold_repetition", "time_forfeit", …)."""

    type_name: ClassVar[str] = "ended"
    result: str
    reason: str


@dataclass(frozen=True)
class GameAdjourned(_Event):
    """The game is adjourned (Guidelines I.1): ``sealer`` ("blind"/"sighted") seals half-move ``ply`` (1-based)."""

    type_name: ClassVar[str] = "adjourned"
    sealer: str
    ply: int


@dataclass(frozen=True)
class Sealed(_Event):
    """``by`` wrote his sealed move: ``valid`` whether it reads as one legal move (never the move itself).
    Valid: the envelope is sealed; not valid: he is told why and writes again (written again: sealed)."""

    type_name: ClassVar[str] = "sealed"
    by: str
    valid: bool


@dataclass(frozen=True)
class Resumed(_Event):
    """The envelope was opened at resumption (Guidelines I.7, I.9 a): ``uci`` the sealed move made on both
    boards (None: it loses, I.8)."""

    type_name: ClassVar[str] = "resumed"
    uci: str | None


@dataclass(frozen=True)
class ResponderAbsent(_Event):
    """At resumption the player who must reply to the sealed move, ``responder`` ("blind"/"sighted"), is
    absent: his clock is started, the envelope opened when he arrives (Guidelines I.9 b)."""

    type_name: ClassVar[str] = "responder-absent"
    responder: str


@dataclass(frozen=True)
class EnvelopeMissing(_Event):
    """Resumed without the envelope (Guidelines I.12): ``reason`` "missing" or "mismatch" (its move is not
    the one committed to at the sealing); ``sealer`` ("blind"/"sighted") makes the move he states he sealed."""

    type_name: ClassVar[str] = "envelope-lost"
    sealer: str
    reason: str


@dataclass(frozen=True)
class DeviceRequest(_Event):
    """Something a device must do: ``device`` "pegboard"; ``what`` "snapshot" or "expect" (``fen``)."""

    type_name: ClassVar[str] = "device"
    device: str
    what: str
    fen: str | None = None


@dataclass(frozen=True)
class Heard(_Event):
    """What the recogniser heard from ``by`` (with its confidence), as passed to the table."""

    type_name: ClassVar[str] = "heard"
    by: str
    text: str
    confidence: float | None


TableEvent = (Said | Speak | Shown | Touched | Moved | Asked | Refused | Diverged | Ruled | Final | MirrorDone
              | ClockPressed | GameEnded | ClaimDecided | Ended | GameAdjourned | Sealed | Resumed | ResponderAbsent
              | EnvelopeMissing | DeviceRequest | Heard)

#: JSON type -> event class (the one registry).
EVENT_TYPES: dict[str, type[_Event]] = {
    cls.type_name: cls
    for cls in (Said, Speak, Shown, Touched, Moved, Asked, Refused, Diverged, Ruled, Final, MirrorDone,
                ClockPressed, GameEnded, ClaimDecided, Ended, GameAdjourned, Sealed, Resumed, ResponderAbsent, EnvelopeMissing, DeviceRequest,
                Heard)
}


def from_json(data: dict[str, Any]) -> _Event:
    """The event of a :meth:`to_json` dict. Raises KeyError for an unknown type, TypeError for wrong fields."""
    cls = EVENT_TYPES[str(data["type"])]
    fields = {k: v for k, v in data.items() if k != "type"}
    names = {f.name: f for f in dataclasses.fields(cls)}
    for key, value in fields.items():
        if key in names and isinstance(value, list) and "tuple" in str(names[key].type):
            fields[key] = tuple(value)
    return cls(**fields)
