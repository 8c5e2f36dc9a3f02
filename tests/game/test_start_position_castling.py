"""A game begun from a position (FEN): castling is written and played as in standard chess when the rooks
stand in their corners, and as in Chess960 (the king "takes" his rook) when a castling rook stands elsewhere
(FIDE Laws Art. 3.8.2; Guidelines III of the Laws for Chess960)."""

from __future__ import annotations

import chess

from blindchess.game.core import start_board


def test_a_position_with_rooks_in_their_corners_castles_as_standard_chess():
    board = start_board(None, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    assert not board.chess960
    board.push_uci("e1g1")                       # the king's two squares: short castling
    assert board.piece_at(chess.F1) == chess.Piece(chess.ROOK, chess.WHITE)
    assert board.san(board.parse_uci("e8c8")) == "O-O-O"


def test_a_position_whose_castling_rook_stands_elsewhere_castles_as_chess960():
    # king on b1 and rook on a1 (a Chess960 set-up): castling long is the king onto his rook
    board = start_board(None, "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAga - 0 1")
    assert board.chess960
    move = board.parse_uci("b1a1")
    assert board.is_castling(move) and board.san(move) == "O-O-O"
    board.push(move)
    assert board.piece_at(chess.C1) == chess.Piece(chess.KING, chess.WHITE)
    assert board.piece_at(chess.D1) == chess.Piece(chess.ROOK, chess.WHITE)
