"""The engine of a practice game fails: its one sentence is said to the blind player and shown, and the game
stands as it is; in a game between two people there is no engine, and such a report changes nothing."""

from __future__ import annotations

from blindchess.table.commands import EngineFailed, Finish
from blindchess.table.events import Said, Shown
from tests.support.table import Run

MESSAGE = "Stockfish wurde nicht gefunden."


def test_a_practice_game_s_engine_failing_is_said_and_shown_and_the_game_stands() -> None:
    run = Run(blind="white", tactile="none", opponent="engine")
    run.handle(EngineFailed(MESSAGE), 1.0)
    run.handle(Finish(), 2.0)
    assert MESSAGE in [e.text for e in run.of(Shown)]
    assert MESSAGE in [s.text for s in run.of(Said) if s.to == "blind"]
    assert run.table.game.plies == 0 and run.table.game.result is None


def test_an_engine_failure_reported_to_a_game_between_two_people_changes_nothing() -> None:
    run = Run(blind="white", tactile="none")
    before = len(run.events)
    run.handle(EngineFailed(MESSAGE), 1.0)
    assert MESSAGE not in [e.text for e in run.events[before:] if isinstance(e, (Said, Shown))]
    assert run.table.game.plies == 0 and run.table.game.result is None
