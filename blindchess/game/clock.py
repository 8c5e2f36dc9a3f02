"""The clock of the game: presses (FIDE Laws D.2.4), the special clock (D.2.6), time on request
(D.2.10 d), fallen flags (Art. 6.8, 6.9, D.2.10 e), and the clock after a ruling (D.2.9).

D.2.4: a player may start the opponent's clock only once his move has been made
(D.2.3 / D.2.5); a second press for the same move is refused, so is any press once
the game has ended. D.2.10 d: the moves completed and the time used are told only at
the player's request. A flag counts as fallen when the arbiter sees it (Art. 6.8):
with adequate supervision the table is the arbiter and sees it at once (:meth:`Timing.tick`);
without (rapid and blitz, A.4) only a player's claim makes it count. After any ruling
(D.2.9) the clock runs for the side to move and its move count matches the game
(:meth:`Timing.align`).
"""

from __future__ import annotations

from typing import Any

import chess

from ..laws import Clock, ClockError, ClockSetting, TimeControl
from .events import (
    ClockPause,
    ClockRefused,
    ClockResume,
    ClockSet,
    ClockStart,
    ClockTimes,
    Flag,
    Press,
    Reopened,
    TimeAdded,
    TimeRequest,
    color_name,
    parse_color,
    seconds,
)
from .state import GameState

__all__ = ["Timing"]


