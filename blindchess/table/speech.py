"""What is said at the table, to whom, in which order, what the blind player hears at each verbosity (pure).

One voice speaks at the table (the app's speech engine); every text is meant for
someone — ``"blind"`` (the visually impaired player), ``"sighted"`` or ``"all"``.
:class:`SpeechPolicy` decides, from the texts and the time passed in, when each is said.

Priorities (:class:`blindchess.base.Priority`), highest first: ``move`` (a move announced or
confirmed, D.2.1; the arbiter's ruling; the end of the game), ``question`` (the table asks, D.2.1),
``answer`` (an answer to a request, a refusal, a divergence), ``status`` (a touch, the tactile
board's state), ``notice`` (the window's lines that are not about the game), ``reading`` (the board
cursor, menus — the UI's own speech).

What may cut what (:func:`blindchess.base.may_cut`, the one rule of every output):

* a text is never cut by another text: whatever comes meanwhile waits, and is said when the voice
  is free, highest priority first, in the order it came within one priority;
* except by the text that replaces it — the same request asked again (``replace`` with the same
  ``about``): the answers to the blind player's requests are one request (a new question of his
  replaces the answer he is still hearing), the next square under the cursor replaces the last;
* a ``reading`` is an echo of the keys: anything cuts it, and a reading that must wait replaces the
  reading waiting before it;
* a ``status`` (a touch, the tactile board) is an echo of a hand too: anything but a reading cuts it,
  and one that cannot be said at once is not said at all (a touch spoken 19 s late is wrong, not late).

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
:func:`spoken` takes them out, and no raw notation: :func:`worded` says "Sf3", "0-0" and "Nbxd2"
in words ("Springer Felix drei"). "Repeat" says the last announcement (the last ``move`` or
``question`` text) again.

**The speech plan** — who hears what (:func:`blind_hears`, :func:`window_heard`, :func:`step_for_blind`):
the blind player hears what the table says to him or to everyone at ``move``, ``question`` and
``answer`` priority — his move confirmed, the opponent's move once, questions, the answers to what he
asked (the clock only then, D.2.10 d), refusals, rulings and the end of the game; never what is said
to the sighted side. The window's answer to a key of his is always said. At each verbosity
(:data:`VERBOSITIES`):

``brief``   only that; his confirmed move as the move alone ("Springer Felix drei." — he said or
            typed it, the confirmation only says it was understood);
``normal``  also the game's states (a touch, the tactile board) and the window's notices;
``full``    also the next step whenever it concerns him (his turn, an announcement to make, a question,
            a ruling awaited, the adjournment, the game over), worded — never the mirror of the move he
            has just heard announced.

The mirror instructions for the sighted board and what the sighted side does are for the sighted
side's screen, never for the blind player's ears.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass

import chess

from ..base import DEFAULT_WPM, Priority, may_cut, speaking_time, tr, voices_dir
from ..language import LETTERS, square_words, voice
from .events import Said, Speak

__all__ = ["PRIORITIES", "DEFAULT_WPM", "SpeechPolicy", "spoken", "voice_rate", "internal_ids", "may_cut",
           "VERBOSITIES", "blind_hears", "window_heard", "brief_form", "step_for_blind", "worded", "REQUEST"]

#: Priorities, highest first.
PRIORITIES = tuple(str(p) for p in Priority)
#: How much the blind player hears (see the module docstring), least first.
VERBOSITIES = ("brief", "normal", "full")
#: What every answer to the blind player's requests is about: a new one replaces the one still being said.
REQUEST = "request"

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
    about: str | None         # what it is about (a ruling withdraws what it resolved)
    private: bool             # for the listener alone (never logged or shown, Guidelines I.1)
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
        #: How many texts for the blind player's ears (to him or to all, a move, question or answer) were asked
        #: for so far — said at once or waiting; a front tells by it whether an input was answered aloud.
        self.asked_for_blind = 0

    def use_language(self, lang: str, *, wpm: float | None = None) -> None:
        """Speak ``lang`` from now on, at ``wpm`` (default: its voice's rate); what is said goes on."""
        self.lang = lang
        self.wpm = float(wpm) if wpm else voice_rate(lang)

    # -- state
    def duration(self, text: str) -> float:
        """Modelled speaking time of ``text`` in seconds (whole words at the voice's rate)."""
        return speaking_time(text, self.wpm)

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
        if priority not in PRIORITIES:
            raise ValueError(f"unknown priority {priority!r}")
        if to not in ("blind", "sighted", "all"):
            raise ValueError(f"unknown listener {to!r}")
        out = self._finish(now)
        clean = spoken(text)
        if not clean:
            return out
        same = replace and about is not None
        if same:
            self._queue = [u for u in self._queue if u.about != about]
        utt = _Utterance(to, clean, priority, now, about, private)
        if priority in ("move", "question") and not private:
            self._last = (to, clean)
        if to != "sighted" and priority in ("move", "question", "answer"):
            self.asked_for_blind += 1
        cur = self._current
        interrupted = False
        if cur is not None and may_cut(priority, cur.priority, same_request=same and cur.about == about):
            out.append(_said(cur, True))
            self._current = cur = None
            interrupted = True
            if not self._queue or priority == "status":
                return out + self._start(utt, now, interrupt=True)
        if cur is None:
            if self._queue:     # silent now (cut, or fallen silent in this moment): the best waiting text goes first
                self._queue.append(utt)
                best = self._next()
                if priority == "status" and best is not utt:
                    self._queue.remove(utt)      # at once or not at all
                assert best is not None
                return out + self._start(best, now, interrupt=interrupted)
            return out + self._start(utt, now, interrupt=False)
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
        best = min(range(len(self._queue)), key=lambda i: (Priority(self._queue[i].priority).rank, i))
        return self._queue.pop(best)

    def _start(self, utt: _Utterance, at: float, *, interrupt: bool) -> list[Said | Speak]:
        utt.start = at
        utt.end = at + self.duration(utt.text)
        self._current = utt
        return [Speak(at, utt.to, utt.text, utt.priority, interrupt, utt.private)]


def _said(utt: _Utterance, cut: bool) -> Said:
    return Said(utt.start, utt.to, utt.text, cut, utt.private)


# ============================================================================ the speech plan

def blind_hears(verbosity: str, to: str, priority: str) -> bool:
    """Whether a text the table says to ``to`` at ``priority`` reaches the blind player's ears at ``verbosity``
    (see the module docstring). The board cursor's readings are the program voice's echo, not a text of the
    table: they are left to the output that reads the focus. Raises ValueError for an unknown verbosity."""
    _verbosity(verbosity)
    if to == "sighted" or priority == "reading":
        return False
    if priority in ("move", "question", "answer"):
        return True
    return verbosity != "brief"


def window_heard(verbosity: str, kind: str) -> bool:
    """Whether a text of the window is said to the person at the keyboard: ``kind`` "answer" (the answer to a
    key he pressed) always, "notice" (a line not about the game) from "normal" on, "step" (the next step that
    concerns him) only at "full". Raises ValueError for an unknown verbosity or kind."""
    level = _verbosity(verbosity)
    if kind == "answer":
        return True
    if kind == "notice":
        return level >= 1
    if kind == "step":
        return level >= 2
    raise ValueError(f"unknown kind of window text {kind!r}")


def _verbosity(verbosity: str) -> int:
    if verbosity not in VERBOSITIES:
        raise ValueError(f"verbosity must be one of {', '.join(VERBOSITIES)}: {verbosity!r}")
    return VERBOSITIES.index(verbosity)


@functools.cache
def _template(key: str, lang: str) -> re.Pattern[str]:
    """A message template of the catalogue as a pattern: its fields match anything (``{move}`` → ``(?P<move>.+?)``)."""
    raw = tr(key, lang)
    parts = re.split(r"\{(\w+)\}", spoken(raw))
    pattern = "".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts))
    return re.compile(rf"^{pattern}$")


