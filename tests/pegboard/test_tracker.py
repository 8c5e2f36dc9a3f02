"""The occupancy tracker: touch (D.2.2), moves on the tactile board (D.2.3), divergence (D.2.9)."""

from __future__ import annotations

import chess
import pytest

from blindchess.pegboard.tracker import Lift, PieceUpdate, Place, Snapshot, Tracker

SETTLE = 0.5


class Hand:
    """Feeds a tracker with lifts and places at given gaps, collecting its events."""

    def __init__(self, tracker: Tracker) -> None:
        self.tracker = tracker
        self.t = 0.0
        self.events = []

    def do(self, script: str, gap: float = 0.1) -> list:
        """``script``: "L e2 P e4" ... ; "~" waits past the settle time."""
        new = []
        words = script.split()
        i = 0
        while i < len(words):
            word = words[i]
            if word == "~":
                self.t += SETTLE + 0.3
                new += self.tracker.tick(self.t)
                i += 1
                continue
            self.t += gap
            square = chess.parse_square(words[i + 1])
            event = Lift(self.t, square) if word == "L" else Place(self.t, square)
            new += self.tracker.feed(event)
            i += 2
        self.events += new
        return new

    def settle(self) -> list:
        return self.do("~")


def kinds(events):
    return [e.type for e in events]


def moves(events):
    return [e.move.uci() for e in events if e.type == "move"]


def board_after(*sans: str, fen: str | None = None, chess960: bool = False) -> chess.Board:
    board = chess.Board(fen, chess960=chess960) if fen else chess.Board(chess960=chess960)
    for san in sans:
        board.push_san(san)
    return board


def test_touch_of_own_and_opponent_piece_is_reported_once():
    board = board_after("e4", "d5")
    hand = Hand(Tracker(board))
    first = hand.do("L e4")
    assert [(e.type, chess.square_name(e.square), e.piece.symbol(), e.own) for e in first] == \
        [("touched", "e4", "P", True)]
    second = hand.do("L d5")
    assert [(chess.square_name(e.square), e.own) for e in second] == [("d5", False)]  # capture intent
    hand.do("P d5")
    assert hand.do("L d5") == []          # the same touch, not a new one
    events = hand.do("P d5 ~")
    assert moves(events) == ["e4d5"]


def test_a_move_needs_the_settle_time_and_slides_are_not_moves():
    hand = Hand(Tracker(board_after("e4", "e5")))
    # Bf1 slides over e2 and d3 to c4, each stop shorter than the settle time
    events = hand.do("L f1 P e2 L e2 P d3 L d3 P c4", gap=0.2)
    assert moves(events) == []
    events = hand.settle()
    assert moves(events) == ["f1c4"]
    assert hand.tracker.board.piece_at(chess.C4) == chess.Piece(chess.BISHOP, chess.WHITE)


def test_a_slide_with_a_long_stop_is_revised_not_doubled():
    hand = Hand(Tracker(board_after("e4", "e5")))
    hand.do("L f1 P e2")
    assert moves(hand.settle()) == ["f1e2"]          # the hand stopped: Be2 on the board
    events = hand.do("L e2 P c4 ~")
    assert kinds(events)[:2] == ["touched", "takeback"] or kinds(events)[0] == "takeback"
    assert moves(events) == ["f1c4"]
    assert hand.tracker.board.fen() == board_after("e4", "e5", "Bc4").fen()


@pytest.mark.parametrize("script", ["L f3 L e5 P e5", "L e5 L f3 P e5"])
def test_capture_in_either_lift_order(script):
    hand = Hand(Tracker(board_after("e4", "e5", "Nf3", "Nc6", "Nc3", "d6", "Nd5", "Bd7")))
    # the knight on f3 can take e5; lift order must not matter
    events = hand.do(script + " ~")
    assert moves(events) == ["f3e5"]
    assert events[[e.type for e in events].index("move")].san == "Nxe5"


def test_lift_history_tells_which_piece_was_captured():
    # Nd5 can take c7 or e7 (both leave the same occupancy)
    board = board_after("e4", "e5", "Nc3", "Ne7", "Nd5", "a6")
    for target in ("c7", "e7"):
        hand = Hand(Tracker(board))
        events = hand.do(f"L {target} L d5 P {target} ~")
        assert moves(events) == [f"d5{target}"]
        assert all(e.certain for e in events if e.type == "move")


