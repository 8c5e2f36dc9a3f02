"""The rules engine's quickplay finish (FIDE Laws, Guidelines III.4, III.5): a claim filed or refused, the
clocks stopped until the arbiter decides, the decision, and a claim that waits across a reopening."""

from __future__ import annotations

import chess
import pytest

from blindchess.game import Player, Session
from blindchess.game.events import EVENTS, GameEnd, QuickplayDecision, QuickplayFiled, TimeAdded, from_json, to_json


def _game(path, control: str = "16+0") -> Session:
    """White (sighted) plays 1.e4 and presses; Black (the blind player) is to move."""
    s = Session.new(Player("Sabine Sehend"), Player("Bernd Blind", True), control, now=0.0, journal=path)
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 1.0)
    s.press_clock(chess.WHITE, 1.5)
    return s


def test_a_filed_claim_stops_the_clocks_until_the_arbiter_rejects_it(tmp_path):
    s = _game(tmp_path / "g.jsonl", control="16+0")
    events = s.claim_quickplay(chess.BLACK, "cannot_win", 900.0)
    [filed] = [e for e in events if isinstance(e, QuickplayFiled)]
    assert filed.filed and filed.problems == () and s.clock.paused and s.snapshot.quickplay_claim is not None
    left = s.clock.remaining(chess.BLACK, 900.0)
    assert s.clock.remaining(chess.BLACK, 1500.0) == left          # nothing runs while the arbiter thinks
    events = s.decide_quickplay("reject", 1500.0)
    assert isinstance(events[0], QuickplayDecision)
    assert [(e.color, e.seconds) for e in events if isinstance(e, TimeAdded)] == [("white", 120.0)]
    assert not s.clock.paused and s.snapshot.quickplay_claim is None
    assert s.clock.remaining(chess.BLACK, 1510.0) == pytest.approx(left - 10.0)
    with pytest.raises(ValueError):
        s.decide_quickplay("draw", 1511.0)      # nothing waits for him any more
    s.close()


def test_a_claim_waits_across_a_reopening_and_a_draw_ends_the_game(tmp_path):
    path = tmp_path / "g.jsonl"
    s = _game(path)
    s.claim_quickplay(chess.BLACK, "no_effort", 900.0)
    s.close()
    again = Session.open(path, 2000.0)
    assert again.snapshot.quickplay_claim is not None and again.snapshot.quickplay_claim.ground == "no_effort"
    assert again.clock.paused
    events = again.decide_quickplay("draw", 2001.0)
    assert [(e.result, e.reason) for e in events if isinstance(e, GameEnd)] == [("1/2-1/2", "quickplay")]
    assert again.snapshot.result == "1/2-1/2"
    again.close()
    assert Session.load(path).snapshot.result == "1/2-1/2"


@pytest.mark.parametrize(("control", "now", "problem"), [
    ("16+0", 100.0, "quickplay_too_early"),
    ("16+10", 900.0, "quickplay_not_here"),
    ("10+0", 550.0, "quickplay_not_here"),       # blitz
])
def test_a_claim_that_cannot_be_filed_changes_nothing(tmp_path, control, now, problem):
    s = _game(tmp_path / "g.jsonl", control)
    [filed] = [e for e in s.claim_quickplay(chess.BLACK, "cannot_win", now) if isinstance(e, QuickplayFiled)]
    assert problem in filed.problems and not filed.filed
    assert not s.clock.paused and s.snapshot.quickplay_claim is None
    with pytest.raises(ValueError):
        s.decide_quickplay("draw", now + 1)
    s.close()


def test_the_player_not_to_move_cannot_file(tmp_path):
    s = _game(tmp_path / "g.jsonl")
    [filed] = [e for e in s.claim_quickplay(chess.WHITE, "cannot_win", 900.0) if isinstance(e, QuickplayFiled)]
    assert "quickplay_not_to_move" in filed.problems
    s.close()


def test_the_events_are_journal_lines_and_back():
    for ev in (QuickplayFiled(t=1.0, color="black", ground="cannot_win", problems=("quickplay_too_early",)),
               QuickplayDecision(t=2.0, verdict="postpone")):
        assert EVENTS[ev.TYPE] is type(ev)
        assert from_json(to_json(ev)) == ev
