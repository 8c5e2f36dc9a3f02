"""The clock at the table: presses, the arbiter's pause and settings, flags, chosen warnings (pure).

A press is refused unless the player's move has been made (D.2.4; the engine
decides, the table says why). The arbiter pauses, restarts and sets the clocks
(D.2.9: he readjusts them). The table is the arbiter who looks at the clock:
with adequate supervision a fallen flag ends the game at once (Art. 6.8, 6.9;
:mod:`~blindchess.table.endings` says it); without, only a player's claim counts.
Low-time warnings (D.2.10 d) are said only to a blind player who chose them
(``TableSetup.warnings``), never shown unasked. The talking clock's words
otherwise come only when asked (:mod:`~blindchess.table.requests`).
"""

from __future__ import annotations

import chess

from .. import talking_clock
from ..game.events import ClockRefused, ClockTimes
from ..i18n import tr
from .events import ClockPressed
from .setup import to_color
from .state import TableState

__all__ = ["ClockKeeper", "DUE_MARGIN"]

#: :meth:`ClockKeeper.due` names a moment this much after a flag's fall or a warning's threshold,
#: so that the sum of floats cannot leave the flag up or the threshold not yet crossed.
DUE_MARGIN = 1e-6


class ClockKeeper:
    """The table's side of the clock (see the module docstring)."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self._low: dict[chess.Color, float] = {}     # remaining time at the last look, for warnings

    @property
    def running(self) -> bool:
        """There is a clock and the game goes on (time can fall due)."""
        s = self.state.session
        return s.time_control is not None and not s.finished

    # ---------------------------------------------------------------- inputs
    def press(self, color: chess.Color | str, now: float) -> None:
        """``color`` presses the clock (refused without a clock; the session refuses a press before the move)."""
        c = to_color(color)
        if self.state.session.time_control is None:
            self.state.refuse(now, "press", tr("table.no_clock", self.state.lang))
        else:
            self.state.react(self.state.session.press_clock(c, now))

    def pause(self, now: float) -> None:
        """The arbiter stops the clock."""
        s = self.state.session
        if s.time_control is None:
            self.state.refuse(now, "pause", tr("table.no_clock", self.state.lang))
        elif not s.clock.paused:
            self.state.react(s.pause(now))
            self.state.show(now, tr("table.clock_paused", self.state.lang))

    def continue_clock(self, now: float) -> None:
        """The arbiter starts the clock again after :meth:`pause`."""
        s = self.state.session
        if s.time_control is not None and s.clock.paused:
            self.state.react(s.resume(now))
            self.state.show(now, tr("table.clock_resumed", self.state.lang))

    def set_clock(self, color: chess.Color | str, seconds: float, now: float) -> None:
        """The arbiter sets ``color``'s remaining time."""
        if self.state.session.time_control is None:
            self.state.refuse(now, "clock", tr("table.no_clock", self.state.lang))
        else:
            self.state.react(self.state.session.set_remaining(to_color(color), seconds, now))

    def tick(self, now: float) -> None:
        """Time has passed until ``now``: a flag may fall, a chosen warning may come due."""
        if not self.running:
            return
        self.state.react(self.state.session.tick(now))
        self._warnings(now)

    def due(self, now: float) -> float | None:
        """The next moment a flag falls or a chosen warning comes due (just after it, :data:`DUE_MARGIN`);
        None when no clock runs or the running side's flag has fallen and been reported. A flag fallen
        since the table last let time pass gives ``now`` + the margin (tick now)."""
        s = self.state.session
        clock = s.clock
        if not self.running or not clock.ticking or clock.running is None:
            return None
        left = clock.remaining(clock.running, now)
        fell = clock.flag_time(clock.running, now)
        if fell is None:
            dues = [now + left]
        elif fell > self.state.now:
            dues = [now]                # fallen since the table last let time pass: tick now
        else:
            dues = []                   # fallen and reported; the game may go on (Art. 6.9)
        if clock.running == s.blind_color and self.state.setup.warnings:
            dues += [now + left - w for w in self.state.setup.warnings if 0 <= w < left]
        return min(dues) + DUE_MARGIN if dues else None

    # ---------------------------------------------------------------- warnings
    def _warnings(self, now: float) -> None:
        """Low time: said only to a blind player who chose warnings (D.2.10 d); never shown unasked."""
        state = self.state
        s = state.session
        if not state.setup.warnings or s.blind_color is None or s.time_control is None:
            return
        prefs = talking_clock.WarningPreferences.chosen(*state.setup.warnings)
        color = s.blind_color
        current = s.clock.remaining(color, now)
        previous = self._low.get(color, float("inf"))
        self._low[color] = current
        for threshold in talking_clock.due_warnings(previous, current, prefs):
            state.say(now, talking_clock.warning_phrase(threshold, state.lang), "blind", "answer")

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
                     to="blind" if state.session.is_blind(color) else "sighted")