def brief_form(text: str, lang: str) -> str:
    """``text`` as it is said at "brief": a confirmed move as the move alone ("Zug ausgeführt: Eva vier." →
    "Eva vier."); any other text as it is."""
    found = _template("table.move_confirmed", lang).match(spoken(text))
    return f"{found['move']}." if found else text


#: The next steps that concern the blind player (said at "full"); the others are the sighted side's to do — and
#: the mirror of his opponent's move on his tactile board, which he has just heard announced (never twice).
_STEPS_FOR_BLIND = ("table.next_game_over", "table.next_question", "table.next_diverged", "table.next_announce",
                    "table.next_blind_to_move", "table.next_blind_to_announce", "table.next_sealing", "table.next_sealed",
                    "table.next_quickplay")


def step_for_blind(step: str, lang: str, *, after_move: bool = False) -> bool:
    """Whether the next step ``step`` (the table's line, in ``lang``) concerns the blind player: not a mirror on
    the sighted board, not the sighted player's move. ``after_move``: the last text he heard was his opponent's
    move — that it is now his move tells him nothing new."""
    text = spoken(step)
    if after_move and any(_template(key, lang).match(text)
                          for key in ("table.next_blind_to_move", "table.next_blind_to_announce")):
        return False
    return any(_template(key, lang).match(text) for key in _STEPS_FOR_BLIND)


