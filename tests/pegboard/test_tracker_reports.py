"""Tracker behaviours a mutation run showed unpinned ("tests that would fail if it broke").

Each test states what the arbiter or the session relies on when the tactile board
(FIDE Laws D.2.2, D.2.5: the blind player's own board; D.2.9: a board that differs)
or the sighted player's piece-sensing e-board reports its state.
"""

from __future__ import annotations

import chess

from blindchess.pegboard.tracker import Lift, Place, Snapshot, Tracker

SETTLE = 0.5


def pieces_of(board: chess.Board) -> dict[int, chess.Piece]:
    return dict(board.piece_map())


def test_snapshots_of_a_piece_sensing_board_differ_when_only_the_pieces_differ():
    start = chess.Board()
    swapped = pieces_of(start)
    swapped[chess.D1], swapped[chess.E1] = swapped[chess.E1], swapped[chess.D1]
    occ = int(start.occupied)
    assert Snapshot(0.0, occ, pieces_of(start)) != Snapshot(0.0, occ, swapped)
    assert Snapshot(0.0, occ, pieces_of(start)) == Snapshot(0.0, occ, pieces_of(start))


def test_a_lift_on_a_piece_sensing_board_before_any_dump_reports_the_piece_of_the_game():
    # D.2.5 / touch-move information: the e-board has not told the piece yet; the game's piece counts
    tracker = Tracker(chess.Board(), settle=SETTLE, senses_pieces=True)
    events = tracker.feed(Lift(1.0, chess.G1))
    touched = [e for e in events if e.type == "touched"]
    assert len(touched) == 1
    assert touched[0].square == chess.G1
    assert touched[0].piece == chess.Piece(chess.KNIGHT, chess.WHITE)
    assert touched[0].own is True


def test_pieces_swapped_on_the_same_squares_are_a_mismatch_on_a_piece_sensing_board():
    # D.2.9: the sighted player's board must show the game; king and queen swapped is a wrong position
    start = chess.Board()
    tracker = Tracker(start, settle=SETTLE, senses_pieces=True)
    tracker.feed(Snapshot(0.0, int(start.occupied), pieces_of(start)))
    tracker.tick(1.0)
    swapped = pieces_of(start)
    swapped[chess.D1], swapped[chess.E1] = swapped[chess.E1], swapped[chess.D1]
    events = tracker.feed(Snapshot(2.0, int(start.occupied), swapped))
    events += tracker.tick(2.0 + SETTLE)
    mismatches = [e for e in events if e.type == "mismatch"]
    assert len(mismatches) == 1
    assert set(mismatches[0].wrong_pieces) == {chess.D1, chess.E1}
    assert mismatches[0].time == 2.0


def test_the_same_wrong_position_seen_again_is_reported_once():
    # the arbiter is told of a wrong board once, not at every dump of the same board
    start = chess.Board()
    tracker = Tracker(start, settle=SETTLE)
    tracker.feed(Snapshot(0.0, int(start.occupied)))
    tracker.tick(1.0)
    wrong = int(start.occupied) | chess.BB_E4
    first = tracker.feed(Snapshot(2.0, wrong)) + tracker.tick(3.0)
    assert [e.type for e in first] == ["mismatch"]
    again = tracker.feed(Snapshot(4.0, wrong)) + tracker.tick(5.0)
    assert again == []
    assert tracker.tick(9.0) == []


def test_nothing_more_is_reported_once_a_move_has_been_judged():
    board = chess.Board()
    tracker = Tracker(board, settle=SETTLE)
    tracker.feed(Snapshot(0.0, int(board.occupied)))
    out = tracker.feed(Lift(1.0, chess.E2)) + tracker.feed(Place(1.1, chess.E4)) + tracker.tick(2.0)
    assert [e.move.uci() for e in out if e.type == "move"] == ["e2e4"]
    assert tracker.tick(3.0) == []
    assert tracker.tick(10.0) == []


