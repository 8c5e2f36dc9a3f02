"""The times the clock's events carry (remaining times and the time a move took) are to the millisecond, as
every time an event carries, whatever the precision of the time passed in (a front's monotonic clock)."""

from __future__ import annotations

import chess

from blindchess.game import Player, Session
from blindchess.game.events import ClockTimes


def test_the_move_time_and_the_remaining_times_are_to_the_millisecond():
    s = Session.new(Player("Anna"), Player("Bert", visually_impaired=True), "90+30", now=0.0)
    s.start_clock(1.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 4.12345678)
    [times] = [e for e in s.press_clock(chess.WHITE, 4.23456789) if isinstance(e, ClockTimes)]
    assert times.move_time == 3.235                     # 4.23456789 - 1.0, to the millisecond
    assert times.white == 5400.0 - 3.235 + 30.0 and times.black == 5400.0


def test_the_time_told_on_request_is_to_the_millisecond():
    # D.2.10 d: moves completed, time used and left by both players
    s = Session.new(Player("Anna"), Player("Bert", visually_impaired=True), "90+30", now=0.0)
    s.start_clock(1.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 4.12345678)
    s.press_clock(chess.WHITE, 4.23456789)
    request = s.request_time(10.00049, by="blind")
    assert request.white == {"moves": 1, "used": 3.235, "remaining": 5426.765}
    assert request.black == {"moves": 0, "used": 5.766, "remaining": 5394.234}
