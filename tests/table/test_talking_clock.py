"""The talking clock (D.2.6): compact spoken times in German and English; warnings only when opted in (D.2.10 d)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blindchess.table import clock as tc


def test_the_issue_example():
    assert tc.phrase(12 * 60 + 30, 8 * 60 + 5, 23, "de") == "Sie: 12 Minuten 30, Gegner: 8 Minuten 5, 23 Züge"
    assert tc.phrase(12 * 60 + 30, 8 * 60 + 5, 23, "en") == "You: 12 minutes 30, opponent: 8 minutes 5, 23 moves"


@pytest.mark.parametrize("seconds,de,en", [
    (60, "1 Minute", "1 minute"),
    (61, "1 Minute 1", "1 minute 1"),
    (600, "10 Minuten", "10 minutes"),
    (59.99, "59 Sekunden", "59 seconds"),   # whole seconds, rounded down as a clock shows them
    (1.5, "1 Sekunde", "1 second"),
    (3600, "1 Stunde", "1 hour"),
    (3600 + 60 + 59, "1 Stunde 1 Minute", "1 hour 1 minute"),  # no seconds from one hour on
    (2 * 3600 + 5 * 60, "2 Stunden 5 Minuten", "2 hours 5 minutes"),
    (0, "Zeit abgelaufen", "time out"),
    (-3, "Zeit abgelaufen", "time out"),
])
def test_spoken_times(seconds, de, en):
    assert tc.spoken_time(seconds, "de") == de
    assert tc.spoken_time(seconds, "en") == en


def test_used_time_zero_is_not_a_fallen_flag():
    assert tc.phrase(0, 75, 0, "de", used=True) == "Sie: 0 Sekunden, Gegner: 1 Minute 15, 0 Züge"
    assert tc.phrase(0, 75, 0, "en") == "You: time out, opponent: 1 minute 15, 0 moves"


def test_move_count_singular_and_plural():
    assert tc.phrase(30, 45, 1, "de").endswith("1 Zug")
    assert tc.phrase(30, 45, 0, "de").endswith("0 Züge")
    assert tc.phrase(30, 45, 1, "en").endswith("1 move")
    assert tc.phrase(30, 45, 2, "en").endswith("2 moves")


@settings(deadline=None, max_examples=200)
@given(st.floats(min_value=1, max_value=10 * 3600), st.floats(min_value=1, max_value=10 * 3600),
       st.integers(min_value=0, max_value=300))
def test_phrase_always_has_both_times_and_the_count(own, opp, moves):
    text = tc.phrase(own, opp, moves, "de")
    assert text.startswith("Sie: ") and ", Gegner: " in text and text.endswith(("Zug", "Züge"))
    assert text.split(", ")[-1].split()[0] == str(moves)


def test_warnings_only_for_a_player_who_opted_in():
    assert tc.WarningPreferences().opted_in is False
    # D.2.10 d: nothing is spoken unasked by default, whatever the times do
    assert tc.due_warnings(400, 10, tc.WarningPreferences()) == []
    assert tc.due_warnings(400, 10, tc.WarningPreferences(thresholds=(300.0,))) == []
    chosen = tc.WarningPreferences.chosen(60, 300)
    assert chosen.opted_in and chosen.thresholds == (300.0, 60.0)
    assert tc.due_warnings(301, 299, chosen) == [300.0]
    assert tc.due_warnings(299, 200, chosen) == []          # once only
    assert tc.due_warnings(400, 30, chosen) == [300.0, 60.0]  # a jump crosses both
    assert tc.due_warnings(300, 300, chosen) == []


@settings(deadline=None, max_examples=100)
@given(st.lists(st.floats(min_value=0, max_value=3600), min_size=2, max_size=30).map(lambda xs: sorted(xs, reverse=True)),
       st.lists(st.integers(min_value=1, max_value=3600), min_size=1, max_size=4))
def test_each_threshold_warns_exactly_once_as_time_runs_down(readings, thresholds):
    prefs = tc.WarningPreferences.chosen(*thresholds)
    said = [w for prev, cur in zip(readings, readings[1:]) for w in tc.due_warnings(prev, cur, prefs)]
    expected = [t for t in prefs.thresholds if readings[0] > t >= readings[-1]]
    assert sorted(said, reverse=True) == said and said == expected


def test_warning_phrases():
    assert tc.warning_phrase(300, "de") == "Noch 5 Minuten"
    assert tc.warning_phrase(60, "en") == "1 minute left"


def test_phrase_from_the_session_clock():
    clock_mod = pytest.importorskip("blindchess.laws.clock")
    import chess

    clock = clock_mod.Clock(clock_mod.TimeControl.parse("15+0"), now=0.0)
    clock.start(chess.WHITE, 0.0)
    clock.press(chess.WHITE, 30.0)   # White used 30 s
    clock.press(chess.BLACK, 100.0)  # Black used 70 s
    assert tc.phrase_from_clock(clock, chess.WHITE, 110.0, "de") == "Sie: 14 Minuten 20, Gegner: 13 Minuten 50, 1 Zug"
    assert tc.phrase_from_clock(clock, chess.BLACK, 110.0, "en") == "You: 13 minutes 50, opponent: 14 minutes 20, 1 move"
    assert tc.phrase_from_clock(clock, chess.WHITE, 110.0, "de", used=True) == "Sie: 40 Sekunden, Gegner: 1 Minute 10, 1 Zug"
