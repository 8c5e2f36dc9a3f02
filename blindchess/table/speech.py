"""What is said at the table, to whom, in which order, and what may interrupt what (pure).

One voice speaks at the table (the app's speech engine); every text is meant for
someone — ``"blind"`` (the visually impaired player), ``"sighted"`` or ``"all"``.
:class:`SpeechPolicy` decides, from the texts and the time passed in:

Priorities, highest first: ``move`` (a move announced or confirmed, D.2.1; the
arbiter's ruling), ``question`` (the table asks, D.2.1), ``answer`` (an answer
to a request, a refusal, a divergence), ``status`` (a touch, the tactile board's
state), ``reading`` (the board cursor, menus — the UI's own speech).

Who may interrupt whom:

* a ``move`` or a ``question`` is never cut: whatever comes meanwhile waits;
* an ``answer`` is cut by a ``move`` or a ``question``;
* a ``status`` is cut by anything but a ``reading``; a ``status`` that cannot be
  said at once is not said at all (a touch spoken 19 s late is wrong, not late);
* a ``reading`` is cut by anything, also by the next ``reading``; a reading
  that must wait replaces the reading waiting before it.

Waiting texts are spoken when the voice is free, highest priority first, in
the order they came within one priority.

Speaking time is modelled from the text: ``words × 60 / wpm`` seconds, at the
voice's rate — 175 words a minute unless ``voices/<lang>.toml`` sets ``rate``
— so whether an utterance was cut is exact. :class:`~blindchess.table.events.Said`
is given when an utterance is over (finished or cut; ``t`` = when it began),
:class:`~blindchess.table.events.Speak` when it begins.

A text may say what it is ``about``; :meth:`SpeechPolicy.withdraw` drops the
waiting texts about something that is settled (a ruling settles "the boards
part": its divergence message is not said after the ruling; a move made settles
a refusal still waiting), and :meth:`SpeechPolicy.cancel` also cuts it while it
is being said (an answered question stops being read).

Texts a person hears carry no article numbers (they are shown, not spoken):
:func:`spoken` takes them out. "Repeat" says the last announcement (the last
``move`` or ``question`` text) again.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass

from ..base import voices_dir
from .events import Said, Speak

__all__ = ["PRIORITIES", "DEFAULT_WPM", "SpeechPolicy", "spoken", "voice_rate", "internal_ids", "may_cut"]

#: Priorities, highest first.
PRIORITIES = ("move", "question", "answer", "status", "reading")
#: Words per minute of a voice that does not say otherwise.
DEFAULT_WPM = 175.0

_RANK = {name: i for i, name in enumerate(PRIORITIES)}

_ARTICLE_IN_PARENS = re.compile(
    r"\s*\((?:FIDE[^()]*|ФИДЕ[^()]*|[Aa]rt\.?\s*\d[^()]*|Artikel\s*\d[^()]*|ст\.\s*\d[^()]*|D\.\d[^()]*"
    r"|Guidelines[^()]*|Richtlinien[^()]*)\)")
_ARTICLE_BARE = re.compile(
    r"\s*\b(?:nach\s+|gemäß\s+|under\s+|per\s+)?(?:FIDE(?:[- ]Laws|[- ]Regeln)?\s+)?"
    r"(?:D\.\d+(?:\.\d+)*(?:\s+[a-f]\b)?|Art\.\s*\d+(?:\.\d+)*|Guidelines\s+[IVX]+(?:\s*\d+)?)")
_IDS = re.compile(r"\b[a-z]+_[a-z_]+\b|\b(?:retrace|correct-board|not-made|board-move[a-z-]*|move-made)\b")


def spoken(text: str) -> str:
    """``text`` as it may be said: article numbers ("(D.2.3)", "Art. 7", "FIDE Laws D.2.9") left out."""
    out = _ARTICLE_IN_PARENS.sub("", text)
    out = _ARTICLE_BARE.sub("", out)
    out = re.sub(r"\s+([.,;:!?])", r"\1", out)
    out = re.sub(r"\s{2,}", " ", out).strip()
    return out


def internal_ids(text: str) -> list[str]:
    """Internal identifiers in a text meant for a person ("sighted_follows", "retrace", …); [] when clean."""
    return _IDS.findall(text)


def may_cut(new: str, current: str) -> bool:
    """Whether an utterance of priority ``new`` may interrupt one of priority ``current``."""
    if current in ("move", "question"):
        return False
    if current == "answer":
        return new in ("move", "question")
    if current == "status":
        return new != "reading"
    return True  # a reading is cut by anything


@functools.cache
def voice_rate(lang: str) -> float:
    """Words per minute of the voice of ``lang``: ``rate`` in ``voices/<lang>.toml``, else 175."""
    path = voices_dir() / f"{lang}.toml"
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return DEFAULT_WPM
    for table in (data, data.get("speech", {}), data.get("voice", {})):
        rate = table.get("rate") if isinstance(table, dict) else None
        if isinstance(rate, (int, float)) and not isinstance(rate, bool) and rate > 0:
            return float(rate)
    return DEFAULT_WPM


@dataclass
class _Utterance:
    to: str
    text: str
    priority: str
    asked: float             # when it was asked for
    about: str | None = None  # what it is about (a ruling withdraws what it resolved)
    private: bool = False     # for the listener alone (never logged or shown, Guidelines I.1)
    start: float = 0.0
    end: float = 0.0


class SpeechPolicy:
    """The one voice at the table (see the module docstring). Pure: time is passed in.

    ``wpm``: words per minute (default: :func:`voice_rate` of ``lang``).
    Every method takes ``now`` (never decreasing) and returns the events it
    caused, in time order: :class:`Said` for utterances that are over,
    :class:`Speak` for those that begin.
    """

    def __init__(self, lang: str = "de", *, wpm: float | None = None) -> None:
        self.lang = lang
        self.wpm = float(wpm) if wpm else voice_rate(lang)
        if self.wpm <= 0:
            raise ValueError(f"words per minute must be positive: {wpm}")
        self._current: _Utterance | None = None
        self._queue: list[_Utterance] = []
        self._last: tuple[str, str] | None = None   # (to, text) of the last announcement
        self._now = float("-inf")

    # -- state
    def duration(self, text: str) -> float:
        """Modelled speaking time of ``text`` in seconds (whole words at the voice's rate)."""
        words = len(text.split())
        return max(1, words) * 60.0 / self.wpm

    def speaking(self, now: float) -> str | None:
        """The priority of what is being said at ``now`` (None: silent). Does not advance the policy."""
        cur = self._current
        if cur is None or cur.end <= now + 1e-9:
            return None if not self._queue else self._queue[0].priority
        return cur.priority

    def idle_at(self, now: float, *, readings: bool = True) -> float:
        """When everything being said and waiting will have been said (``now`` when silent).

        ``readings=False``: the UI's readings are left out — they are said last and cut by anything,
        so nothing waits for them (the table's :meth:`~blindchess.table.table.Table.idle_at`).
        """
        end = now
        cur = self._current
        if cur is not None and (readings or cur.priority != "reading"):
            end = max(end, cur.end)
        for utt in self._queue:
            if readings or utt.priority != "reading":
                end = max(end, utt.asked) + self.duration(utt.text)
        return end

    def next_end(self, *, readings: bool = True) -> float | None:
        """When the utterance being said ends (then the next waiting one begins); None when silent.

        ``readings=False``: None while a reading is being said (nothing waits behind a reading: anything
        said cuts it). A time not after the last ``now`` means it is over but not yet advanced past.
        """
        cur = self._current
        if cur is None or (not readings and cur.priority == "reading"):
            return None
        return cur.end

    @property
    def last_announcement(self) -> str | None:
        """The text "repeat" says again (the last move or question said), or None."""
        return self._last[1] if self._last else None

    @property
    def pending(self) -> int:
        """How many texts wait (besides the one being said)."""
        return len(self._queue)

    # -- input
    def say(self, text: str, to: str, priority: str, now: float, *, about: str | None = None,
            replace: bool = False, private: bool = False) -> list[Said | Speak]:
        """Ask for ``text`` to be said to ``to`` with ``priority`` (one of :data:`PRIORITIES`).

        The text is cleaned with :func:`spoken` first; an empty text is not said.
        ``about``: what the text is about, so that :meth:`withdraw` can drop it
        while it waits (e.g. "boards": the boards part, call the arbiter).
        ``replace``: newer replaces older — the texts waiting about the same ``about`` are
        dropped and the one being said about it is cut (a request asked again is answered
        at once, its older answer never late).
        ``private``: for ``to`` alone (see :class:`~blindchess.table.events.Said`); never repeated.
        Raises ValueError for an unknown priority or listener.
        """
        if priority not in _RANK:
            raise ValueError(f"unknown priority {priority!r}")
        if to not in ("blind", "sighted", "all"):
            raise ValueError(f"unknown listener {to!r}")
        out = self._finish(now)
        clean = spoken(text)
        if not clean:
            return out
        if replace and about is not None:
            self._queue = [u for u in self._queue if u.about != about]
            older = self._current
            if older is not None and older.about == about and older.end > now + 1e-9:
                out.append(_said(older, True))
                self._current = None
        utt = _Utterance(to, clean, priority, now, about, private)
        if priority in ("move", "question") and not private:
            self._last = (to, clean)
        cur = self._current
        if cur is None:
            if self._queue:     # the voice fell silent in this moment: the best waiting text goes first
                self._queue.append(utt)
                best = self._next()
                if priority == "status" and best is not utt:
                    self._queue.remove(utt)      # at once or not at all
                assert best is not None
                return out + self._start(best, now, interrupt=False)
            return out + self._start(utt, now, interrupt=False)
        if may_cut(priority, cur.priority):
            out.append(_said(cur, True))
            self._current = None
            return out + self._start(utt, now, interrupt=True)
        if priority == "status":
            return out          # at once or not at all
        if priority == "reading":
            self._queue = [u for u in self._queue if u.priority != "reading"]
        self._queue.append(utt)
        return out

    def repeat(self, now: float) -> list[Said | Speak]:
        """Say the last announcement again (nothing when there was none)."""
        if self._last is None:
            return self.advance(now)
        to, text = self._last
        return self.say(text, to, "move", now)

    def stop(self, now: float) -> list[Said | Speak]:
        """The listener stopped the voice: what is being said is cut, waiting texts are dropped."""
        out = self.advance(now)
        if self._current is not None:
            out.append(_said(self._current, True))
            self._current = None
        self._queue = []
        return out

    def withdraw(self, about: str) -> int:
        """Waiting texts ``about`` something that is settled now are dropped, never said (what is being
        said already is not cut here); returns how many were dropped."""
        before = len(self._queue)
        self._queue = [u for u in self._queue if u.about != about]
        return before - len(self._queue)

    def cancel(self, about: str, now: float) -> list[Said | Speak]:
        """What is ``about`` something that is over (an answered question) stops: being said, it is cut;
        waiting, it is dropped. The next waiting text begins with the next :meth:`say` or
        :meth:`advance` — so a text the same moment makes stale can still be withdrawn first."""
        out = self._finish(now)
        self.withdraw(about)
        cur = self._current
        if cur is not None and cur.about == about:
            out.append(_said(cur, True))
            self._current = None
        return out

    def advance(self, now: float) -> list[Said | Speak]:
        """Let time pass until ``now``: utterances end, waiting ones begin."""
        out = self._finish(now)
        if self._current is None:
            nxt = self._next()
            if nxt is not None:
                out += self._start(nxt, max(now, nxt.asked), interrupt=False)
        return out

    def _finish(self, now: float) -> list[Said | Speak]:
        """Utterances that are over by ``now`` end; the ones waiting behind them begin in turn."""
        self._now = max(self._now, now)
        out: list[Said | Speak] = []
        while self._current is not None and self._current.end <= now + 1e-9:
            done = self._current
            out.append(_said(done, False))
            self._current = None
            nxt = self._next()
            if nxt is not None:
                out += self._start(nxt, max(done.end, nxt.asked), interrupt=False)
        return out

    def finish(self, now: float) -> list[Said | Speak]:
        """Everything still to say is said to the end, uncut (the end of a script or a game)."""
        out = self.advance(now)
        while self._current is not None:
            out += self.advance(self._current.end)
        return out

    # -- internals
    def _next(self) -> _Utterance | None:
        if not self._queue:
            return None
        best = min(range(len(self._queue)), key=lambda i: (_RANK[self._queue[i].priority], i))
        return self._queue.pop(best)

    def _start(self, utt: _Utterance, at: float, *, interrupt: bool) -> list[Said | Speak]:
        utt.start = at
        utt.end = at + self.duration(utt.text)
        self._current = utt
        return [Speak(at, utt.to, utt.text, utt.priority, interrupt, utt.private)]


def _said(utt: _Utterance, cut: bool) -> Said:
    return Said(utt.start, utt.to, utt.text, cut, utt.private)
