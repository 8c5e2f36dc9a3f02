"""A clock wrongly set or stopped at the resumption (Guidelines I.13), pointed out before the first move: set to
the times recorded at the sealing less the time run since (to the millisecond, as the journal keeps times) and
running; clocks that are right are not touched; nobody can point it out for a player nobody plays. And the
sighted player's sealed move is read as he wrote it, in notation (the blind player's also as spoken, I.1)."""

from __future__ import annotations

from pathlib import Path

import chess

from blindchess.base import tr
from blindchess.table.commands import (
    ArbiterAdjourn,
    ArbiterPause,
    ArbiterResume,
    ArbiterSetClock,
    BlindSays,
    ClockPress,
    PointsOutClock,
    SightedMove,
    SightedSays,
)
from blindchess.table.events import Refused, Sealed, Shown
from tests.support.table import Run

RESUMED = 90000.0


def _resumed(tmp_path: Path) -> Run:
    """1.e4 e5 2.Nf3, adjourned, Black seals 2...Nc6 (typed), resumed the next day: White to move."""
    run = Run(journal=tmp_path / "game.journal", blind="white", tactile="none", time_control="90+30",
              white="Bernd", black="Sabine")
    for t, command in ((2.0, BlindSays("Bauer Eva vier")), (2.5, ClockPress(chess.WHITE)), (3.0, SightedMove("e2e4")),
                       (5.0, SightedMove("e7e5")), (5.5, ClockPress(chess.BLACK)),
                       (8.0, BlindSays("Springer Felix drei")), (8.5, ClockPress(chess.WHITE)),
                       (9.0, SightedMove("g1f3")), (60.0, ArbiterAdjourn()), (70.0, SightedSays("Sc6")),
                       (RESUMED, ArbiterResume())):
        run.handle(command, t)
    assert run.table.game.plies == 4 and run.table.game.to_move == chess.WHITE
    return run


def _remaining(run: Run, t: float) -> tuple[float, float]:
    clock = run.table.session.clock
    return clock.remaining(chess.WHITE, t), clock.remaining(chess.BLACK, t)


def test_clocks_that_are_right_are_not_touched(tmp_path: Path) -> None:
    run = _resumed(tmp_path)
    before = _remaining(run, RESUMED + 10.0)
    run.handle(PointsOutClock("blind"), RESUMED + 10.0)
    assert [(r.what, r.text) for r in run.of(Refused)] == [("clock", tr("table.clock_is_right", "de"))]
    assert _remaining(run, RESUMED + 10.0) == before


def test_a_clock_one_second_off_is_set_right(tmp_path: Path) -> None:
    run = _resumed(tmp_path)
    t = RESUMED + 10.0
    white, black = _remaining(run, t)
    run.handle(ArbiterSetClock(chess.BLACK, black + 1.0), t)
    run.handle(PointsOutClock("blind"), t)
    assert not run.of(Refused)
    assert _remaining(run, t) == (white, black)
    assert tr("table.clock_corrected", "de", name="Bernd") in [e.text for e in run.of(Shown) if e.t == t]


def test_a_stopped_clock_is_started_and_set_to_the_millisecond(tmp_path: Path) -> None:
    run = _resumed(tmp_path)
    white_at_resumption = _remaining(run, RESUMED)[0]
    run.handle(ArbiterPause(), RESUMED + 5.0)               # stopped by mistake
    t = RESUMED + 20.00049
    run.handle(PointsOutClock("blind"), t)
    clock = run.table.session.clock
    assert not run.of(Refused) and not clock.paused and clock.running == chess.WHITE
    white = clock.remaining(chess.WHITE, t)
    assert white == round(white, 3) == white_at_resumption - 20.0     # the time since the resumption is his


def test_nobody_points_out_a_clock_for_a_player_nobody_plays(tmp_path: Path) -> None:
    run = Run(journal=tmp_path / "game.journal", blind="none", tactile="none", time_control="90+30")
    for t, command in ((2.0, SightedMove("e2e4")), (2.5, ClockPress(chess.WHITE)), (5.0, SightedMove("e7e5")),
                       (5.5, ClockPress(chess.BLACK)), (60.0, ArbiterAdjourn()), (70.0, SightedSays("Sf3")),
                       (RESUMED, ArbiterResume()), (RESUMED + 5.0, ArbiterSetClock(chess.WHITE, 600.0))):
        run.handle(command, t)
    assert run.table.game.plies == 3
    run.handle(PointsOutClock("blind"), RESUMED + 10.0)
    assert [(r.what, r.text) for r in run.of(Refused)] == [("clock", tr("table.no_clock_to_correct", "de"))]
    assert _remaining(run, RESUMED + 10.0)[0] == 600.0


def test_the_sighted_player_s_sealed_move_is_read_as_written_notation(tmp_path: Path) -> None:
    run = Run(journal=tmp_path / "game.journal", blind="white", tactile="none", time_control="90+30")
    for t, command in ((2.0, BlindSays("Bauer Eva vier")), (2.5, ClockPress(chess.WHITE)), (3.0, SightedMove("e2e4")),
                       (10.0, ArbiterAdjourn()), (11.0, SightedSays("Springer Cäsar sechs"))):
        run.handle(command, t)
    assert not run.of(Sealed) and run.table.game.sealing
    assert [e.text for e in run.of(Shown) if e.t == 11.0 and e.private] == [tr("table.seal_unreadable", "de")]
    run.handle(SightedSays("Sc6"), 12.0)
    assert [s.by for s in run.of(Sealed)] == ["sighted"]
