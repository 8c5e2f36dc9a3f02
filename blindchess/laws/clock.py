"""The chess clock: time controls and a pure clock model (FIDE Laws D.2.6, D.2.9, D.2.10 d).

Pure: the clock never reads the time itself. Every call that depends on time
takes ``now`` (float seconds, any monotonic origin chosen by the caller).

Time controls
-------------
:class:`TimeControl` is a list of :class:`Period` s. ``Period(moves, seconds,
increment=0, delay=0)``: ``moves`` is the number of moves of the period
(``None`` = the rest of the game), ``seconds`` the time added at the start of
the period, ``increment`` the Fischer increment added after every move made in
the period, ``delay`` the Bronstein delay (after every move the time used for
it is given back, at most ``delay`` seconds). When every period has a move
count, the last period repeats (as in the PGN standard).

:meth:`TimeControl.parse` accepts

* the PGN ``TimeControl`` tag, in seconds, periods separated by ``:`` —
  ``"40/5400+30:1800+30"`` is "40 moves in 90 minutes, then 30 minutes for the
  rest, 30 seconds increment per move from move 1"; ``"5400+30"``, ``"300"``;
* the everyday form in minutes and seconds: ``"90+30"`` (90 min + 30 s per
  move), ``"5+3"``, ``"15"``. A single period written without ``/`` whose base
  is below 180 is read in minutes; everything else is read in seconds (PGN);
* explicit units anywhere: ``h``, ``m``/``min``/``'``, ``s``/``''``:
  ``"40/90m+30s:30m+30s"``, ``"1h30+30s"``;
* a Bronstein delay with ``d``: ``"90d5"`` (90 min, 5 s delay), ``"5400d5"``;
* periods may also be separated by ``,`` or ``;``;
* ``"-"`` (no time control) gives ``None``.

``str(tc)`` writes the PGN form (delay as ``dN``, a blindchess extension).

The clock
---------
``Clock(time_control, now)``; ``start(color, now)`` starts ``color``'s clock;
``press(color, now)``: ``color`` completes a move — his clock stops, increment /
delay / the next period's time are added, the opponent's clock starts. Every
press leaves a :class:`ClockSnapshot` (ply, both remaining times, time used, moves
completed) in :attr:`Clock.history`, so any earlier moment can be restored with
:meth:`Clock.restore` (the arbiter readjusting the clocks under D.2.9).
``pause``/``resume`` for the arbiter; ``set_remaining``; ``remaining``, ``used``,
``moves_completed``, ``flag_fallen``. With ``time_control=None`` the clock only
counts time used; ``remaining`` is ``math.inf`` and no flag falls.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TypeVar

import chess

from ..base import MAX_PERIODS, MAX_PLIES
from ..base import seconds as bounded_seconds

__all__ = ["Period", "TimeControl", "Clock", "ClockError", "ClockSnapshot", "format_time", "parse_duration"]


class ClockError(ValueError):
    """A clock operation that does not fit the clock's state (e.g. pressing the wrong side)."""


@dataclass(frozen=True)
class Period:
    """One period of a time control (see module docstring)."""

    moves: int | None
    seconds: float
    increment: float = 0.0
    delay: float = 0.0


_UNIT = {"h": 3600.0, "m": 60.0, "min": 60.0, "'": 60.0, "s": 1.0, "sec": 1.0, "''": 1.0, '"': 1.0}
_NUM = r"\d+(?:[.,]\d+)?"
_AMOUNT = rf"(?:{_NUM}\s*(?:min|sec|h|m|s|''|'|\")?\s*)+"
_PERIOD_RE = re.compile(
    rf"^\s*(?:(?P<moves>\d+)\s*/\s*)?(?P<base>{_AMOUNT})"
    rf"(?:\+\s*(?P<inc>{_AMOUNT}))?(?:d\s*(?P<delay>{_AMOUNT}))?\s*$",
    re.IGNORECASE,
)
_PART_RE = re.compile(rf"({_NUM})\s*(min|sec|h|m|s|''|'|\")?", re.IGNORECASE)


