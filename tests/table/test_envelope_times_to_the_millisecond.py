"""The envelope's times (Guidelines I.1 d, e: the time used by each player, and what is left) are written to the
millisecond, as the journal keeps every clock time, whatever fractions the presses came at."""

from __future__ import annotations

from pathlib import Path

import chess

from blindchess.storage import read_journal
from blindchess.table.commands import ArbiterAdjourn, BlindSays, ClockPress, SightedMove
from tests.support.table import Run


def test_the_envelope_s_times_are_whole_milliseconds(tmp_path: Path) -> None:
    journal = tmp_path / "game.journal"
    run = Run(journal=journal, blind="white", tactile="none", time_control="90+30", white="Bernd", black="Sabine")
    for t, command in ((2.0, BlindSays("Bauer Eva vier")), (2.50011, ClockPress(chess.WHITE)),
                       (3.0, SightedMove("e2e4")), (5.0, SightedMove("e7e5")), (5.50049, ClockPress(chess.BLACK)),
                       (60.0, ArbiterAdjourn()), (70.0, BlindSays("Springer Felix drei"))):
        run.handle(command, t)
    public = [e["public"] for e in read_journal(journal).events if e.get("type") == "sealed-move"]
    assert len(public) == 1
    # White: 2.50011 s for 1.e4, then 64.49951 s until he sealed at 70 (66.99962 s); Black: 3.00038 s for 1...e5
    assert (public[0]["white_used"], public[0]["black_used"]) == (67.0, 3.0)
    # 90 minutes, 30 s increment after each completed move
    assert (public[0]["white_remaining"], public[0]["black_remaining"]) == (5363.0, 5427.0)
