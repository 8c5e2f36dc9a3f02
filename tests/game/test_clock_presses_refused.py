"""A press of the clock refused (FIDE Laws D.2.4, Art. 6.2): while the clock is stopped (by the arbiter, or the game
adjourned, Guidelines I.1), before the presser's move is made, by the player who did not move, or after the game's end.
A refused press changes nothing: the clock goes on as it was."""

from __future__ import annotations

import chess

from blindchess.game import Player, Session
from blindchess.game.events import ClockRefused, ClockTimes, Press

M = chess.Move.from_uci


def reasons(events) -> list[tuple[str, str]]:
    return [(e.color, e.reason) for e in events if isinstance(e, ClockRefused)]


def test_a_press_while_the_clock_is_stopped_or_the_game_adjourned_is_refused():
    s = Session.new(Player("Anna"), Player("Bert"), "90+30", now=0.0)
    s.start_clock(0.0)
    s.board_move("sighted", M("e2e4"), 10.0)
    s.pause(11.0)
    assert reasons(s.press_clock(chess.WHITE, 12.0)) == [("white", "paused")]
    s.resume(20.0, charge=False)
    pressed = s.press_clock(chess.WHITE, 21.0)
    assert [type(e) for e in pressed] == [Press, ClockTimes]
    times = pressed[1]
    assert isinstance(times, ClockTimes) and (times.ply, times.move_time) == (1, 12.0)   # 21 s less the pause
    s.board_move("sighted", M("e7e5"), 30.0)
    s.adjourn(31.0)
    assert reasons(s.press_clock(chess.BLACK, 32.0)) == [("black", "paused")]
    assert s.snapshot.plies == 2


def test_a_press_before_the_move_or_by_the_other_player_or_after_the_end_is_refused():
    s = Session.new(Player("Anna"), Player("Bert"), "90+30", now=0.0)
    s.start_clock(0.0)
    assert reasons(s.press_clock(chess.WHITE, 1.0)) == [("white", "not-made")]
    s.board_move("sighted", M("e2e4"), 2.0)
    assert reasons(s.press_clock(chess.BLACK, 3.0)) == [("black", "not-made")]
    assert [type(e) for e in s.press_clock(chess.WHITE, 4.0)] == [Press, ClockTimes]
    assert reasons(s.press_clock(chess.WHITE, 5.0)) == [("white", "not-made")]      # pressed already
    s.resign(chess.BLACK, 6.0)
    assert reasons(s.press_clock(chess.BLACK, 7.0)) == [("black", "game-over")]