@functools.cache
def _notation(lang: str) -> re.Pattern[str]:
    """A move or square written in notation — in ``lang``'s letters or English ones — standing alone in a text."""
    letters = sorted({*LETTERS.get(lang, {}).values(), *LETTERS["en"].values()}, key=len, reverse=True)
    piece = "|".join(re.escape(x) for x in letters)
    return re.compile(
        rf"(?<![\w-])(?:(?P<castle>[0O]-[0O](?P<long>-[0O])?)"
        rf"|(?P<piece>{piece})?(?:(?P<origin>[a-h][1-8])(?P<sep>[-x:]?)|(?P<file>[a-h])?(?P<rank>[1-8])?)"
        rf"(?P<capture>[x:])?(?P<to>[a-h][1-8])"
        rf"(?:=?(?P<promo>{piece}))?)(?P<check>[+#])?(?![\w-])")


def worded(text: str, lang: str, wording: str = "phonetic") -> str:
    """``text`` with every move or square written in notation said in words, in the listener's ``wording``:
    "Sbxd2" → "Springer Bella schlägt David zwei", "0-0" → "Kurze Rochade", "e5" → "Eva fünf" (with "san",
    squares stay as written: "Springer b schlägt d2"). A speech synthesiser never gets raw notation."""
    v = voice(lang)
    letters = {**{letter: kind for kind, letter in LETTERS["en"].items()},
               **{letter: kind for kind, letter in LETTERS.get(lang, {}).items()}}

    def file_word(file: str) -> str:
        return file if wording == "san" else square_words(chess.square(ord(file) - ord("a"), 0), lang, wording).split()[0]

    def say(found: re.Match[str]) -> str:
        if found["castle"]:
            words = v.spoken["castle_long" if found["long"] else "castle_short"]
        else:
            parts = []
            if found["piece"]:
                parts.append(v.pieces[letters[found["piece"]]].name)
            if found["origin"]:
                parts.append(square_words(chess.parse_square(found["origin"]), lang, wording))
            if found["file"]:
                parts.append(file_word(found["file"]))
            if found["rank"]:
                parts.append(found["rank"])
            if found["capture"] or found["sep"] in ("x", ":"):
                parts.append(v.spoken["capture"])
            parts.append(square_words(chess.parse_square(found["to"]), lang, wording))
            if found["promo"]:
                parts += [v.spoken["promotion"], v.pieces[letters[found["promo"]]].name]
            words = " ".join(parts)
        if found["check"]:
            words += " " + v.spoken["mate" if found["check"] == "#" else "check"]
        return words

    return _notation(lang).sub(say, text)
