"""The adjournment procedure at the table (FIDE Guidelines I): each step out of its turn refused with its reason
(no adjournment twice, nothing to seal, the other player's seal, no envelope to open, the absent responder's
clock started once, no clock to correct before a resumption), a player late at the resumption losing (I.10), and
nothing more to rule once the game is over."""

from __future__ import annotations

import chess

from blindchess.base import tr
from blindchess.table.commands import (
    ArbiterAdjourn,
    ArbiterAnnul,
    ArbiterLate,
    ArbiterResume,
    ArbiterResumeAbsent,
    ClockPress,
    PointsOutClock,
    Seals,
    SightedMove,
    Tick,
)
from blindchess.table.events import Refused, Shown
from blindchess.table.table import Table, TableSetup


def test_each_step_of_the_adjournment_out_of_its_turn_is_refused_and_a_late_player_loses(tmp_path):
    table = Table.new(TableSetup(white="Sabine Sehend", black="Bernd Blind", blind="black", time_control="90+30",
                                 tactile="none", settle=0.5), 0.0, tmp_path / "game.jsonl")
    events: list = []
    table.subscribe(events.append)

    def refused(t: float) -> list[tuple[str, str]]:
        return [(e.what, e.text) for e in events if isinstance(e, Refused) and e.t == t]

    table.handle(SightedMove("e2e4"), 1.0)
    table.handle(ClockPress(chess.WHITE), 2.0)
    table.handle(Tick(), 3.0)
    table.handle(ArbiterResume(), 4.0)
    assert refused(4.0) == [("resume", tr("table.no_envelope", "de"))]
    table.handle(ArbiterResumeAbsent(), 5.0)
    assert refused(5.0) == [("resume", tr("table.no_envelope", "de"))]
    table.handle(Seals("blind", "e5"), 6.0)
    assert refused(6.0) == [("seal", tr("table.nothing_to_seal", "de"))]
    table.handle(PointsOutClock("sighted"), 7.0)
    assert refused(7.0) == [("clock", tr("table.no_clock_to_correct", "de"))]

    table.handle(ArbiterAdjourn(), 10.0)              # Black to move: Bernd seals (Guidelines I.1 a)
    table.handle(ArbiterAdjourn(), 11.0)
    assert refused(11.0) == [("adjourn", tr("table.no_adjournment", "de"))]
    table.handle(Seals("sighted", "Sf6"), 12.0)
    assert refused(12.0) == [("seal", tr("table.not_your_seal", "de", name="Bernd Blind"))]
    assert table.game.sealing
    table.handle(Seals("blind", "e5"), 13.0)
    assert table.game.envelope_sealed

    table.handle(ArbiterResumeAbsent(), 100.0)        # Sabine, to reply, is absent: her clock is started (I.9 b)
    assert not refused(100.0)
    table.handle(ArbiterResumeAbsent(), 101.0)
    assert refused(101.0) == [("resume", tr("table.no_envelope", "de"))]
    table.handle(ArbiterLate(chess.WHITE), 200.0)     # she has not come by the default time (I.10)
    assert table.game.result == "0-1"
    assert tr("table.late", "de", name="Sabine Sehend") in [e.text for e in events if isinstance(e, Shown)]
    table.handle(ArbiterLate(chess.BLACK), 201.0)
    table.handle(ArbiterAnnul(), 202.0)
    assert refused(201.0) == refused(202.0) == [("result", tr("table.game_over", "de"))]
    table.handle(ArbiterAdjourn(), 203.0)
    assert refused(203.0) == [("adjourn", tr("table.no_adjournment", "de"))]
    assert table.game.result == "0-1"
