"""An illegal move in blitz without adequate supervision (FIDE Laws Appendix B, A.4.2): it stands as played; once the
opponent has moved, it is corrected only when both players agree — one player's agreement, however often given,
corrects nothing; with both, the position before it is set up again. Nothing is to be agreed in rapid, under
adequate supervision, with no illegal move standing, or once the game is over."""

from __future__ import annotations

import chess
import pytest

from blindchess.game import Player, Session
from blindchess.game.events import CorrectionAgreed, IllegalCorrected

M = chess.Move.from_uci


def blitz(**kw) -> Session:
    kw.setdefault("rules", "blitz")
    kw.setdefault("supervised", False)
    s = Session.new(Player("Anna"), Player("Bert"), "5+3", now=0.0, **kw)
    s.start_clock(0.0)
    return s


def illegal_then_reply(s: Session) -> None:
    s.board_move("sighted", M("e2e5"), 1.0)                 # a pawn three squares: illegal, stands as played
    s.press_clock(chess.WHITE, 2.0)
    s.board_move("sighted", M("e7e6"), 3.0)
    s.press_clock(chess.BLACK, 4.0)


def test_both_players_agreeing_correct_the_illegal_move_and_one_alone_does_not():
    s = blitz()
    illegal_then_reply(s)
    assert s.snapshot.illegal_plies == {0} and s.snapshot.plies == 2
    for t in (5.0, 5.5):
        assert [type(e) for e in s.correct_illegal(chess.WHITE, t)] == [CorrectionAgreed]
        assert s.snapshot.correction_agreed == chess.WHITE and s.snapshot.plies == 2
    both = s.correct_illegal(chess.BLACK, 6.0)
    corrected = [e for e in both if isinstance(e, IllegalCorrected)]
    assert [(e.color, e.ply, e.by, e.article) for e in corrected] == [("white", 1, "agreement", "Appendix B")]
    assert s.snapshot.plies == 0 and s.snapshot.illegal_plies == frozenset() and s.snapshot.correction_agreed is None
    assert s.snapshot.to_move == chess.WHITE
    with pytest.raises(ValueError):
        s.correct_illegal(chess.BLACK, 7.0)                 # none stands any more


def test_no_agreement_to_correct_in_rapid_or_under_adequate_supervision():
    rapid = blitz(rules="rapid")
    illegal_then_reply(rapid)
    assert rapid.snapshot.illegal_plies == {0}              # it stands there too (A.4.2), but is corrected on a claim
    with pytest.raises(ValueError):
        rapid.correct_illegal(chess.WHITE, 5.0)
    supervised = blitz(supervised=True)
    supervised.board_move("sighted", M("e2e5"), 1.0)       # the arbiter acts: it does not stand
    assert supervised.snapshot.plies == 0
    with pytest.raises(ValueError):
        supervised.correct_illegal(chess.WHITE, 2.0)


def test_no_agreement_to_correct_once_the_game_is_over():
    s = blitz()
    illegal_then_reply(s)
    s.resign(chess.BLACK, 5.0)
    with pytest.raises(ValueError):
        s.correct_illegal(chess.WHITE, 6.0)
    assert s.snapshot.plies == 2


def test_only_a_piece_moved_away_stands_as_an_illegal_move():
    # A.4.2 concerns a move made: a piece put back on its own square, or a "move" from an empty square, is none
    s = blitz()
    for move in (chess.Move(chess.E2, chess.E2), M("e3e4")):
        refused = s.board_move("sighted", move, 1.0)
        assert [(type(e).__name__, getattr(e, "reason", None)) for e in refused] == [("BoardMoveRejected", "illegal")]
    assert s.snapshot.plies == 0 and s.snapshot.illegal_plies == frozenset()
