"""The chess clock (D.2.6, D.2.9, D.2.10 d): time controls, increment, delay, periods, restore."""

from __future__ import annotations

import math

import chess
import pytest

from blindchess.laws.clock import Clock, ClockError, Period, TimeControl, format_time, parse_duration

W, B = chess.WHITE, chess.BLACK


@pytest.mark.parametrize("text, periods", [
    ("40/5400+30:1800+30", [Period(40, 5400, 30), Period(None, 1800, 30)]),
    ("90+30", [Period(None, 5400, 30)]),
    ("5+3", [Period(None, 300, 3)]),
    ("15", [Period(None, 900)]),
    ("5400+30", [Period(None, 5400, 30)]),
    ("180+2", [Period(None, 180, 2)]),  # 180 and more: seconds (PGN)
    ("40/90m+30s, 30m+30s", [Period(40, 5400, 30), Period(None, 1800, 30)]),
    ("1h30+30s", [Period(None, 5400, 30)]),
    ("90d5", [Period(None, 5400, 0, 5)]),
    ("40/7200:20/3600", [Period(40, 7200), Period(20, 3600)]),
])
def test_parse_forms(text, periods):
    tc = TimeControl.parse(text)
    assert list(tc.periods) == periods
    assert TimeControl.parse(str(tc)) == tc  # the PGN form reads back the same


def test_parse_no_control_and_errors():
    assert TimeControl.parse("-") is None and TimeControl.parse("") is None
    for bad in ("abc", "40/", "90+", "0", "10:40/20", "40/0:300", "++"):
        with pytest.raises(ValueError):
            TimeControl.parse(bad)
    assert TimeControl.parse("90+30").base_seconds == 5400 and TimeControl.parse("90+30").increment == 30


def test_fischer_increment_and_time_used():
    c = Clock(TimeControl.parse("5+3"), 0.0)
    c.start(W, 0.0)
    c.press(W, 10.0)
    assert c.remaining(W, 10.0) == 300 - 10 + 3
    assert c.used(W, 10.0) == 10 and c.moves_completed(W) == 1
    assert c.running == B and c.remaining(B, 15.0) == 295


def test_bronstein_delay_gives_back_at_most_the_delay():
    c = Clock(TimeControl.parse("90d5"), 0.0)
    c.start(W, 0.0)
    c.press(W, 3.0)  # 3 s used: all given back
    assert c.remaining(W, 3.0) == 5400
    c.press(B, 13.0)  # 10 s used: 5 given back
    assert c.remaining(B, 13.0) == 5400 - 5


def test_multi_period_adds_time_after_the_40th_move():
    c = Clock(TimeControl.parse("40/5400+30:1800+30"), 0.0)
    c.start(W, 0.0)
    t = 0.0
    for _ in range(39):
        t += 60
        c.press(W, t)
        t += 60
        c.press(B, t)
    assert c.remaining(W, t) == 5400 + 39 * (30 - 60)
    t += 60
    c.press(W, t)  # move 40 completed: the second period's 30 minutes are added
    assert c.remaining(W, t) == 5400 + 40 * (30 - 60) + 1800
    assert c.moves_completed(W) == 40


def test_repeating_last_period():
    tc = TimeControl.parse("2/60:1/30")  # 2 moves in 60 s, then 30 s per move, repeating
    assert [tc.ends_period(n) for n in range(1, 6)] == [False, True, True, True, True]
    assert tc.period_index(7) == 1


def test_pause_resume_for_the_arbiter():
    c = Clock(TimeControl.parse("5+0"), 0.0)
    c.start(W, 0.0)
    c.pause(10.0)
    assert c.remaining(W, 100.0) == 290 and not c.ticking
    with pytest.raises(ClockError):
        c.press(W, 50.0)
    c.resume(100.0)
    assert c.remaining(W, 110.0) == 280
    c.pause(120.0)
    c.resume(130.0, charge=True)  # the arbiter books the pause to the player
    assert c.remaining(W, 130.0) == 260


def test_flag_fall_and_set_remaining():
    c = Clock(TimeControl.parse("1+0"), 0.0)
    c.start(W, 0.0)
    assert not c.flag_fallen(W, 59.9)
    assert c.flag_fallen(W, 60.0) and c.flag_time(W, 70.0) == 60.0
    c.press(W, 70.0)  # the flag stays fallen after the press
    assert c.flag_fallen(W, 71.0) and c.remaining(W, 71.0) == 0
    c.set_remaining(W, 30.0, 72.0)
    assert not c.flag_fallen(W, 72.0) and c.remaining(W, 72.0) == 30.0


