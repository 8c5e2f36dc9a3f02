"""A flag is seen only while the game goes on and its clock has been started (FIDE Laws Art. 6.8, 6.9): once
the game is over, the time that runs out afterwards is nobody's fallen flag."""

from __future__ import annotations

import chess

from tests.support.sessions import played


def test_a_fallen_flag_is_reported_while_the_game_goes_on_and_not_after_it_ended():
    s = played(("e2e4",), time_control="1+0")              # Black's minute runs from t = 1.2
    assert s.flags_fallen(30.0) == []
    assert s.flags_fallen(70.0) == [chess.BLACK]
    s = played(("e2e4",), time_control="1+0")
    s.resign(chess.BLACK, 30.0)                            # over before the flag fell
    assert s.snapshot.result == "1-0"
    assert s.flags_fallen(70.0) == []


def test_no_flag_falls_in_a_game_without_a_clock():
    assert played((), time_control="1+0").flags_fallen(500.0) == [chess.WHITE]   # started at 0: his minute ran out
    assert played((), time_control=None).flags_fallen(500.0) == []
