"""A crash in the blind player's own move, the pegs standing as the game: reopened, his next lift is a touch
(FIDE Laws D.2.2) as it would have been without the crash."""

from __future__ import annotations

import chess

from blindchess.table.commands import ClockPress, SightedMove, Tick
from blindchess.table.events import Touched
from tests.support.table import Run, blind_move


def test_after_a_crash_in_his_own_move_his_next_lift_is_a_touch(tmp_path):
    run = Run(journal=tmp_path / "g.jsonl", time_control="90+30", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(SightedMove("e2e4"), 2.5)
    run.handle(ClockPress(chess.WHITE), 3.0)
    run.handle(SightedMove("e7e5"), 5.0)
    run.peg_move("e7e5", 6.0)
    run.handle(ClockPress(chess.BLACK), 8.0)
    run.handle(Tick(), 10.0)                              # his move: nothing touched yet
    touched = len(run.of(Touched))
    run.crash_and_resume(20.0)
    run.handle(Tick(), 25.0)
    run.lift("g1", 30.0)
    assert [t.square for t in run.of(Touched)][touched:] == ["g1"]
