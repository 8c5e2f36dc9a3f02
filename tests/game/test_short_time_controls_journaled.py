"""A game with a base time under three minutes (bullet, a blitz of two minutes) reopened from its journal keeps
its time control: the journal must not read 120 seconds back as 120 minutes (Appendix B, the clocks)."""

from __future__ import annotations

import chess
import pytest

from blindchess.game import Player, Session


@pytest.mark.parametrize(("control", "base", "increment"), [("2+1", 120.0, 1.0), ("150s+1.5", 150.0, 1.5),
                                                             ("30s", 30.0, 0.0)])
def test_a_short_time_control_reads_back_the_same_from_the_journal(tmp_path, control, base, increment):
    journal = tmp_path / "g.jsonl"
    s = Session.new(Player("Anna"), Player("Bert", visually_impaired=True), control, now=0.0, journal=journal)
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 5.0)
    s.press_clock(chess.WHITE, 6.0)
    s.close()
    again = Session.load(journal)
    tc = again.snapshot.time_control
    assert tc is not None and tc.periods == s.snapshot.time_control.periods
    assert tc.periods[0].seconds == base and tc.periods[0].increment == increment
    assert again.clock.remaining(chess.WHITE, 6.0) == pytest.approx(base - 6.0 + increment)
    assert again.clock.remaining(chess.BLACK, 6.0) == pytest.approx(base)