def test_the_capturing_piece_in_the_hand_is_not_a_capture():
    hand = Hand(Tracker(board_after("e4", "d5")))
    events = hand.do("L e4 ~ ~ ~")   # held for a long time: pegs in the hand, no mismatch
    assert kinds(events) == ["touched"]
    events = hand.do("P e4 ~")
    assert moves(events) == []


@pytest.mark.parametrize("script", ["L e1 P g1 L h1 P f1", "L h1 L e1 P g1 P f1", "L e1 L h1 P f1 P g1"])
def test_castling_king_first_or_rook_first(script):
    board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    hand = Hand(Tracker(board))
    events = hand.do(script + " ~")
    assert moves(events) == ["e1g1"]
    assert [e.type for e in events].count("mismatch") == 0


def test_king_first_castling_paused_between_king_and_rook_is_no_mismatch():
    board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    hand = Hand(Tracker(board))
    events = hand.do("L e1 P c1 ~ ~ L a1 P d1 ~")
    assert "mismatch" not in kinds(events)
    assert moves(events) == ["e1c1"]


@pytest.mark.parametrize("fen, script, expected", [
    # king-only: king e1 jumps to c1, the rook already stands on d1
    ("2k5/8/8/8/8/8/8/3RK3 w D - 0 1", "L e1 P c1", "e1d1"),
    # rook-only: the king already stands on g1, rook h1 goes to f1 (king taken off as recommended)
    ("4k3/8/8/8/8/8/8/R5KR w HA - 0 1", "L g1 L h1 P f1 P g1", "g1h1"),
    # king-rook swap (occupancy unchanged: only the lift history shows it)
    ("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "L f1 L g1 P g1 P f1", "f1g1"),
    # castling and a plain rook move leave the same occupancy; the lifted king decides
    ("r2k4/8/8/8/8/8/8/R2K4 w A - 0 1", "L d1 L a1 P c1 P d1", "d1a1"),
])
def test_chess960_castling_kinds(fen, script, expected):
    board = chess.Board(fen, chess960=True)
    assert chess.Move.from_uci(expected) in board.legal_moves and board.is_castling(chess.Move.from_uci(expected))
    hand = Hand(Tracker(board))
    events = hand.do(script + " ~")
    assert moves(events) == [expected]


def test_chess960_rook_move_without_the_king_stays_a_rook_move():
    board = chess.Board("r2k4/8/8/8/8/8/8/R2K4 w A - 0 1", chess960=True)
    hand = Hand(Tracker(board))
    assert moves(hand.do("L a1 P c1 ~")) == ["a1c1"]


@pytest.mark.parametrize("script", ["L e5 P d6 L d5", "L d5 L e5 P d6", "L e5 L d5 P d6"])
def test_en_passant_in_any_order(script):
    board = board_after("e4", "a6", "e5", "d5")
    hand = Hand(Tracker(board))
    events = hand.do(script + " ~")
    assert moves(events) == ["e5d6"]


def test_promotion_waits_for_the_announced_piece():
    board = chess.Board("8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
    tracker = Tracker(board)
    hand = Hand(tracker)
    events = hand.do("L e7 P e8 ~")
    move = [e for e in events if e.type == "move"][0]
    assert move.promotion_pending and move.move.uci() == "e7e8" and move.to_dict()["promotion"] is None
    completed = tracker.announce(chess.Move.from_uci("e7e8n"))
    assert [(e.type, e.move.uci(), e.replaces.uci()) for e in completed] == [("move", "e7e8n", "e7e8")]
    assert tracker.board.piece_at(chess.E8) == chess.Piece(chess.KNIGHT, chess.WHITE)
    assert completed[0].to_dict()["promotion"] == "n"


def test_takeback_of_the_last_move():
    hand = Hand(Tracker(chess.Board()))
    hand.do("L g1 P f3 ~")
    events = hand.do("L f3 P g1 ~")
    assert [e.type for e in events if e.type != "touched"] == ["takeback"]
    assert events[-1].move.uci() == "g1f3"
    assert hand.tracker.board.fen() == chess.STARTING_FEN


def test_mismatch_names_exactly_the_differing_squares_after_the_settle_time():
    hand = Hand(Tracker(chess.Board()))
    early = hand.do("L a2 P a5")        # pawn two squares too far
    assert "mismatch" not in kinds(early)
    events = hand.settle()
    mismatch = [e for e in events if e.type == "mismatch"]
    assert [sorted(chess.square_name(s) for s in mismatch[0].squares)] == [["a2", "a5"]]
    assert hand.settle() == []          # reported once
    restored = hand.do("L a5 P a2 ~")
    assert "in-sync" in kinds(restored)
    assert hand.tracker.board.fen() == chess.STARTING_FEN   # nothing applied


def test_snapshots_resynchronise():
    board = chess.Board()
    tracker = Tracker(board)
    assert kinds(tracker.feed(Snapshot(0.0, int(board.occupied))) + tracker.tick(1.0)) == ["in-sync"]
    after = board_after("d4")
    # events lost; the snapshot shows d2-d4 done
    events = tracker.feed(Snapshot(2.0, int(after.occupied))) + tracker.tick(3.0)
    assert moves(events) == ["d2d4"]
    # a snapshot that contradicts the game
    wrong = int(after.occupied) ^ chess.BB_H1 ^ chess.BB_H3
    events = tracker.feed(Snapshot(4.0, wrong)) + tracker.tick(5.0)
    assert [(e.type, sorted(chess.square_name(s) for s in e.squares)) for e in events] == [("mismatch", ["h1", "h3"])]
    assert tracker.board.fen() == after.fen()
    events = tracker.feed(Snapshot(6.0, int(after.occupied))) + tracker.tick(7.0)
    assert kinds(events) == ["in-sync"]


def test_mirroring_the_announced_move():
    board = board_after("e4")
    tracker = Tracker(board)
    hand = Hand(tracker)
    expected = board_after("e4", "c5")
    assert tracker.expect(expected) == []
    assert hand.settle() == [] or "mismatch" not in kinds(hand.events)   # waiting for the hand
    events = hand.do("L c7 P c5 ~")
    assert moves(events) == ["c7c5"]
    assert tracker.board.fen() == expected.fen()


def test_mirroring_the_wrong_move_is_a_mismatch_and_is_not_applied():
    board = board_after("e4")
    tracker = Tracker(board)
    hand = Hand(tracker)
    tracker.expect(board_after("e4", "c5"))
    events = hand.do("L c7 P c6 ~")
    mismatch = [e for e in events if e.type == "mismatch"][0]
    assert mismatch.expected.uci() == "c7c5" and mismatch.move.uci() == "c7c6"
    assert sorted(chess.square_name(s) for s in mismatch.squares) == ["c5", "c6"]
    assert tracker.board.fen() == board.fen()
    events = hand.do("L c6 P c5 ~")
    assert moves(events) == ["c7c5"] and "in-sync" in kinds(events)


def test_an_announcement_contradicting_the_board_is_a_mismatch():
    tracker = Tracker(chess.Board())
    hand = Hand(tracker)
    hand.do("L g1 P f3 ~")
    tracker.announce(chess.Move.from_uci("g1h3"))     # announced Nh3, placed Nf3
    events = hand.settle()
    mismatch = [e for e in events if e.type == "mismatch"][0]
    assert sorted(chess.square_name(s) for s in mismatch.squares) == ["f3", "h3"]
    events = hand.do("L f3 P h3 ~")
    assert moves(events) == ["g1h3"]


def test_expecting_an_unrelated_position_resynchronises():
    tracker = Tracker(chess.Board())
    hand = Hand(tracker)
    target = board_after("e4", "e5", "Nf3")
    tracker.expect(target)
    events = hand.settle()
    assert sorted(chess.square_name(s) for s in events[0].squares) == ["e2", "e4", "e5", "e7", "f3", "g1"]
    hand.do("L e2 P e4 L e7 P e5 L g1 P f3", gap=0.05)
    assert "in-sync" in kinds(hand.settle())


def test_impossible_events_are_reported_and_change_nothing():
    tracker = Tracker(chess.Board())
    events = tracker.feed(Lift(1.0, chess.E4)) + tracker.feed(Place(1.1, chess.E2)) + tracker.tick(3.0)
    assert kinds(events) == ["inconsistent", "inconsistent"]
    assert tracker.board.fen() == chess.STARTING_FEN


def test_piece_sensing_board_reports_a_wrong_piece():
    board = chess.Board("8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
    tracker = Tracker(board, senses_pieces=True)
    events = tracker.feed(PieceUpdate(1.0, chess.E8, chess.Piece(chess.ROOK, chess.WHITE)))  # out of order
    events += tracker.feed(PieceUpdate(1.2, chess.E7, None)) + tracker.tick(2.0)
    assert moves(events) == ["e7e8r"]          # the board knows the piece: no waiting
    # mirroring: the black king should go to b2, the board shows a black queen there
    tracker.expect(board_after("Kb2", fen=tracker.board.fen()))
    events = tracker.feed(PieceUpdate(3.0, chess.A2, None)) + tracker.feed(
        PieceUpdate(3.1, chess.B2, chess.Piece(chess.QUEEN, chess.BLACK))) + tracker.tick(4.0)
    mismatch = [e for e in events if e.type == "mismatch"][0]
    assert [chess.square_name(s) for s in mismatch.wrong_pieces] == ["b2"]
    events = tracker.feed(PieceUpdate(5.0, chess.B2, chess.Piece(chess.KING, chess.BLACK))) + tracker.tick(6.0)
    assert moves(events) == ["a2b2"] and "in-sync" in kinds(events)


def test_event_dicts_are_json_ready():
    tracker = Tracker(chess.Board())
    hand = Hand(tracker)
    events = hand.do("L e2 P e4 ~")
    dicts = [e.to_dict() for e in events]
    assert dicts[0] == {"type": "touched", "time": pytest.approx(0.1), "square": "e2", "piece": "P", "own": True}
    assert dicts[1]["uci"] == "e2e4" and dicts[1]["san"] == "e4" and "promotion" not in dicts[1]


def test_a_promotion_announced_late_rebuilds_the_position():
    board = chess.Board("8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
    tracker = Tracker(board)
    hand = Hand(tracker)
    hand.do("L e7 P e8 ~")
    assert moves(hand.do("L a2 P b3 ~")) == ["a2b3"]          # the reply came before the announcement
    events = tracker.announce(chess.Move.from_uci("e7e8r"))
    assert [(e.move.uci(), e.replaces.uci()) for e in events] == [("e7e8r", "e7e8")]
    assert tracker.board.board_fen() == "4R3/8/8/8/8/1k6/8/4K3"


def test_a_reply_legal_only_after_an_underpromotion_is_no_mismatch():
    board = chess.Board("8/4P3/8/8/k7/8/8/4K3 w - - 0 1")
    tracker = Tracker(board)
    hand = Hand(tracker)
    hand.do("L e7 P e8 ~")
    # Ka4-b5 is illegal after e8=Q (the queen covers b5), legal after e8=N or e8=R
    events = hand.do("L a4 P b5 ~")
    assert moves(events) == ["a4b5"] and "mismatch" not in kinds(events)
    # the piece is still the announced one
    events = tracker.announce(chess.Move.from_uci("e7e8r"))
    assert [(e.move.uci(), e.replaces.uci()) for e in events] == [("e7e8r", "e7e8")]
    assert tracker.board.piece_at(chess.E8) == chess.Piece(chess.ROOK, chess.WHITE)


def test_touches_while_mirroring_name_the_expected_move():
    tracker = Tracker(board_after("e4"))
    hand = Hand(tracker)
    tracker.expect(board_after("e4", "e5"))
    touched = hand.do("L e7")[0]
    assert touched.own and touched.expected.uci() == "e7e5"


def test_an_extra_peg_is_a_mismatch_not_a_move_under_way():
    # a peg put into an empty hole with nothing lifted (a captured piece put back,
    # a stray peg) was taken for "a move under way" and never reported, however long it stayed
    hand = Hand(Tracker(chess.Board(), settle=SETTLE))
    hand.do("P e4")
    events = hand.settle()
    assert kinds(events) == ["mismatch"] and [chess.square_name(s) for s in events[0].squares] == ["e4"]
    hand.do("L e4")
    assert kinds(hand.settle()) == ["in-sync"]
    # a capture whose captured peg is put back on another square: the extra peg is reported too
    board = board_after("e4", "d5")
    hand = Hand(Tracker(board, settle=SETTLE))
    hand.do("L d5 L e4 P d5 P h3")
    events = hand.settle()
    assert kinds(events) == ["mismatch"] and {chess.square_name(s) for s in events[0].squares} == {"h3", "e4"}
