"""The talking clock (D.2.6, D.2.10 d): both players' times and the moves, compactly.

:func:`phrase` is what the clock says when the visually impaired player asks (by
voice or key): "Sie: 12 Minuten 30, Gegner: 8 Minuten 5, 23 Züge". Times are
remaining times as a digital clock shows them (whole seconds, rounded down);
from one hour on the seconds are left out ("1 Stunde 5 Minuten"), under a minute
only seconds are said ("45 Sekunden"); singular and plural follow the number
("1 Minute", "1 Zug").

Warnings at thresholds the player chose ("Noch 5 Minuten") are the only thing the
clock may say without being asked, and only when the player has opted in: D.2.10 d
allows information "only at his request". The rule is in the API —
:class:`WarningPreferences` is off unless the player switches it on, and
:func:`due_warnings` returns nothing for a player who has not.

Pure: no clock is read here; the caller passes the times in seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .clock import Clock
from .i18n import tr


def _count(n: int, key: str, lang: str) -> str:
    """"1 Minute" / "2 Minuten": the singular form only for exactly one."""
    return tr(f"tournament.clock_{key}_{'one' if n == 1 else 'many'}", lang, n=n)


def spoken_time(seconds: float, lang: str = "de", *, used: bool = False) -> str:
    """One remaining time, compactly: "12 Minuten 30", "1 Stunde 5 Minuten", "45 Sekunden".

    A remaining time of zero or less means the flag has fallen ("Zeit abgelaufen");
    a time ``used`` of zero is "0 Sekunden".
    """
    if math.isnan(seconds) or seconds <= 0:
        return _count(0, "seconds", lang) if used else tr("tournament.clock_out", lang)
    whole = int(math.floor(seconds))
    if whole < 60:
        return _count(whole, "seconds", lang)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        text = _count(hours, "hours", lang)
        return f"{text} {_count(minutes, 'minutes', lang)}" if minutes else text
    text = _count(minutes, "minutes", lang)
    return f"{text} {secs}" if secs else text


def phrase(own_seconds: float, opponent_seconds: float, moves: int, lang: str = "de", *,
           used: bool = False) -> str:
    """What the clock says on request: own time, opponent's time, moves completed.

    The times are remaining times, or times used with ``used=True``. ``moves`` is
    the number of moves completed.
    """
    return tr("tournament.clock_phrase", lang,
              own=spoken_time(own_seconds, lang, used=used),
              opponent=spoken_time(opponent_seconds, lang, used=used),
              moves=_count(max(0, int(moves)), "moves", lang))


@dataclass(frozen=True)
class WarningPreferences:
    """The player's own choice of time warnings; off unless he asks for them (D.2.10 d).

    ``thresholds`` are remaining times in seconds at which to warn, e.g.
    ``(300, 60)`` for "five minutes left" and "one minute left".
    """

    opted_in: bool = False
    thresholds: tuple[float, ...] = field(default=())

    @classmethod
    def chosen(cls, *thresholds: float) -> WarningPreferences:
        """The preferences of a player who asked for warnings at ``thresholds``."""
        return cls(opted_in=True, thresholds=tuple(sorted({float(t) for t in thresholds if t > 0}, reverse=True)))


def due_warnings(previous_seconds: float, current_seconds: float, prefs: WarningPreferences) -> list[float]:
    """The thresholds crossed between two readings of a player's remaining time.

    A threshold ``t`` is due when ``previous > t >= current`` — so each warning comes
    once, when the time runs down past it, also after a jump (several thresholds
    at once, largest first). Nothing is due for a player who has not opted in.
    """
    if not prefs.opted_in:
        return []
    return sorted((t for t in prefs.thresholds if previous_seconds > t >= current_seconds), reverse=True)


def warning_phrase(threshold_seconds: float, lang: str = "de") -> str:
    """The spoken warning for a threshold: "Noch 5 Minuten" / "5 minutes left"."""
    return tr("tournament.clock_warning", lang, time=spoken_time(threshold_seconds, lang))


def phrase_from_clock(clock: Clock, color: bool, now: float, lang: str = "de", *, used: bool = False) -> str:
    """:func:`phrase` read off a :class:`blindchess.clock.Clock` for the player of ``color``.

    Remaining times by default (what the clock shows); ``used=True`` says the time
    used instead (D.2.10 d speaks of "the time used by both players"). The move
    count is the number of moves that player has completed — what matters for his
    time control (e.g. 40 moves in 90 minutes).
    """
    read = clock.used if used else clock.remaining
    return phrase(read(color, now), read(not color, now), clock.moves_completed(color), lang, used=used)