class Timing:
    """The clock and the presses of one game; see the module docstring."""

    def __init__(self, state: GameState, time_control: TimeControl | None, now: float) -> None:
        self.state = state
        self.time_control = time_control
        self.clock = Clock(time_control, now, start_ply=0)
        self.pressed = 0                      # plies whose press has been made
        self.flags_seen: set[chess.Color] = set()

    # -- commands --------------------------------------------------------------------------
    def start_clock(self, now: float) -> None:
        """Start the clock of the side to move."""
        self.state.log.record(ClockStart(t=now, color=color_name(self.state.to_move)))

    def press_clock(self, color: chess.Color, now: float) -> None:
        """``color`` presses his clock: refused (D.2.4) unless his move has just been made."""
        made = len(self.state.moves)
        if self.state.result is not None:
            self._refuse(color, now, "game-over")
            return
        if self.clock.paused or self.state.adjourned:
            self._refuse(color, now, "paused")
            return
        if made != self.pressed + 1 or self.state.mover(made) == color:      # the move just made is not his
            self._refuse(color, now, "not-made")
            return
        self.state.log.record(Press(t=now, color=color_name(color), ply=made))

    def _refuse(self, color: chess.Color, now: float, reason: str) -> None:
        self.state.log.record(ClockRefused(t=now, color=color_name(color), reason=reason))  # type: ignore[arg-type]

    def pause(self, now: float) -> None:
        self.state.log.record(ClockPause(t=now))

    def resume(self, now: float, *, charge: bool) -> None:
        """Restart the clock; ``charge`` books the paused time to the running side."""
        self.state.log.record(ClockResume(t=now, charge=bool(charge)))

    def set_remaining(self, color: chess.Color, secs: float, now: float) -> None:
        self.state.log.record(ClockSet(t=now, color=color_name(color), seconds=float(secs)))

    def fallen(self, now: float) -> list[chess.Color]:
        """The sides whose flag has fallen by ``now`` and has not been seen yet (none without a
        running clock or once the game is over)."""
        if self.clock.running is None or self.state.result is not None:
            return []
        return [c for c in (chess.WHITE, chess.BLACK) if c not in self.flags_seen and self.clock.flag_fallen(c, now)]

    def tick(self, now: float) -> None:
        """The arbiter looks at the clock (Art. 6.8): with adequate supervision a fallen flag is seen
        (:class:`Flag`, and the game ends, Art. 6.9); without, nothing happens until a player claims —
        unless both flags are down, which the arbiter may point out (a draw)."""
        fallen = self.fallen(now)
        if not self.state.rules.arbiter_calls_flag and len(fallen) < 2:
            return          # without adequate supervision a flag counts when a player points it out (A.4.4)
        for color in fallen:
            self.state.log.record(Flag(t=now, color=color_name(color)))

    def request_time(self, now: float, *, by: str = "blind") -> None:
        """Moves completed, time used and left by both players — told only on request (D.2.10 d)."""
        info: dict[str, dict[str, Any]] = {}
        for color in (chess.WHITE, chess.BLACK):
            info[color_name(color)] = {"moves": self.clock.moves_completed(color),
                                       "used": round(self.clock.used(color, now), 3),
                                       "remaining": seconds(self.clock.remaining(color, now))}
        self.state.log.record(TimeRequest(t=now, by=by, white=info["white"], black=info["black"]))

    # -- handlers --------------------------------------------------------------------------
    def on_clock_start(self, ev: ClockStart) -> None:
        if self.clock.running is None:
            self.clock.start(parse_color(ev.color), ev.t)

    def on_press(self, ev: Press) -> None:
        color = parse_color(ev.color)
        try:
            snap = self.clock.press(color, ev.t)
        except ClockError:
            return
        self.pressed = ev.ply or self.pressed + 1
        if self.state.draw_offer is not None and self.state.draw_offer != color:
            self.state.draw_offer = None  # an offer not answered before the reply lapses (Art. 9.1.2.3)
        self._told_times(ev.t, snap.remaining, snap.move_time)

    def on_clock_pause(self, ev: ClockPause) -> None:
        self.clock.pause(ev.t)

    def on_clock_resume(self, ev: ClockResume) -> None:
        self.clock.resume(ev.t, charge=ev.charge)

    def on_clock_set(self, ev: ClockSet) -> None:
        color = parse_color(ev.color)
        self.clock.set_remaining(color, ev.seconds, ev.t)
        if ev.seconds > 0:
            self.flags_seen.discard(color)

    def on_reopened(self, ev: Reopened) -> None:
        if not self.clock.ticking:
            return
        self.clock.pause(ev.closed_at)
        if ev.reopened_at is not None:
            self.clock.resume(ev.reopened_at, charge=ev.counted)

    # -- for the other collaborators -----------------------------------------------------------
    def add_time(self, color: chess.Color, secs: float, now: float) -> None:
        """``secs`` more for ``color`` (Art. 9.5.3, 7.5.5: two minutes after a wrong claim or an illegal move)."""
        if self.time_control is None:
            return
        self.clock.set_remaining(color, self.clock.remaining(color, now) + secs, now)
        self.state.log.record(TimeAdded(t=now, color=color_name(color), seconds=secs))

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

    def align(self, plies: int, now: float) -> None:
        """After a ruling (D.2.9): the game is ``plies`` long, every move of it counts as pressed,
        the clock runs for the side to move (times as they are; restore them first for a retrace)."""
        self.pressed = plies
        running = None if self.state.result is not None or self.clock.running is None else self.state.to_move
        self.clock.align(plies, self.state.start.turn, now, running=running)

    def restore(self, ply: int, now: float) -> None:
        """The clocks as they stood when half-move ``ply`` was pressed (D.2.9: retrace); nothing when
        there is no record of it."""
        try:
            self.clock.restore(ply, now)
        except ClockError:
            pass

    def set_clocks(self, clocks: ClockSetting, now: float) -> None:
        """The arbiter's clock values (None: unchanged)."""
        for color, value in ((chess.WHITE, clocks.white), (chess.BLACK, clocks.black)):
            if value is not None:
                self.clock.set_remaining(color, value, now)

    def stop(self, now: float) -> None:
        """The game has ended: the clock stops (Art. 5, 6.9, 9)."""
        if self.clock.running is not None:
            self.clock.stop(now)

    def _told_times(self, now: float, remaining: tuple[float, float], move_time: float) -> None:
        self.state.log.record(ClockTimes(t=now, ply=self.pressed, white=seconds(remaining[0]),
                                         black=seconds(remaining[1]), move_time=round(move_time, 3)))
