"""The game's record: sequence numbers, the journal in units, the sealed move's privacy.

Every command of the engine records its input event and the outcomes it causes.
They are applied at once (the next command sees them) and written to the journal
as one **unit**: at :meth:`EventLog.commit`, in one write and one fsync, the first
line naming how many lines the unit has. A reader applies a unit whole or not at
all, so a crash at any byte leaves either the unit or nothing of it — and nothing
of an uncommitted unit was told to anybody: the caller tells people only after the
commit (journal first, then act). Commands outside an open unit commit at once.

Every input applied exactly once, across any crash: a unit opened for an input with its identity
(:class:`~blindchess.storage.InputId` — a script's line, the program's own count) keeps that identity
on its first line, and :meth:`EventLog.holds` answers whether an input has been applied — it, or a
later one of the same origin, stands in the journal (read back when the game is reopened) or has been
applied since. A front that may give an input again after a crash (a script played on from where the
program was killed) asks, and what is held is not applied a second time.

While a journal is replayed nothing is written.

The sealed move of an adjournment (Guidelines I.1-2) is the one event with a secret:
the journal holds it without the move as written (the envelope file keeps that, see
:mod:`blindchess.game.adjournment`); :attr:`EventLog.events` holds it without ``hidden``
(and ``sealed=True``) until :meth:`EventLog.reveal` (the envelope opened, Guidelines I.7).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..storage import InputId, JournalWriter
from .events import GameEvent, SealedMove, to_json

__all__ = ["EventLog", "JournalError"]



class JournalError(OSError):
    """The journal could not be written: nothing of the unit counts (the engine is restored from the file)."""


class EventLog:
    """All events of one game, in order; see the module docstring."""

    def __init__(self, now: float) -> None:
        self.events: list[GameEvent] = []
        self.seq = 0
        self.last_t = now
        self.replaying = False
        self.journal_path: Path | None = None
        self.problems: list[tuple[int, str]] = []
        self.sealed: dict[int, SealedMove] = {}   # seq -> the whole sealed move, hidden part included
        self.opened: set[int] = set()             # seqs of sealed moves whose envelope has been opened
        self._journal: JournalWriter | None = None
        self._unit: list[GameEvent] = []          # recorded, not yet journaled
        self._depth = 0
        self._ident: InputId | None = None        # the input of the unit being recorded
        #: The highest input of each origin applied (read from the journal, then as applied).
        self.held: dict[str, InputId] = {}
        self._apply: Callable[[GameEvent], None] = _nothing

    def bind(self, apply: Callable[[GameEvent], None]) -> None:
        """The function that applies an input event (the engine's dispatch)."""
        self._apply = apply

    # -- journal -------------------------------------------------------------------------
    def open_journal(self, path: Path) -> None:
        """Write every new unit to ``path`` from now on (raises OSError)."""
        self._journal = JournalWriter(path)
        self.journal_path = Path(path)

    def close(self) -> None:
        if self._journal is not None:
            self._journal.close()

    def abandon(self) -> None:
        """The program dies: the journal is left as written (see :meth:`JournalWriter.abandon`)."""
        if self._journal is not None:
            self._journal.abandon()

    # -- recording -----------------------------------------------------------------------
    def record(self, ev: GameEvent) -> None:
        """Record ``ev`` (numbered), apply it when it is an input.

        Outcomes the input causes are recorded by its handler (:meth:`record` again).
        """
        ev = dataclasses.replace(ev, seq=self.seq + 1)
        self.seq += 1
        self.last_t = max(self.last_t, ev.t)
        self._unit.append(ev)
        if isinstance(ev, SealedMove):
            self.sealed[ev.seq] = ev
            self.events.append(dataclasses.replace(ev, hidden=None, sealed=True))
        else:
            self.events.append(ev)
        if ev.INPUT:
            self._depth += 1
            try:
                self._apply(ev)
            finally:
                self._depth -= 1
        if self._depth == 0:
            self.commit()

    @contextmanager
    def unit(self, ident: InputId | None = None) -> Iterator[None]:
        """Everything recorded inside is one unit, committed at the end (also when nested: the outermost).

        ``ident``: the input the unit is for (the outermost unit's counts); its first line keeps it, and
        :meth:`holds` answers yes for it from now on."""
        if self._depth == 0:
            self._ident = ident
            if ident is not None:
                self._hold(ident)
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
        if self._depth == 0:
            self.commit()

    def holds(self, ident: InputId) -> bool:
        """Whether input ``ident`` has been applied: it or a later input of its origin is held."""
        held = self.held.get(ident.origin)
        return held is not None and ident <= held

    def _hold(self, ident: InputId) -> None:
        if not self.holds(ident):
            self.held[ident.origin] = ident

    def commit(self) -> None:
        """Journal the events recorded since the last commit as one unit.

        Raises :class:`JournalError` when the journal cannot be written (the events stay
        recorded here: the owner restores the game from the file).
        """
        unit, self._unit = self._unit, []
        ident, self._ident = self._ident, None
        if unit and self._journal is not None and not self.replaying:
            try:
                self._journal.append_unit([to_json(_journaled(ev)) for ev in unit], ident=ident)
            except OSError as exc:
                raise JournalError(exc.errno, exc.strerror or str(exc), str(self.journal_path)) from exc

    def drop_since(self, seq: int) -> None:
        """Forget the events from ``seq`` on (replay: a journal line that did not fit the game)."""
        self.events = [ev for ev in self.events if ev.seq < seq]
        self._unit = [ev for ev in self._unit if ev.seq < seq]

    def reveal(self, seq: int, hidden: Mapping[str, Any]) -> None:
        """The envelope of sealed move ``seq`` is opened: the event shows ``hidden`` from now on — the move
        as written that the opened envelope holds (a game reopened from its journal has only the public
        part of the sealed move). KeyError when no such move was sealed."""
        full = self.sealed[seq] = dataclasses.replace(self.sealed[seq], hidden=dict(hidden))
        self.opened.add(seq)
        for i, old in enumerate(self.events):
            if old.seq == seq and isinstance(old, SealedMove):
                self.events[i] = full
                break


def _nothing(ev: GameEvent) -> None:
    return None


def _journaled(ev: GameEvent) -> GameEvent:
    """``ev`` as the journal holds it: a sealed move without the move as written (the envelope keeps it)."""
    return dataclasses.replace(ev, hidden=None) if isinstance(ev, SealedMove) else ev