def _amount(text: str, default_unit: float) -> tuple[float, bool]:
    """Seconds in ``text`` ("90", "1h30", "30s"); second item: whether a unit was written."""
    total, had_unit, parts = 0.0, False, _PART_RE.findall(text)
    for i, (number, unit) in enumerate(parts):
        value = float(number.replace(",", "."))
        if unit:
            total += value * _UNIT[unit.lower()]
            had_unit = True
        elif had_unit and i > 0:  # "1h30": the bare number after hours means minutes
            prev = parts[i - 1][1].lower()
            total += value * (60.0 if prev == "h" else 1.0)
        else:
            total += value * default_unit
    return total, had_unit


def parse_duration(text: str) -> float:
    """Seconds in a duration written as seconds ("5400", "12.5") or h:mm:ss / m:ss ("1:30:00").

    ValueError for anything else, including negative and non-finite numbers and durations
    longer than :data:`blindchess.base.bounds.MAX_SECONDS` ("1e308" is no time a game has).
    """
    text = text.strip()
    if len(text) > 40:
        raise ValueError(text[:40])
    if ":" in text:
        parts = text.split(":")
        if len(parts) > 3 or not all(re.fullmatch(r"\d+(?:\.\d+)?", p) for p in parts):
            raise ValueError(text)
        total = 0.0
        for p in parts:
            total = total * 60 + float(p)
        return bounded_seconds(total)
    value = float(text)
    if not math.isfinite(value) or value < 0:
        raise ValueError(text)   # "nan", "inf", "1e400" and negative times are no durations
    return bounded_seconds(value)


@dataclass(frozen=True)
class TimeControl:
    """A sequence of periods; see the module docstring for the text forms."""

    periods: tuple[Period, ...]

    def __init__(self, periods: Iterable[Period]) -> None:  # accept a list as the contract says
        periods = tuple(periods)
        if not periods:
            raise ValueError("a time control needs at least one period")
        object.__setattr__(self, "periods", periods)

    @property
    def base_seconds(self) -> float:
        """Time of the first period (rulesets classify rapid/blitz by it)."""
        return self.periods[0].seconds

    @property
    def increment(self) -> float:
        """Increment of the first period."""
        return self.periods[0].increment

    @property
    def delay(self) -> float:
        """Delay of the first period."""
        return self.periods[0].delay

    @classmethod
    def parse(cls, text: str) -> TimeControl | None:
        """Read a time control; ``None`` for "-" / "" (no control).

        Raises ValueError for text that is no time control — also for more periods than
        :data:`blindchess.base.bounds.MAX_PERIODS`, a period, increment or delay longer than
        :data:`blindchess.base.bounds.MAX_SECONDS` ("1e20+1e20"), a move count above
        :data:`blindchess.base.bounds.MAX_PLIES`."""
        text = (text or "").strip()
        if text in ("", "-", "?"):
            return None
        chunks = [c for c in re.split(r"[:,;]", text)]
        if any(not c.strip() for c in chunks) or len(chunks) > MAX_PERIODS:
            raise ValueError(text)
        matches = []
        for c in chunks:
            match = _PERIOD_RE.match(c)
            if match is None:
                raise ValueError(text)
            matches.append(match)
        # The everyday form: one period, no move count, no unit, base below 180 -> minutes.
        single = len(chunks) == 1 and matches[0]["moves"] is None
        any_unit = any(re.search(r"[a-z'\"]", c.replace("d", ""), re.IGNORECASE) for c in chunks)
        base_unit = 1.0
        if single and not any_unit and _amount(matches[0]["base"], 1.0)[0] < 180:
            base_unit = 60.0
        periods = []
        for m in matches:
            moves = int(m["moves"]) if m["moves"] else None
            if moves is not None and not 0 < moves <= MAX_PLIES:
                raise ValueError(text)
            seconds, _ = _amount(m["base"], base_unit)
            inc = _amount(m["inc"], 1.0)[0] if m["inc"] else 0.0
            delay = _amount(m["delay"], 1.0)[0] if m["delay"] else 0.0
            for amount in (seconds, inc, delay):
                bounded_seconds(amount)   # ValueError: no period, increment or delay lasts longer
            periods.append(Period(moves, seconds, inc, delay))
        if any(p.moves is None for p in periods[:-1]):
            raise ValueError(text)  # only the last period may run to the end
        if periods[0].seconds <= 0:
            raise ValueError(text)
        return cls(periods)

    def __str__(self) -> str:
        def num(x: float) -> str:
            return str(int(x)) if float(x).is_integer() else f"{x:g}"

        out = []
        for p in self.periods:
            s = (f"{p.moves}/" if p.moves else "") + num(p.seconds)
            if p.increment:
                s += "+" + num(p.increment)
            if p.delay:
                s += "d" + num(p.delay)
            out.append(s)
        return ":".join(out)

    def period_index(self, move_number: int) -> int:
        """Index of the period the ``move_number``-th move (1-based) of a player belongs to."""
        done = 0
        for i, p in enumerate(self.periods):
            if p.moves is None or move_number <= done + p.moves:
                return i
            done += p.moves
        return len(self.periods) - 1  # the last period repeats

    def ends_period(self, move_number: int) -> bool:
        """Whether the ``move_number``-th move is the last move of its period."""
        done = 0
        for p in self.periods:
            if p.moves is None:
                return False
            if move_number <= done + p.moves:
                return move_number == done + p.moves
            done += p.moves
        last = self.periods[-1].moves or 1
        return (move_number - done) % last == 0


