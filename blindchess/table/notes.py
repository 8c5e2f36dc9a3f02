"""What the table keeps in the journal: its own facts, typed (pure).

The rules engine keeps notes for the record (:class:`~blindchess.game.Note`: a text,
a ``kind`` and the line's own keys). The table writes its facts there — the question
open, the wording chosen, the game closed on purpose, a castling intent, a practice
game's slips — each as one frozen dataclass on :class:`~blindchess.base.Fact` (its
``KIND`` names it, its fields are the note's keys), given to
:meth:`~blindchess.game.Session.note`, and reads them back with :func:`read_note`
through the one codec (:func:`blindchess.base.decode_fields`). Nothing at the table
builds or reads a note's keys by hand.

The kinds and keys are those every earlier version wrote, so journals of every
version read the same (:class:`SetupNoted` is only read: the set-up is kept in the
game's first line now).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from ..base import Fact, decode_fields
from ..game import Note
from ..language import Wording
from .setup import Question

__all__ = ["SetupNoted", "QuestionOpen", "QuestionClosed", "WordingChosen", "TableClosed", "CastleIntent",
           "SlipKind", "SlipNoted", "EngineFailure", "ClaimNoted", "TableNote", "NOTES", "read_note"]

#: What a practice game counts as the blind player's slips (:class:`~blindchess.table.opponent.Slips`).
SlipKind = Literal["corrected", "unclear", "mirror", "press", "takeback"]


@dataclass(frozen=True)
class SetupNoted(Fact):
    """The table's set-up as journals of earlier versions noted it (read only)."""

    KIND: ClassVar[str] = "table-setup"
    setup: Mapping[str, Any]


@dataclass(frozen=True)
class QuestionOpen(Fact):
    """The table asked ``question`` (it survives a crash)."""

    KIND: ClassVar[str] = "table-question"
    question: Question


@dataclass(frozen=True)
class QuestionClosed(Fact):
    """The open question was answered or closed."""

    KIND: ClassVar[str] = "table-question-closed"


@dataclass(frozen=True)
class WordingChosen(Fact):
    """From now on the blind player hears moves and squares in ``wording``."""

    KIND: ClassVar[str] = "table-wording"
    wording: Wording


@dataclass(frozen=True)
class TableClosed(Fact):
    """The game was closed on purpose (the app quit, another game opened): the time until it is reopened
    is no play time (a crash leaves no such note: the player to move kept thinking)."""

    KIND: ClassVar[str] = "table-closed"


@dataclass(frozen=True)
class CastleIntent(Fact):
    """The blind player said he is about to castle (the note's text is what he said)."""

    KIND: ClassVar[str] = "castle-intent"


@dataclass(frozen=True)
class SlipNoted(Fact):
    """A slip of the blind player in a practice game; a take-back names the half-moves kept (``plies``)."""

    KIND: ClassVar[str] = "practice-slip"
    slip: SlipKind
    plies: int | None = None


@dataclass(frozen=True)
class EngineFailure(Fact):
    """The engine of a practice game failed (the note's text is its one sentence)."""

    KIND: ClassVar[str] = "practice-engine-failed"


@dataclass(frozen=True)
class ClaimNoted(Fact):
    """A claim the table judges itself, for the arbiter to decide what follows — a wrong set-up (Appendix A a),
    touch-move (Art. 4.3, A b): ``by`` "blind" or "sighted", ``upheld`` (the note's text is what was shown).
    On the record as every claim is, and so made once across a crash."""

    KIND: ClassVar[str] = "table-claim"
    claim: Literal["setup", "touch"]
    by: Literal["blind", "sighted"]
    upheld: bool


TableNote = SetupNoted | QuestionOpen | QuestionClosed | WordingChosen | TableClosed | CastleIntent | SlipNoted \
    | EngineFailure | ClaimNoted

#: Note kind -> the table's fact (the one registry).
NOTES: dict[str, type[TableNote]] = {cls.KIND: cls for cls in (
    SetupNoted, QuestionOpen, QuestionClosed, WordingChosen, TableClosed, CastleIntent, SlipNoted, EngineFailure,
    ClaimNoted)}


def read_note(note: Note) -> TableNote | None:
    """The table's fact in ``note``; None for another's note or one whose keys do not read (damaged)."""
    cls = NOTES.get(note.kind or "")
    if cls is None:
        return None
    try:
        return cls(**decode_fields(cls, note.data))
    except (KeyError, TypeError, ValueError):
        return None
