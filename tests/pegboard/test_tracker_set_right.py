"""The tracker while the pegs are set right to a given position (after a D.2.9 ruling; the position before a
sealed move set up again, Guidelines I.5): it says nothing until the pegs show it, then "in-sync", and every
later lift is a touch again (D.2.2)."""

from __future__ import annotations

import itertools

import chess
import pytest

from blindchess.pegboard.tracker import Snapshot, Tracker, occupancy
from tests.pegboard.test_tracker import Hand, board_after, kinds


def _retraced() -> tuple[Tracker, Hand]:
    """The pegs show 1.e4 e5 2.Nf3 Nc6; the game is retraced to 1.e4 e5 (White to move)."""
    tracker = Tracker(board_after("e4", "e5", "Nf3", "Nc6"), settle=0.5)
    hand = Hand(tracker)
    assert tracker.set_right(board_after("e4", "e5")) == []
    hand.settle()
    return tracker, hand


def test_the_squares_to_set_right_are_reported_once_then_nothing_until_the_pegs_show_it():
    tracker, hand = _retraced()
    [told] = hand.events
    assert told.type == "mismatch"
    assert {chess.square_name(sq) for sq in told.squares} == {"g1", "f3", "c6", "b8"}
    assert tracker.setting_right
    # the black knight back first: the pegs show 2.Nf3 — a move nobody made now; nothing is read into it
    assert hand.do("L c6 P b8 ~") == []
    assert tracker.setting_right and tracker.board.board_fen() == board_after("e4", "e5").board_fen()
    assert hand.do("L f3 P g1 ~") and kinds(hand.events[-1:]) == ["in-sync"]
    assert not tracker.setting_right
    # from now on a lift is a touch, and his move is a move
    touched = hand.do("L b1")
    assert kinds(touched) == ["touched"] and touched[0].own
    assert [e.move.uci() for e in hand.do("P c3 ~") if e.type == "move"] == ["b1c3"]


@pytest.mark.parametrize("order", list(itertools.permutations(["L f3", "P g1", "L c6", "P b8"])))
def test_any_order_of_the_hands_reads_no_move_and_ends_in_sync(order):
    tracker, hand = _retraced()
    seen = []
    for step in order:
        seen += hand.do(step, gap=0.6)        # each hand's step stands for the settle time: judged every time
    seen += hand.settle()
    assert not [e for e in seen if e.type in ("move", "takeback", "touched", "mismatch")], seen
    assert tracker.occupied == occupancy(board_after("e4", "e5"))
    assert kinds(seen) == ["in-sync"] and not tracker.setting_right


def test_a_move_expected_meanwhile_counts_once_the_pegs_show_it():
    """The ruling corrects his pegs; the opponent moves before they are right: set right, then mirrored."""
    tracker = Tracker(board_after("e4", "c5", "Nf3"), settle=0.5)
    hand = Hand(tracker)
    tracker.set_right(board_after("e4", "e5"))
    assert kinds(hand.settle()) == ["mismatch"]
    tracker.expect(board_after("e4", "e5", "Nc3"))
    assert tracker.setting_right and tracker.pending == chess.Move.from_uci("b1c3")
    new = hand.do("L c5 P c7 L e7 P e5 L f3 P g1 ~")
    assert kinds(new) == ["in-sync"]
    new = hand.do("L b1 P c3 ~")
    assert [e.move.uci() for e in new if e.type == "move"] == ["b1c3"]


def test_a_snapshot_while_setting_right_is_no_move():
    tracker = Tracker(board_after("e4", "e5", "Nf3"), settle=0.5)
    tracker.set_right(board_after("e4", "e5"))
    events = tracker.tick(1.0)
    assert kinds(events) == ["mismatch"]
    events = tracker.feed(Snapshot(1.5, occupancy(board_after("e4", "e5", "Nf3"))))
    events += tracker.tick(2.0)
    assert events == []
    events = tracker.feed(Snapshot(3.0, occupancy(board_after("e4", "e5"))))
    events += tracker.tick(4.0)
    assert kinds(events) == ["in-sync"]