def format_time(seconds: float | None) -> str:
    """``h:mm:ss`` (or ``m:ss`` under an hour); "-" for no limit."""
    if seconds is None or math.isinf(seconds):
        return "-"
    seconds = max(0.0, seconds)
    whole = int(seconds + 1e-9)
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


@dataclass(frozen=True)
class ClockSnapshot:
    """The clock right after a press (or at the start, ply 0): enough to restore that moment."""

    ply: int
    time: float
    remaining: tuple[float, float]  # (white, black)
    used: tuple[float, float]
    moves: tuple[int, int]
    running: bool | None  # side whose clock runs after this moment
    move_time: float = 0.0  # time the just-completed move took (for [%emt])
    flags: tuple[float | None, float | None] = (None, None)

    def remaining_of(self, color: chess.Color) -> float:
        return self.remaining[0 if color == chess.WHITE else 1]

    def to_dict(self) -> dict[str, object]:
        def j(x: float | None) -> float | None:
            return None if x is None or (isinstance(x, float) and math.isinf(x)) else x

        return {
            "ply": self.ply, "time": self.time,
            "white": j(self.remaining[0]), "black": j(self.remaining[1]),
            "used": list(self.used), "moves": list(self.moves),
            "running": None if self.running is None else ("white" if self.running else "black"),
            "move_time": self.move_time,
        }


T = TypeVar("T")


def _pair(values: list[T]) -> tuple[T, T]:
    """White's and Black's value of a two-item list."""
    return values[0], values[1]


def _i(color: chess.Color) -> int:
    return 0 if color == chess.WHITE else 1


