"""The arbiter's D.2.9 ruling said to everybody names the board that is set right: the sighted player's board
after a wrong mirror on it, the tactile board after a wrong mirror on the pegs."""

from __future__ import annotations

import chess

from blindchess.table.commands import ArbiterApply, ClockPress, SightedMove, Tick
from blindchess.table.events import Ruled, Said
from tests.support.table import Run, blind_move


def _ruling_said(run: Run, t: float) -> list[str]:
    run.handle(ArbiterApply(), t)
    run.handle(Tick(), t + 30.0)
    assert [r.kind for r in run.of(Ruled)] == ["correct-board"]
    return [s.text for s in run.of(Said) if s.t >= t and s.to == "all" and s.text.startswith("Entscheid")]


def test_a_wrong_mirror_on_the_sighted_board_is_set_right_there():
    run = Run(time_control="90+30", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(SightedMove("d2d4"), 3.0)                  # the wrong mirror
    assert _ruling_said(run, 10.0) == [
        "Entscheid: das Brett des sehenden Spielers wird berichtigt, die Partie geht weiter."]


def test_a_wrong_mirror_on_the_pegs_is_set_right_on_the_tactile_board():
    run = Run(time_control="90+30", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(SightedMove("e2e4"), 2.5)
    run.handle(ClockPress(chess.WHITE), 3.0)
    run.handle(SightedMove("e7e5"), 5.0)
    run.peg_move("e7e6", 6.0)                             # the wrong mirror on the pegs
    run.handle(Tick(), 8.0)
    assert _ruling_said(run, 10.0) == ["Entscheid: das Tastbrett wird berichtigt, die Partie geht weiter."]
