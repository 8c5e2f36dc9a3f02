"""Tracker behaviours pinned (each test fails if the one line deciding it changes).

* an announced capture seen only through snapshots (no lift history) is the move;
* mirroring an announced promotion reports the announced piece at once (D.2.1);
* taking back a mirrored move keeps the announced move expected (D.2.9: the board
  must still show it), so another move is a mismatch, not a move.
"""

from __future__ import annotations

import chess

from blindchess.pegboard.tracker import Lift, Place, Snapshot, Tracker

SETTLE = 0.5


def board_after(*sans: str, fen: str | None = None) -> chess.Board:
    board = chess.Board(fen) if fen else chess.Board()
    for san in sans:
        board.push_san(san)
    return board


def snapshot_of(board: chess.Board, t: float) -> Snapshot:
    return Snapshot(t, int(board.occupied))


def feed_and_settle(tracker: Tracker, events: list, t_end: float) -> list:
    out: list = []
    for event in events:
        out += tracker.feed(event)
    return out + tracker.tick(t_end)


def moves(events: list) -> list[str]:
    return [e.move.uci() for e in events if e.type == "move"]


def test_an_announced_capture_seen_only_through_snapshots_is_the_move():
    before = board_after("e4", "d5")
    after = before.copy()
    after.push_san("exd5")
    # without the announcement: the pawn may only be in the hand (occupancy of exd5 = pawn e4 lifted)
    plain = Tracker(before, settle=SETTLE)
    events = feed_and_settle(plain, [snapshot_of(before, 0.0), snapshot_of(after, 1.0)], 3.0)
    assert moves(events) == []
    assert plain.board.fen() == before.fen()
    # announced and mirrored: the snapshot alone completes it
    tracker = Tracker(before, settle=SETTLE)
    tracker.feed(snapshot_of(before, 0.0))
    tracker.announce(chess.Move.from_uci("e4d5"))
    events = feed_and_settle(tracker, [snapshot_of(after, 1.0)], 3.0)
    assert moves(events) == ["e4d5"]
    assert [e.san for e in events if e.type == "move"] == ["exd5"]
    assert not [e for e in events if e.type == "mismatch"]
    assert tracker.board.board_fen() == after.board_fen()


def test_mirroring_an_announced_promotion_reports_the_announced_piece():
    before = chess.Board("7k/4P3/8/8/8/8/8/4K3 w - - 0 1")
    expected = before.copy()
    expected.push(chess.Move.from_uci("e7e8n"))
    tracker = Tracker(before, settle=SETTLE)
    tracker.expect(expected)                       # the promotion to a knight was announced
    events = []
    for event in (Lift(1.0, chess.E7), Place(1.2, chess.E8)):
        events += tracker.feed(event)
    events += tracker.tick(2.0)
    made = [e for e in events if e.type == "move"]
    assert [m.move.uci() for m in made] == ["e7e8n"]
    assert made[0].promotion_pending is False and made[0].san == "e8=N"
    assert tracker.board.piece_at(chess.E8) == chess.Piece(chess.KNIGHT, chess.WHITE)
    assert tracker.awaiting_promotions == []


def test_taking_back_a_mirrored_move_keeps_the_announced_move_expected():
    start = chess.Board()
    expected = board_after("e4")
    tracker = Tracker(start, settle=SETTLE)
    tracker.expect(expected)
    t = 0.0
    events: list = []

    def hand(*steps: tuple[str, int]) -> None:
        nonlocal t, events
        for kind, square in steps:
            t += 0.1
            events += tracker.feed(Lift(t, square) if kind == "L" else Place(t, square))
        t += SETTLE + 0.3
        events += tracker.tick(t)

    hand(("L", chess.E2), ("P", chess.E4))
    assert moves(events) == ["e2e4"]
    hand(("L", chess.E4), ("P", chess.E2))            # the mirror taken back
    assert [e.type for e in events if e.type == "takeback"] == ["takeback"]
    assert tracker.pending == chess.Move.from_uci("e2e4")
    events.clear()
    hand(("L", chess.D2), ("P", chess.D4))             # another move instead of the announced one
    assert moves(events) == []
    mismatch = [e for e in events if e.type == "mismatch"]
    assert mismatch and mismatch[-1].expected == chess.Move.from_uci("e2e4")
    assert mismatch[-1].move == chess.Move.from_uci("d2d4")
    events.clear()
    hand(("L", chess.D4), ("P", chess.D2), ("L", chess.E2), ("P", chess.E4))
    assert moves(events) == ["e2e4"]