def test_wrong_side_press_is_refused():
    c = Clock(TimeControl.parse("5+0"), 0.0)
    c.start(W, 0.0)
    with pytest.raises(ClockError):
        c.press(B, 1.0)


def test_restore_to_an_earlier_ply_exactly():
    c = Clock(TimeControl.parse("90+30"), 0.0)
    c.start(W, 0.0)
    presses = [(W, 12.5), (B, 40.0), (W, 41.0), (B, 99.0), (W, 150.0)]
    for color, t in presses:
        c.press(color, t)
    at2 = c.times_at(2)
    assert at2.remaining == (5400 - 12.5 + 30, 5400 - 27.5 + 30)
    snap = c.restore(2, 200.0)
    assert snap.ply == 2 and c.ply == 2
    assert c.remaining(W, 200.0) == 5400 - 12.5 + 30 and c.running == W
    assert c.moves_completed(W) == 1 and c.moves_completed(B) == 1
    assert c.remaining(W, 210.0) == 5400 - 12.5 + 30 - 10


def test_without_time_control_only_time_used():
    c = Clock(None, 0.0)
    c.start(W, 0.0)
    c.press(W, 5.0)
    assert math.isinf(c.remaining(W, 5.0)) and not c.flag_fallen(W, 1e9)
    assert c.used(W, 5.0) == 5.0


def test_format_and_parse_durations():
    assert format_time(5400) == "1:30:00" and format_time(65) == "1:05" and format_time(None) == "-"
    assert parse_duration("1:30:00") == 5400 and parse_duration("12.5") == 12.5
    with pytest.raises(ValueError):
        parse_duration("1:xx")


@pytest.mark.parametrize("text", ["-5", "-0:01", "inf", "nan", "1e400"])
def test_negative_or_infinite_durations_are_refused(text):
    # "-5" was a remaining time of -5 s in a clock log
    with pytest.raises(ValueError):
        parse_duration(text)


def test_flag_fallen_before_a_press_with_increment_stays_fallen():
    # Art. 6.9: the flag fell before the move was completed; the increment does not lift it.
    clock = Clock(TimeControl([Period(None, 60.0, 30.0)]), 0.0)
    clock.start(W, 0.0)
    assert clock.flag_time(W, 59.0) is None
    clock.press(W, 61.0)
    assert clock.remaining(W, 61.0) == 29.0     # 60 - 61 + 30: time left again, the flag still fell
    assert clock.flag_fallen(W, 62.0) and clock.flag_time(W, 62.0) == 60.0
    assert not clock.flag_fallen(B, 62.0)


def test_increment_of_the_right_period_at_move_40():
    # 40 moves in 90 minutes with 30 s, then 30 minutes with 10 s: move 40 still earns 30 s.
    clock = Clock(TimeControl.parse("40/5400+30:1800+10"), 0.0)
    clock.start(W, 0.0)
    t = 0.0
    for _ in range(39):
        clock.press(W, t + 1.0)
        clock.press(B, t + 2.0)
        t += 2.0
    before = clock.remaining(W, t)
    clock.press(W, t + 1.0)           # White's 40th move
    assert clock.remaining(W, t + 1.0) == before - 1.0 + 30.0 + 1800.0
    clock.press(B, t + 2.0)
    before = clock.remaining(W, t + 2.0)
    clock.press(W, t + 3.0)           # White's 41st move: the second period's increment
    assert clock.remaining(W, t + 3.0) == before - 1.0 + 10.0


@pytest.mark.parametrize("plies, first, white, black", [(3, W, 2, 1), (3, B, 1, 2), (5, W, 3, 2), (1, B, 0, 1)])
def test_move_counts_after_load_history_with_odd_plies(plies, first, white, black):
    clock = Clock(TimeControl.parse("90+30"), 0.0)
    clock.load_history([(1, 5400.0, 5400.0)], plies, first, 0.0)
    assert (clock.moves_completed(W), clock.moves_completed(B)) == (white, black)
    assert clock.history[-1].ply == plies and clock.history[-1].moves == (white, black)


def test_align_after_a_ruling_keeps_times_and_counts_moves():
    clock = Clock(TimeControl.parse("90+30"), 0.0)
    clock.start(W, 0.0)
    clock.press(W, 10.0)
    clock.align(2, W, 20.0, running=W)   # the game moved on by Black's move without a press (D.2.9)
    assert clock.running == W and clock.remaining(B, 20.0) == 5400.0 - 10.0
    assert clock.remaining(W, 20.0) == 5400.0 - 10.0 + 30.0
    assert clock.history[-1].ply == 2 and clock.moves_completed(B) == 1
    snap = clock.press(W, 25.0)
    assert snap.ply == 3
