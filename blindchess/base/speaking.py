"""Speech priorities and the one rule of what may cut what, with the queue every speech output keeps (pure).

Everything the program says to a person has one of these priorities, highest first:

``move``      a move announced or confirmed (FIDE Laws D.2.1), the arbiter's ruling, the end of the game
``question``  the table asks (D.2.1, a resignation or a draw to confirm)
``answer``    an answer to a request, a refusal, the answer of the window to a key
``status``    a state of the game that is worth hearing only at once (a touch, the tactile board)
``notice``    a line of the window that is not about the game (the look, the broadcast's address, a device)
``reading``   the board cursor's square, a menu — the program voice's own echo of the keys

The rule (:func:`may_cut`): **a text is never cut by another text** — it is said to its end, and what
comes meanwhile waits, the highest priority first, in the order it came within one priority — unless
the newer text *replaces the same request* (the same ``about``: a request asked again, the next square
under the cursor). Two kinds of text are echoes of what a hand just did, not messages: a ``reading``
(the key's square) is cut by anything, a ``status`` (the peg just lifted) by anything but a reading —
either is worth hearing only at once. The listener's own "stop" cuts everything (that is not a text
cutting a text).

The table's speech policy (:mod:`blindchess.table.speech`), the program's voice
(:mod:`blindchess.adapters.speech.tts`) and the screen-reader channel
(:mod:`blindchess.adapters.speech.screenreader`, the window's notices) all use :class:`Priority`,
:func:`may_cut` and :class:`SpeechQueue`, so they never disagree about what comes first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

__all__ = ["Priority", "may_cut", "SpeechQueue", "Utterance", "speaking_time", "DEFAULT_WPM"]

#: Words per minute of a voice that does not say otherwise.
DEFAULT_WPM = 175.0


class Priority(StrEnum):
    """A speech priority (see the module docstring); compares equal to its name ("move" …)."""

    MOVE = "move"
    QUESTION = "question"
    ANSWER = "answer"
    STATUS = "status"
    NOTICE = "notice"
    READING = "reading"

    @property
    def rank(self) -> int:
        """0 for the highest priority (``move``), 5 for the lowest (``reading``)."""
        return _ORDER.index(self)

    @classmethod
    def of(cls, name: str) -> Priority:
        """The priority called ``name``; raises ValueError for an unknown one."""
        try:
            return cls(name)
        except ValueError:
            raise ValueError(f"unknown priority {name!r}") from None


_ORDER = tuple(Priority)


def may_cut(new: str, current: str, *, same_request: bool = False) -> bool:
    """Whether a text of priority ``new`` may cut one of priority ``current`` that is being said.

    Only a newer text about the same request (``same_request``) cuts a text; the echoes are cut sooner: a
    ``reading`` by anything, a ``status`` by anything but a reading. Raises ValueError for an unknown priority.
    """
    newer, older = Priority.of(new), Priority.of(current)
    if same_request or older is Priority.READING:
        return True
    return older is Priority.STATUS and newer is not Priority.READING


def speaking_time(text: str, wpm: float = DEFAULT_WPM) -> float:
    """Modelled speaking time of ``text`` in seconds: its words at ``wpm`` words a minute (at least one word)."""
    return max(1, len(text.split())) * 60.0 / wpm


@dataclass
class Utterance:
    """One text in a :class:`SpeechQueue`; ``ident`` is the output's own number for it."""

    text: str
    priority: Priority
    about: str | None = None
    ident: int = 0
    seq: int = field(default=0, compare=False)


class SpeechQueue:
    """The texts of one output: the one being said and those waiting (see the module docstring). Pure.

    :meth:`offer` takes a text and says what to do now — which text being said is to be cut (only the
    same request, or a reading) and which waiting ones are dropped (the same request: newer replaces
    older; a waiting reading is replaced by the next reading); :meth:`next` gives the text to say when the
    output is free; :meth:`done` reports that the text being said ended.
    """

    def __init__(self) -> None:
        self.current: Utterance | None = None
        self.waiting: list[Utterance] = []
        self._seq = 0

    def offer(self, text: str, priority: str, about: str | None = None, *,
              replace: bool = True) -> tuple[Utterance, Utterance | None, list[Utterance]]:
        """Queue ``text``; returns (the new utterance, the one being said that it cuts or None, the waiting ones
        it drops). ``about``: the request it answers; with ``replace`` (the default) it replaces the texts
        about the same request. A reading replaces waiting readings and cuts a reading being said."""
        self._seq += 1
        utt = Utterance(text, Priority.of(priority), about, self._seq, self._seq)
        def same(u: Utterance) -> bool:
            return replace and about is not None and u.about == about

        dropped = [u for u in self.waiting if same(u) or (utt.priority is Priority.READING
                                                          and u.priority is Priority.READING)]
        self.waiting = [u for u in self.waiting if u not in dropped]
        cut = None
        cur = self.current
        if cur is not None and may_cut(utt.priority, cur.priority, same_request=same(cur)):
            cut, self.current = cur, None
        self.waiting.append(utt)
        return utt, cut, dropped

    def next(self) -> Utterance | None:
        """The text to say now — the best waiting one when nothing is being said — made current; else None."""
        if self.current is not None or not self.waiting:
            return None
        best = min(self.waiting, key=lambda u: (u.priority.rank, u.seq))
        self.waiting.remove(best)
        self.current = best
        return best

    def done(self, ident: int | None = None) -> Utterance | None:
        """The text being said ended (``ident``: only when it is that one); returns it, or None."""
        cur = self.current
        if cur is None or (ident is not None and cur.ident != ident):
            return None
        self.current = None
        return cur

    def cut(self, about: str) -> tuple[Utterance | None, list[Utterance]]:
        """What is ``about`` a settled thing stops: (the one being said that is cut or None, the waiting ones dropped)."""
        dropped = [u for u in self.waiting if u.about == about]
        self.waiting = [u for u in self.waiting if u.about != about]
        cur = self.current
        if cur is not None and cur.about == about:
            self.current = None
            return cur, dropped
        return None, dropped

    def cut_waiting(self, ident: int) -> Utterance | None:
        """Drop the waiting text number ``ident``; returns it, or None when it does not wait."""
        found = next((u for u in self.waiting if u.ident == ident), None)
        if found is not None:
            self.waiting.remove(found)
        return found

    def clear(self) -> tuple[Utterance | None, list[Utterance]]:
        """The listener stopped the voice: (the one being said, the waiting ones) — all gone."""
        cur, waiting = self.current, self.waiting
        self.current, self.waiting = None, []
        return cur, waiting

    @property
    def busy(self) -> bool:
        return self.current is not None or bool(self.waiting)
