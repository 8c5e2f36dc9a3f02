"""The clock of the game: presses (FIDE Laws D.2.4), the special clock (D.2.6), time on request
(D.2.10 d), fallen flags (Art. 6.9, D.2.10 e), and the clock after a ruling (D.2.9).

D.2.4: a player may start the opponent's clock only once his move has been made
(D.2.3 / D.2.5); a second press for the same move is refused, so is any press once
the game has ended. D.2.10 d: the moves completed and the time used are told only
at the player's request. After any ruling (D.2.9) the clock runs for the side to
move and its move count matches the game (:meth:`Timing.align`).
"""

from __future__ import annotations

from typing import Any

import chess

from ..clock import Clock, ClockError, TimeControl, format_time
from ..i18n import tr
from .events import Event, color_name, parse_color, seconds
from .state import GameState

__all__ = ["Timing"]


class Timing:
    """The clock and the presses of one game; see the module docstring."""

    def __init__(self, state: GameState, time_control: TimeControl | None, now: float) -> None:
        self.state = state
        self.time_control = time_control
        self.clock = Clock(time_control, now, start_ply=0)
        self.pressed = 0                      # plies whose press has been made
        self._flags_reported: set[chess.Color] = set()

    # -- inputs --------------------------------------------------------------------------

    def start_clock(self, now: float) -> Event:
        """Start the clock of the side to move."""
        return self.state.log.do("clock-start", now, color=color_name(self.state.to_move))

    def press_clock(self, color: chess.Color, now: float) -> Event:
        """``color`` presses his clock: refused (D.2.4) unless his move has just been made."""
        made = len(self.state.moves)
        if self.state.result is not None:
            return self._refuse(color, now, "session.clock_game_over")
        if self.clock.paused:
            return self._refuse(color, now, "session.clock_paused")
        if made != self.pressed + 1 or self.state.mover(made - 1) != color:
            return self._refuse(color, now, "session.clock_refused")
        return self.state.log.do("press", now, color=color_name(color), ply=made)

    def _refuse(self, color: chess.Color, now: float, key: str) -> Event:
        return self.state.log.told("clock-refused", now, color=color_name(color), article="D.2.4",
                                   message=tr(key, self.state.lang, color=self.state.words.color(color)))

    def pause(self, now: float) -> Event:
        return self.state.log.do("clock-pause", now)

    def resume(self, now: float, *, charge: bool = False) -> Event:
        """Restart the clock; ``charge`` books the paused time to the running side."""
        return self.state.log.do("clock-resume", now, charge=bool(charge))

    def set_remaining(self, color: chess.Color, secs: float, now: float) -> Event:
        return self.state.log.do("clock-set", now, color=color_name(color), seconds=float(secs))

    def tick(self, now: float) -> list[Event]:
        """Check for a fallen flag (Art. 6.9, D.2.10 e); returns the new events."""
        events = self.state.log.events
        before = len(events)
        if self.clock.running is not None and self.state.result is None:
            for color in (chess.WHITE, chess.BLACK):
                if color not in self._flags_reported and self.clock.flag_fallen(color, now):
                    self.state.log.do("flag", now, color=color_name(color))
        return events[before:]

    def request_time(self, now: float, *, by: str = "blind") -> dict[str, Any]:
        """Moves completed and time used by both players — told only on request (D.2.10 d)."""
        info: dict[str, dict[str, Any]] = {}
        words = []
        lang = self.state.lang
        for color in (chess.WHITE, chess.BLACK):
            moves = self.clock.moves_completed(color)
            used = round(self.clock.used(color, now), 3)
            remaining = self.clock.remaining(color, now)
            info[color_name(color)] = {"moves": moves, "used": used, "remaining": seconds(remaining)}
            count = tr("session.moves_one" if moves == 1 else "session.moves_many", lang, n=moves)
            words.append(tr("session.time_info", lang, color=self.state.words.color(color), moves=count,
                            used=format_time(used), remaining=format_time(remaining)))
        message = " ".join(words)
        self.state.log.do("time-request", now, by=by, article="D.2.10 d", message=message, **info)
        return {**info, "message": message}

    # -- handlers ------------------------------------------------------------------------

    def on_clock_start(self, ev: Event) -> None:
        if self.clock.running is None:
            self.clock.start(parse_color(ev["color"]), float(ev["t"]))

    def on_press(self, ev: Event) -> None:
        color = parse_color(ev["color"])
        now = float(ev["t"])
        try:
            snap = self.clock.press(color, now)
        except ClockError:
            return
        self.pressed = int(ev.get("ply", self.pressed + 1))
        if self.state.draw_offer is not None and self.state.draw_offer != color:
            self.state.draw_offer = None  # an offer not answered before the reply lapses (Art. 9.1 b)
        self._told_times(now, snap.remaining, snap.move_time)
        self._check_flag(color, now)

    def on_clock_pause(self, ev: Event) -> None:
        self.clock.pause(float(ev["t"]))

    def on_clock_resume(self, ev: Event) -> None:
        self.clock.resume(float(ev["t"]), charge=bool(ev.get("charge")))

    def on_clock_set(self, ev: Event) -> None:
        color = parse_color(ev["color"])
        self.clock.set_remaining(color, float(ev["seconds"]), float(ev["t"]))
        self._flags_reported.discard(color)

    def on_reopened(self, ev: Event) -> None:
        if not self.clock.ticking:
            return
        self.clock.pause(float(ev["closed_at"]))
        if ev.get("reopened_at") is not None:
            self.clock.resume(float(ev["reopened_at"]), charge=bool(ev.get("counted")))

    def on_flag(self, ev: Event) -> None:
        self._check_flag(parse_color(ev["color"]), float(ev["t"]), force=True)

    # -- for the other collaborators -----------------------------------------------------------

    def auto_press(self, index: int, mover: chess.Color, now: float) -> None:
        """The app presses for ``mover`` as soon as his move ``index`` is made (no D.2.8 window)."""
        if not self.state.auto_press or self.state.result is not None or self.pressed != index or self.clock.paused:
            return
        try:
            snap = self.clock.press(mover, now)
        except ClockError:
            return
        self.pressed = index + 1
        self._told_times(now, snap.remaining, snap.move_time)
        self._check_flag(mover, now)

    def align(self, plies: int, now: float) -> None:
        """After a ruling (D.2.9): the game is ``plies`` long, every move of it counts as pressed,
        the clock runs for the side to move (times as they are; restore them first for a retrace)."""
        self.pressed = plies
        running = None if self.state.result is not None or self.clock.running is None else self.state.to_move
        self.clock.align(plies, self.state.start.turn, now, running=running)

    def stop(self, now: float) -> None:
        """The game has ended: the clock stops (Art. 5, 6.9)."""
        if self.clock.running is not None:
            self.clock.stop(now)

    def _told_times(self, now: float, remaining: tuple[float, float], move_time: float) -> None:
        self.state.log.derive("clock", now, ply=self.pressed, white=seconds(remaining[0]),
                              black=seconds(remaining[1]), move_time=round(move_time, 3))

    def _check_flag(self, color: chess.Color, now: float, *, force: bool = False) -> None:
        if color in self._flags_reported:
            return
        if not force and self.clock.flag_time(color, now) is None:
            return
        self._flags_reported.add(color)
        sighted = not self.state.is_blind(color) and self.state.blind_color is not None
        key = "session.flag_sighted" if sighted else "session.flag"
        self.state.log.derive("flag-fallen", now, color=color_name(color), article="D.2.10 e",
                              message=tr(key, self.state.lang, color=self.state.words.color(color)))
