"""What everybody is told at an adjournment (Guidelines I.1): who seals, that he has sealed — his envelope, not
a reply sealed for an absent player —, and, adjourned before the session's scheduled end (I.1 b), that the
sealing counts at that end."""

from __future__ import annotations

import chess

from blindchess.base import tr
from blindchess.table.commands import ArbiterAdjourn, BlindSays, ClockPress, SightedMove, SightedSays
from blindchess.table.events import Sealed, Shown
from tests.support.table import Run


def _shown(run: Run, t: float) -> list[str]:
    return [e.text for e in run.of(Shown) if e.t == t and not e.private]


def _adjourned(session_end: float | None) -> Run:
    run = Run(blind="white", tactile="none", time_control="90+30", white="Bernd", black="Sabine")
    for t, command in ((2.0, BlindSays("Bauer Eva vier")), (2.5, ClockPress(chess.WHITE)), (3.0, SightedMove("e2e4")),
                       (5.0, SightedMove("e7e5")), (5.5, ClockPress(chess.BLACK)),
                       (60.0, ArbiterAdjourn(session_end=session_end))):
        run.handle(command, t)
    return run


def test_adjourned_at_the_session_s_end_the_sealer_is_named_and_his_sealing_told() -> None:
    run = _adjourned(None)
    assert tr("table.adjourned", "de", name="Bernd") in _shown(run, 60.0)
    assert tr("table.adjourned_early", "de", name="Bernd") not in _shown(run, 60.0)
    run.handle(BlindSays("Springer Felix drei"), 70.0)
    assert [s.by for s in run.of(Sealed)] == ["blind"]
    assert tr("table.sealed", "de", name="Bernd") in _shown(run, 70.0)
    assert tr("table.sealed_reply", "de", name="Bernd") not in _shown(run, 70.0)


def test_adjourned_before_the_session_s_end_everybody_is_told_the_sealing_counts_then() -> None:
    run = _adjourned(120.0)
    assert tr("table.adjourned", "de", name="Bernd") in _shown(run, 60.0)
    assert tr("table.adjourned_early", "de", name="Bernd") in _shown(run, 60.0)


def test_the_sighted_player_sealing_is_named() -> None:
    run = Run(blind="white", tactile="none", time_control="90+30", white="Bernd", black="Sabine")
    for t, command in ((2.0, BlindSays("Bauer Eva vier")), (2.5, ClockPress(chess.WHITE)), (3.0, SightedMove("e2e4")),
                       (60.0, ArbiterAdjourn()), (70.0, SightedSays("e5"))):
        run.handle(command, t)
    assert [s.by for s in run.of(Sealed)] == ["sighted"]
    assert tr("table.adjourned", "de", name="Sabine") in _shown(run, 60.0)
    assert tr("table.sealed", "de", name="Sabine") in _shown(run, 70.0)