def test_taking_back_the_move_after_an_open_promotion_keeps_the_promotion_open():
    # an occupancy board cannot tell the promotion piece; the reply is taken back, the game goes on
    board = chess.Board("8/P6k/8/8/8/8/8/K7 w - - 0 1")
    tracker = Tracker(board, settle=SETTLE)
    tracker.feed(Snapshot(0.0, int(board.occupied)))
    out = tracker.feed(Lift(1.0, chess.A7)) + tracker.feed(Place(1.1, chess.A8)) + tracker.tick(2.0)
    promo = [e for e in out if e.type == "move"]
    assert len(promo) == 1 and promo[0].promotion_pending
    out = tracker.feed(Lift(3.0, chess.H7)) + tracker.feed(Place(3.1, chess.H6)) + tracker.tick(4.0)
    assert [e.move.uci() for e in out if e.type == "move"] == ["h7h6"]
    out = tracker.feed(Lift(5.0, chess.H6)) + tracker.feed(Place(5.1, chess.H7)) + tracker.tick(6.0)
    takebacks = [e for e in out if e.type == "takeback"]
    assert [e.move.uci() for e in takebacks] == ["h7h6"]
    assert tracker.board.piece_at(chess.H7) == chess.Piece(chess.KING, chess.BLACK)


def test_a_move_taken_back_and_replaced_by_a_capture_in_one_go_keeps_which_piece_was_removed():
    # D.2.5: the blind player takes back a move he has not yet announced and captures instead, before the
    # board settles; the knight on c3 could take on b5 or d5 (the same pegs stand either way): the peg he
    # removed (d5) tells which — the take-back must not forget the lifts made with it
    board = chess.Board("4k3/8/8/1p1p4/8/2N5/P7/4K3 w - - 0 1")
    tracker = Tracker(board, settle=SETTLE)
    tracker.feed(Snapshot(0.0, int(board.occupied)))
    tracker.tick(1.0)
    out = tracker.feed(Lift(2.0, chess.A2)) + tracker.feed(Place(2.1, chess.A3)) + tracker.tick(3.0)
    assert [e.move.uci() for e in out if e.type == "move"] == ["a2a3"]
    out = tracker.feed(Lift(4.0, chess.A3)) + tracker.feed(Place(4.1, chess.A2))
    out += tracker.feed(Lift(4.2, chess.D5)) + tracker.feed(Lift(4.3, chess.C3)) + tracker.feed(Place(4.4, chess.D5))
    out += tracker.tick(5.0)
    assert [e.type for e in out if e.type in ("move", "takeback")] == ["takeback", "move"]
    move = [e for e in out if e.type == "move"][0]
    assert move.move == chess.Move.from_uci("c3d5")
    assert move.certain
    assert move.candidates == ()


def test_a_promotion_piece_announced_late_still_completes_after_a_later_move_was_taken_back_and_replaced():
    # D.2.1: the blind player announces the promotion piece after some more moves; a later move of his that
    # he took back and replaced in one go must not make the tracker forget the open promotion
    board = chess.Board("8/4P3/8/8/7k/8/P7/K7 w - - 0 1")
    tracker = Tracker(board, settle=SETTLE)
    tracker.feed(Snapshot(0.0, int(board.occupied)))
    tracker.tick(1.0)

    def play(t: float, frm: int, to: int) -> list:
        return tracker.feed(Lift(t, frm)) + tracker.feed(Place(t + 0.1, to)) + tracker.tick(t + 1.0)

    promo = [e for e in play(2.0, chess.E7, chess.E8) if e.type == "move"]
    assert promo[0].promotion_pending
    assert [e.move.uci() for e in play(4.0, chess.H4, chess.H3) if e.type == "move"] == ["h4h3"]
    assert [e.move.uci() for e in play(6.0, chess.A2, chess.A3) if e.type == "move"] == ["a2a3"]
    out = tracker.feed(Lift(8.0, chess.A3)) + tracker.feed(Place(8.1, chess.A2))
    out += tracker.feed(Lift(8.2, chess.A2)) + tracker.feed(Place(8.3, chess.A4)) + tracker.tick(9.0)
    assert [(e.type, e.move.uci()) for e in out if e.type in ("move", "takeback")] == \
        [("takeback", "a2a3"), ("move", "a2a4")]
    done = tracker.announce(chess.Move.from_uci("e7e8n"))
    assert [(e.type, e.move.uci(), e.replaces.uci()) for e in done] == [("move", "e7e8n", "e7e8")]
