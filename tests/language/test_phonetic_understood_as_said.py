"""Phonetic behaviours a mutation run showed unpinned ("tests that would fail if it broke").

FIDE Laws D.2.1: moves are announced clearly; what is announced must be understood
as said, and what cannot be a legal move is said so, with the possible moves.
"""

from __future__ import annotations

import chess

from blindchess.language.phonetic import describe_pieces, understand


def board_after(*sans: str) -> chess.Board:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board


def test_every_piece_on_the_board_is_described_and_no_kind_that_is_gone():
    board = chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    assert describe_pieces(board, None, None, "de") == \
        "Weißer König: Eva eins; Weißer Bauer: Eva zwei; Schwarzer König: Eva acht."
    assert describe_pieces(board, None, None, "en") == \
        "White king: Eva one; White pawn: Eva two; Black king: Eva eight."


def test_a_kind_asked_for_that_is_gone_is_said_to_be_none():
    board = chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    assert describe_pieces(board, chess.KNIGHT, chess.WHITE, "de") == "Weiße Springer: keine."


def test_a_pawn_capture_named_by_the_target_file_only_is_that_capture():
    # "e schlägt d" (exd): the file alone names the target file, never a rank
    board = board_after("e4", "d5")
    u = understand(board, "e schlägt d", "de")
    assert u.kind == "move"
    assert u.move == chess.Move.from_uci("e4d5")
    assert u.certain


def test_a_typed_move_that_is_not_legal_is_said_so_with_the_possible_moves():
    # D.2.1: never guess; "Lb6" after 1. e4 d5 is no legal move, the bishop can go to b5 or a6
    board = board_after("e4", "d5")
    u = understand(board, "Lb6", "de")
    assert u.move is None
    assert not u.certain
    assert u.message.startswith("„Lb6“ ist kein regelgemäßer Zug.")
    assert "Möglich:" in u.message
    assert set(u.candidates) == {chess.Move.from_uci("f1b5"), chess.Move.from_uci("f1a6")}