class Clock:
    """A two-sided chess clock; see the module docstring."""

    def __init__(self, time_control: TimeControl | None, now: float = 0.0, *, start_ply: int = 0) -> None:
        self.time_control = time_control
        self.created = now
        self.start_ply = start_ply
        base = time_control.periods[0].seconds if time_control else math.inf
        self._remaining = [base, base]
        self._used = [0.0, 0.0]
        self._moves = [0, 0]
        self._move_used = [0.0, 0.0]
        self._flags: list[float | None] = [None, None]
        self.running: chess.Color | None = None
        self.paused = False
        self._since = now
        self._paused_at = now
        self.history = [self._snapshot(start_ply, now, None)]

    # -- state --------------------------------------------------------------
    @property
    def ticking(self) -> bool:
        """True while a side's time is actually running (started and not paused)."""
        return self.running is not None and not self.paused

    @property
    def ply(self) -> int:
        """Number of plies completed (presses), counted from the game's start."""
        return self.history[-1].ply if self.history else self.start_ply

    def _elapsed(self, now: float) -> float:
        return max(0.0, now - self._since) if self.ticking else 0.0

    def remaining(self, color: chess.Color, now: float) -> float:
        """Time left for ``color`` at ``now`` (never below 0; ``inf`` without a time control)."""
        r = self._remaining[_i(color)]
        if color == self.running:
            r -= self._elapsed(now)
        return max(0.0, r)

    def used(self, color: chess.Color, now: float) -> float:
        """Thinking time ``color`` has used so far (D.2.10 d)."""
        u = self._used[_i(color)]
        if color == self.running:
            u += self._elapsed(now)
        return u

    def moves_completed(self, color: chess.Color) -> int:
        """Number of moves ``color`` has completed (presses)."""
        return self._moves[_i(color)]

    def flag_fallen(self, color: chess.Color, now: float) -> bool:
        """Whether ``color``'s time has run out (D.2.10 e, Art. 6.9)."""
        if self.time_control is None:
            return False
        return self._flags[_i(color)] is not None or self.remaining(color, now) <= 0.0

    def flag_time(self, color: chess.Color, now: float) -> float | None:
        """When ``color``'s flag fell (``None`` if it has not)."""
        if self.time_control is None:
            return None
        recorded = self._flags[_i(color)]
        if recorded is not None:
            return recorded
        if color == self.running and self.ticking and self.remaining(color, now) <= 0.0:
            return self._since + self._remaining[_i(color)]
        return None

    # -- operations ---------------------------------------------------------
    def _settle(self, now: float) -> None:
        """Book the time run since the last settlement to the running side."""
        if not self.ticking or self.running is None:
            return
        elapsed = self._elapsed(now)
        i = _i(self.running)
        if self.time_control is not None and self._flags[i] is None and self._remaining[i] - elapsed <= 0.0:
            self._flags[i] = self._since + self._remaining[i]
        self._remaining[i] -= elapsed
        self._used[i] += elapsed
        self._move_used[i] += elapsed
        self._since = now

    def start(self, color: chess.Color, now: float) -> None:
        """Start ``color``'s clock (the beginning of the game, or after a stop)."""
        if self.ticking:
            raise ClockError("clock already running")
        self.running = color
        self.paused = False
        self._since = now
        self._move_used[_i(color)] = 0.0
        last = self.history[-1]
        self.history[-1] = replace(last, running=color)

    def press(self, color: chess.Color, now: float) -> ClockSnapshot:
        """``color`` completes a move: stop his clock, add increment/delay/next period, start the other's."""
        if self.paused:
            raise ClockError("clock paused")
        if self.running is None:
            self.start(color, now)  # first press without an explicit start: no time used
        if self.running != color:
            raise ClockError("not this side's clock")
        self._settle(now)
        i = _i(color)
        move_time = self._move_used[i]
        self._moves[i] += 1
        n = self._moves[i]
        tc = self.time_control
        if tc is not None:
            period = tc.periods[tc.period_index(n)]
            self._remaining[i] += period.increment + min(period.delay, move_time)
            if tc.ends_period(n):
                self._remaining[i] += tc.periods[tc.period_index(n + 1)].seconds
        self.running = not color
        self._since = now
        self._move_used[_i(not color)] = 0.0
        snap = self._snapshot(self.ply + 1, now, not color, move_time)
        self.history.append(snap)
        return snap

    def pause(self, now: float) -> None:
        """Stop both clocks for the arbiter (the running side is remembered)."""
        if self.paused or self.running is None:
            return
        self._settle(now)
        self.paused = True
        self._paused_at = now

    def resume(self, now: float, *, charge: bool = False) -> None:
        """Restart after a pause; with ``charge`` the paused time is booked to the running side."""
        if not self.paused:
            return
        self.paused = False
        self._since = self._paused_at if charge else now
        if charge:
            self._settle(now)

    def stop(self, now: float) -> None:
        """Stop the clock for good (end of game, adjournment)."""
        self._settle(now)
        self.running = None
        self.paused = False

    def set_remaining(self, color: chess.Color, seconds: float, now: float) -> None:
        """The arbiter sets ``color``'s remaining time."""
        self._settle(now)
        self._remaining[_i(color)] = float(seconds)
        if seconds > 0:
            self._flags[_i(color)] = None

    def times_at(self, ply: int) -> ClockSnapshot | None:
        """The snapshot of ``ply`` (the latest one at or before it), ``None`` before the first."""
        best = None
        for snap in self.history:
            if snap.ply <= ply:
                best = snap
            else:
                break
        return best

    def restore(self, ply: int, now: float) -> ClockSnapshot:
        """Set the clock back to the moment ply ``ply`` was completed (D.2.9 retrace).

        Later snapshots are dropped. The side to move then runs from ``now``
        (stays paused if the clock is paused; stays stopped if it was never started).
        """
        snap = self.times_at(ply)
        if snap is None:
            raise ClockError(f"no clock record at ply {ply}")
        self._remaining = list(snap.remaining)
        self._used = list(snap.used)
        self._moves = list(snap.moves)
        self._flags = list(snap.flags)
        self._move_used = [0.0, 0.0]
        self.history = [s for s in self.history if s.ply <= snap.ply]
        if self.running is not None:
            self.running = snap.running
        self._since = now
        self._paused_at = now
        return snap

    def align(self, plies: int, first: chess.Color, now: float, *, running: chess.Color | None) -> None:
        """The game is now ``plies`` half-moves long (an arbiter's ruling, D.2.9): times stay as they are.

        The time run so far is booked, records after ``plies`` are dropped, the move
        counts follow from ``plies`` and ``first`` (the side that moved first), the
        latest record is the one of ``plies``, and a started clock runs for
        ``running`` from ``now`` (a paused clock stays paused).
        """
        self._settle(now)
        self.history = [s for s in self.history if s.ply <= plies]
        white_moves = (plies + (1 if first == chess.WHITE else 0)) // 2
        self._moves = [white_moves, plies - white_moves]
        self._move_used = [0.0, 0.0]
        if self.running is not None and running is not None:
            self.running = running
        self._since = now
        if self.history and self.history[-1].ply == plies:
            self.history[-1] = replace(self.history[-1], running=self.running, moves=_pair(self._moves))
        else:
            self.history.append(self._snapshot(plies, now, self.running))

    def load_history(self, rows: list[tuple[int, float, float]], plies: int, first: chess.Color,
                     now: float) -> None:
        """Set the clock to a game already ``plies`` half-moves long (e.g. imported from PGN).

        ``rows`` are ``(ply, white_remaining, black_remaining)`` known for earlier
        moments (from [%clk] comments); ``first`` is the side that moved first.
        The clock is left stopped; ``start`` it for the side to move.
        """
        base = self.time_control.periods[0].seconds if self.time_control else math.inf
        white_moves = (plies + (1 if first == chess.WHITE else 0)) // 2
        black_moves = plies - white_moves
        self._moves = [white_moves, black_moves]
        self._used = [0.0, 0.0]
        self._move_used = [0.0, 0.0]
        self._flags = [None, None]
        self.running = None
        self.paused = False
        self._since = now
        self.history = [ClockSnapshot(0, now, (base, base), (0.0, 0.0), (0, 0), None)]
        for ply, w, b in sorted(rows):
            if 0 < ply <= plies:
                wm = (ply + (1 if first == chess.WHITE else 0)) // 2
                self.history.append(ClockSnapshot(int(ply), now, (float(w), float(b)), (0.0, 0.0), (wm, ply - wm), None))
        if self.history[-1].ply != plies:
            last = self.history[-1]
            self.history.append(ClockSnapshot(plies, now, last.remaining, (0.0, 0.0), (white_moves, black_moves), None))
        self._remaining = list(self.history[-1].remaining)

    def snapshot(self, now: float) -> ClockSnapshot:
        """The clock as it is at ``now`` (not stored)."""
        rem = (self.remaining(chess.WHITE, now), self.remaining(chess.BLACK, now))
        used = (self.used(chess.WHITE, now), self.used(chess.BLACK, now))
        return ClockSnapshot(self.ply, now, rem, used, _pair(self._moves), self.running, 0.0, _pair(self._flags))

    def _snapshot(self, ply: int, now: float, running: bool | None, move_time: float = 0.0) -> ClockSnapshot:
        return ClockSnapshot(ply, now, _pair(self._remaining), _pair(self._used), _pair(self._moves), running,
                        move_time, _pair(self._flags))
