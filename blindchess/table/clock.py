"""The clock at the table: presses, the arbiter's pause and settings, flags, chosen warnings (pure).

A press is refused unless the player's move has been made (D.2.4; the engine
decides, the table says why). The arbiter pauses, restarts and sets the clocks
(D.2.9: he readjusts them). The table is the arbiter who looks at the clock:
with adequate supervision a fallen flag ends the game at once (Art. 6.8, 6.9;
:mod:`~blindchess.table.ending` says it); without, only a player's claim counts.
Low-time warnings (D.2.10 d) are said only to a blind player who chose them
(``TableSetup.warnings``), never shown unasked. The talking clock's words
otherwise come only when asked (:mod:`~blindchess.table.requests`).

The talking clock's words are here too: both players' times and the moves, compactly.

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

import chess

from ..base import tr
from ..game import ClockRefused, ClockTimes
from ..laws import Clock
from .events import ClockPressed
from .setup import to_color
from .state import TableState

__all__ = ["ClockKeeper", "DUE_MARGIN", "WarningPreferences", "due_warnings", "phrase", "phrase_from_clock",
           "spoken_time", "warning_phrase"]

#: :meth:`ClockKeeper.due` names a moment this much after a flag's fall or a warning's threshold,
#: so that the sum of floats cannot leave the flag up or the threshold not yet crossed.
DUE_MARGIN = 1e-6



# ---------------------------------------------------------------- the talking clock
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
    """:func:`phrase` read off a :class:`blindchess.laws.clock.Clock` for the player of ``color``.

    Remaining times by default (what the clock shows); ``used=True`` says the time
    used instead (D.2.10 d speaks of "the time used by both players"). The move
    count is the number of moves that player has completed — what matters for his
    time control (e.g. 40 moves in 90 minutes).
    """
    read = clock.used if used else clock.remaining
    return phrase(read(color, now), read(not color, now), clock.moves_completed(color), lang, used=used)

class ClockKeeper:
    """The table's side of the clock (see the module docstring)."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self._low: dict[chess.Color, float] = {}     # remaining time at the last look, for warnings

    # ---------------------------------------------------------------- inputs
    def press(self, color: chess.Color, now: float) -> None:
        """``color`` presses the clock (refused without a clock; the session refuses a press before the move)."""
        if self.state.game.time_control is None:
            self.state.refuse(now, "press", tr("table.no_clock", self.state.lang))
        else:
            self.state.react(self.state.session.press_clock(color, now))

    def pause(self, now: float) -> None:
        """The arbiter stops the clock."""
        s = self.state.session
        state = self.state
        if state.game.time_control is None:
            self.state.refuse(now, "pause", tr("table.no_clock", self.state.lang))
        elif not s.clock.paused:
            self.state.react(s.pause(now))
            self.state.show(now, tr("table.clock_paused", self.state.lang))

    def continue_clock(self, now: float) -> None:
        """The arbiter starts the clock again after :meth:`pause`."""
        s = self.state.session
        state = self.state
        if state.game.time_control is not None and s.clock.paused:
            self.state.react(s.resume(now))
            self.state.show(now, tr("table.clock_resumed", self.state.lang))

    def toggle(self, now: float) -> None:
        """The arbiter stops the clock, or starts it again when he had stopped it (nothing without a clock)."""
        if self.state.game.time_control is None:
            return
        if self.state.session.clock.paused:
            self.continue_clock(now)
        else:
            self.pause(now)

    def set_clock(self, color: chess.Color, seconds: float, now: float) -> None:
        """The arbiter sets ``color``'s remaining time."""
        if self.state.game.time_control is None:
            self.state.refuse(now, "clock", tr("table.no_clock", self.state.lang))
        else:
            self.state.react(self.state.session.set_remaining(color, seconds, now))

    def tick(self, now: float) -> None:
        """Time has passed until ``now``: a flag may fall, a chosen warning may come due (the engine sees no flag
        without a running clock or once the game is over; a stopped clock crosses no threshold)."""
        self.state.react(self.state.session.tick(now))
        self.state.then(lambda: self._warnings(now))      # after a flag that fell is said

    def due(self, now: float) -> float | None:
        """The next moment a flag falls or a chosen warning comes due (just after it, :data:`DUE_MARGIN`);
        None when no clock runs or the running side's flag has fallen and been reported. A flag fallen
        since the table last let time pass gives ``now`` + the margin (tick now)."""
        s = self.state.session
        state = self.state
        clock = s.clock
        if not clock.ticking or clock.running is None:      # no clock, or stopped: the game is over
            return None
        left = clock.remaining(clock.running, now)
        fell = clock.flag_time(clock.running, now)
        if fell is None:
            dues = [now + left]
        elif fell > self.state.now:
            dues = [now]                # fallen since the table last let time pass: tick now
        else:
            dues = []                   # fallen and reported; the game may go on (Art. 6.9)
        if clock.running == state.game.blind_color and self.state.setup.warnings:
            dues += [now + left - w for w in self.state.setup.warnings if 0 <= w < left]
        return min(dues) + DUE_MARGIN if dues else None

    # ---------------------------------------------------------------- warnings
    def _warnings(self, now: float) -> None:
        """Low time: said only to a blind player who chose warnings (D.2.10 d); never shown unasked."""
        state = self.state
        s = state.session
        if not state.setup.warnings or state.game.blind_color is None or state.game.time_control is None:
            return
        prefs = WarningPreferences.chosen(*state.setup.warnings)
        color = state.game.blind_color
        current = s.clock.remaining(color, now)
        previous = self._low.get(color, float("inf"))
        self._low[color] = current
        for threshold in due_warnings(previous, current, prefs):
            state.say(now, warning_phrase(threshold, state.lang), "blind", "answer")

    # ---------------------------------------------------------------- what the engine decided
    def pressed(self, ev: ClockTimes) -> None:
        self.state.emit(ClockPressed(ev.t, ev.ply, ev.white, ev.black))

    def refused(self, ev: ClockRefused) -> None:
        """A press refused (D.2.4): why, to the one who pressed."""
        state = self.state
        color = to_color(ev.color)
        key = {"game-over": "session.clock_game_over", "paused": "session.clock_paused"}.get(
            ev.reason, "session.clock_refused")
        state.refuse(ev.t, "press", tr(key, state.lang, color=state.color_words(color)),
                     to="blind" if state.game.is_blind(color) else "sighted")
