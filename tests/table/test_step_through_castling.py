"""Stepping through the game (the "step" request) after a castling: the king's and the rook's squares as they
stand after it, both castlings."""

from __future__ import annotations

import chess

from blindchess.table import lookups


def _board(*moves: str) -> chess.Board:
    board = chess.Board()
    for uci in moves:
        board.push_uci(uci)
    return board


def test_a_step_over_a_castling_tells_the_king_s_and_the_rook_s_squares():
    long = _board("d2d4", "d7d5", "c1f4", "c8f5", "b1c3", "b8c6", "d1d2", "d8d7", "e1c1")
    assert lookups.step(long, 9, "de") == ("Zug 5, Weiß: Lange Rochade. Eva eins, leer; Cäsar eins, weißer König; "
                                           "Anna eins, leer; David eins, weißer Turm.")
    short = _board("e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5", "e1g1")
    assert lookups.step(short, 7, "de") == ("Zug 4, Weiß: Kurze Rochade. Eva eins, leer; Gustav eins, weißer König; "
                                            "Hector eins, leer; Felix eins, weißer Turm.")
