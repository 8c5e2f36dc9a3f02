"""Clock behaviours a mutation run showed unpinned ("tests that would fail if it broke").

FIDE Laws Art. 6 (the chessboard clock): the arbiter pauses and restarts the clock
(Art. 6.11), may adjust a player's time (Art. 6.10); a fallen flag stays fallen (Art. 6.9).
Time is passed in explicitly; nothing here reads a clock.
"""

from __future__ import annotations

import chess

from blindchess.laws.clock import Clock, TimeControl


def test_a_resumed_clock_runs_again_and_the_pause_is_not_booked():
    # Art. 6.11: the arbiter stops the clock; the paused time belongs to nobody
    clock = Clock(TimeControl.parse("10"), 0.0)
    clock.start(chess.WHITE, 0.0)
    clock.pause(5.0)
    assert not clock.ticking
    clock.resume(20.0)
    assert clock.ticking
    assert not clock.paused
    assert clock.remaining(chess.WHITE, 21.0) == 600 - 6
    assert clock.remaining(chess.BLACK, 21.0) == 600


def test_a_resume_with_charge_books_the_paused_time_and_its_fallen_flag():
    clock = Clock(TimeControl.parse("10s"), 0.0)
    clock.start(chess.WHITE, 0.0)
    clock.pause(5.0)
    clock.resume(20.0, charge=True)
    assert clock.remaining(chess.WHITE, 20.0) == 0.0
    assert clock.flag_fallen(chess.WHITE, 20.0)
    assert clock.flag_time(chess.WHITE, 20.0) == 10.0
    assert clock.ticking


def test_setting_zero_seconds_keeps_a_fallen_flag_and_more_time_clears_it():
    # Art. 6.9 / 6.10: a flag that fell stays fallen unless the arbiter gives time back
    clock = Clock(TimeControl.parse("10s"), 0.0)
    clock.start(chess.WHITE, 0.0)
    assert clock.flag_fallen(chess.WHITE, 12.0)
    clock.set_remaining(chess.WHITE, 0, 13.0)
    assert clock.flag_fallen(chess.WHITE, 13.0)
    assert clock.flag_time(chess.WHITE, 13.0) == 10.0
    clock.set_remaining(chess.WHITE, 60, 14.0)
    assert not clock.flag_fallen(chess.WHITE, 14.0)
    assert clock.flag_time(chess.WHITE, 14.0) is None


def test_a_loaded_history_counts_the_moves_of_each_side_at_every_row():
    clock = Clock(TimeControl.parse("90+30"), 0.0)
    clock.load_history([(1, 5400, 5400), (2, 5390, 5380), (3, 5370, 5380)], 3, chess.WHITE, 100.0)
    assert [(s.ply, s.moves) for s in clock.history] == [(0, (0, 0)), (1, (1, 0)), (2, (1, 1)), (3, (2, 1))]
    assert clock.moves_completed(chess.WHITE) == 2
    assert clock.moves_completed(chess.BLACK) == 1


def test_a_clock_snapshot_in_json_gives_the_seconds_and_null_without_a_limit():
    clock = Clock(TimeControl.parse("10"), 0.0)
    clock.start(chess.WHITE, 0.0)
    d = clock.snapshot(21.0).to_dict()
    assert d["white"] == 579.0 and d["black"] == 600.0
    unlimited = Clock(None, 0.0).snapshot(0.0).to_dict()
    assert unlimited["white"] is None and unlimited["black"] is None


def test_a_clock_stopped_during_a_pause_is_stopped_not_paused():
    # Art. 6.11: the arbiter paused the clock, then the game ended (or was adjourned): the clock is stopped —
    # the display must not say "paused", and a later press (the adjourned game resumed) is not refused
    clock = Clock(TimeControl.parse("10"), 0.0)
    clock.start(chess.WHITE, 0.0)
    clock.pause(5.0)
    clock.stop(8.0)
    assert clock.running is None
    assert not clock.paused
    assert not clock.ticking
    assert clock.remaining(chess.WHITE, 100.0) == 600 - 5
    snap = clock.press(chess.WHITE, 200.0)
    assert clock.running == chess.BLACK
    assert snap.ply == 1
