"""The arbiter's one clock key stops the clock and starts it again (nothing without a clock); the phrases the
recogniser listens for are the moves' and, in a practice game with coaching, "take back"."""

from __future__ import annotations

import chess

from blindchess.base import tr
from blindchess.table.commands import ArbiterToggleClock, ClockPress, SightedMove
from blindchess.table.events import Shown
from tests.support.practice_driver import BlindSide
from tests.support.table import Run, blind_move
from tests.table.test_practice import WHITE_VS_ENGINE, Scripted


def test_the_arbiter_s_clock_key_stops_the_clock_and_starts_it_again():
    run = Run(time_control="90+30", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(SightedMove("e2e4"), 2.5)
    run.handle(ClockPress(chess.WHITE), 3.0)               # Black's clock runs
    clock = run.table.session.clock
    run.handle(ArbiterToggleClock(), 13.0)
    assert clock.paused
    run.handle(ArbiterToggleClock(), 113.0)
    assert not clock.paused and clock.running == chess.BLACK
    assert clock.remaining(chess.BLACK, 123.0) == 5400.0 - 20.0
    assert tr("table.clock_resumed", "de") in [e.text for e in run.of(Shown) if e.t == 113.0]


def test_without_a_clock_the_arbiter_s_clock_key_does_nothing():
    run = Run(time_control=None, blind="white")
    before = len(run.events)
    run.handle(ArbiterToggleClock(), 5.0)
    assert [e for e in run.events[before:] if e.t == 5.0] == []


def test_take_back_is_listened_for_only_in_a_practice_game_with_coaching(tmp_path):
    take_back = [p.strip().lower() for p in tr("engine.take_back_phrases", "de").split("|")]
    game = Run(time_control="90+30", blind="white")
    phrases = game.table.grammar()
    assert phrases and not set(take_back) & set(phrases)
    coached = BlindSide(WHITE_VS_ENGINE.replace("engine 1", "engine 1 coaching"), tmp_path / "c.jsonl",
                        engines=lambda setup: Scripted("e7e5"))
    assert set(take_back) <= set(coached.table.grammar())
    coached.close()
    plain = BlindSide(WHITE_VS_ENGINE, tmp_path / "p.jsonl", engines=lambda setup: Scripted("e7e5"))
    assert not set(take_back) & set(plain.table.grammar())
    plain.close()
