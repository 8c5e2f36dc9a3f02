"""The event log: sequence numbers, the journal, subscribers, the sealed move's privacy.

An input event is written to the journal (fsynced) *before* it is applied; derived
events are written after it (one fsync for the batch); subscribers are told after
the journal holds everything. While a journal is replayed nothing is written and
nobody is told.

The sealed move of an adjournment (Guidelines I 1-2) is the one event with a
secret: ``sealed-move`` carries ``public`` and ``hidden``. The journal holds it
whole; :attr:`EventLog.events` and subscribers get it without ``hidden`` (and with
``"sealed": True``) until :meth:`EventLog.reveal` (the envelope opened, Guidelines I 7).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..i18n import tr
from ..journal import JournalWriter
from .events import Event

__all__ = ["EventLog", "without_hidden"]


def without_hidden(ev: Event) -> Event:
    """A sealed-move event as anyone may see it before the envelope is opened."""
    public = {k: v for k, v in ev.items() if k != "hidden"}
    public["sealed"] = True
    return public


class EventLog:
    """All events of one game, in order; see the module docstring."""

    def __init__(self, now: float, lang: str) -> None:
        self.lang = lang
        self.events: list[Event] = []
        self.callback_errors: list[str] = []
        self.seq = 0
        self.last_t = now
        self.replaying = False
        self.journal_path: Path | None = None
        self.problems: list[tuple[int, str]] = []
        self.sealed: dict[int, Event] = {}   # seq -> the whole sealed-move event, hidden part included
        self.opened: set[int] = set()        # seqs of sealed moves whose envelope has been opened
        self._journal: JournalWriter | None = None
        self._subscribers: list[Callable[[Event], None]] = []
        self._outbox: list[Event] = []
        self._apply: Callable[[Event], None] = _nothing

    def bind(self, apply: Callable[[Event], None]) -> None:
        """The function that applies an input event (the game's registry dispatch)."""
        self._apply = apply

    # -- journal -------------------------------------------------------------------------

    def open_journal(self, path: Path) -> None:
        """Append every new event to ``path`` from now on (raises OSError)."""
        self._journal = JournalWriter(path)
        self.journal_path = Path(path)

    def close(self) -> None:
        if self._journal is not None:
            self._journal.close()

    # -- subscribers -----------------------------------------------------------------------

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        """Call ``callback(event)`` for every new event; returns a function that unsubscribes."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)
        return unsubscribe

    # -- recording ---------------------------------------------------------------------------

    def _event(self, type_: str, now: float, fields: dict[str, Any], derived: bool) -> Event:
        self.seq += 1
        ev: Event = {"seq": self.seq, "type": type_, "t": now}
        if derived:
            ev["derived"] = True
        ev.update(fields)
        return ev

    def do(self, type_: str, now: float, **fields: Any) -> Event:
        """Record an input event (journal + fsync first), apply it, then deliver everything.

        Raises UserError when the journal cannot be written (nothing is applied then).
        """
        ev = self._event(type_, now, fields, False)
        if self._journal is not None and not self.replaying:
            try:
                self._journal.append(ev)
            except OSError as exc:  # nothing is applied that the journal does not hold
                self.seq -= 1
                raise UserError(tr("session.journal_write_failed", self.lang, path=self.journal_path,
                                   error=exc.strerror or exc)) from exc
        self.record_input(ev)
        self.flush()
        return ev

    def record_input(self, ev: Event) -> None:
        """Apply an input event (also while replaying a journal)."""
        if ev["type"] == "sealed-move":
            # Guidelines I: the sealed move stays in the journal and here, never in the public list.
            self.sealed[int(ev["seq"])] = ev
            ev = without_hidden(ev)
        self.events.append(ev)
        self._outbox.append(ev)
        self.last_t = max(self.last_t, float(ev.get("t", self.last_t)))
        self._apply(ev)
        if self.replaying:
            self._outbox.clear()

    def derive(self, type_: str, now: float, **fields: Any) -> Event:
        """A derived event: told with the next :meth:`flush`."""
        ev = self._event(type_, now, fields, True)
        self.events.append(ev)
        if not self.replaying:
            self._outbox.append(ev)
        return ev

    def told(self, type_: str, now: float, **fields: Any) -> Event:
        """A derived event told at once (a refusal: nothing else changes)."""
        ev = self.derive(type_, now, **fields)
        self.flush()
        return ev

    def drop_last(self, ev: Event) -> None:
        """Forget ``ev`` when it is the last event (a journal line that did not fit the game)."""
        if self.events and self.events[-1] is ev:
            self.events.pop()

    def reveal(self, seq: int) -> None:
        """The envelope of sealed move ``seq`` is opened: the event shows ``hidden`` from now on."""
        if seq not in self.sealed:
            raise KeyError(seq)
        self.opened.add(seq)
        full = self.sealed[seq]
        for i, old in enumerate(self.events):
            if old.get("seq") == seq and old.get("type") == "sealed-move":
                self.events[i] = dict(full)
                break

    def flush(self) -> None:
        """Journal the derived events, then tell the subscribers everything new."""
        out, self._outbox = self._outbox, []
        if self.replaying:
            return
        if self._journal is not None:
            derived = [e for e in out if e.get("derived")]
            for e in derived:
                self._journal.append(e, sync=False)
            if derived:
                self._journal.sync()
        for ev in out:
            for cb in list(self._subscribers):
                try:
                    cb(ev)
                except Exception as exc:  # noqa: BLE001 - a listener's failure (the UI's code) must not stop the game
                    self.callback_errors.append(f"{type(exc).__name__}: {exc}")


def _nothing(ev: Event) -> None:
    return None
