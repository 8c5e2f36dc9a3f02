"""The squares around a square read from Black's side of the board (the listener plays Black): his nearest row
first — the lower rank —, each row from his left (the higher file), the eight neighbours and no more."""

from __future__ import annotations

import chess

from blindchess.table import lookups


def test_around_a_square_from_black_s_side_reads_the_eight_neighbours_row_by_row() -> None:
    board = chess.Board()
    board.push_san("e4")
    assert lookups.around(board, chess.E3, "de", white_view=False) == (
        "Um Eva drei: Felix zwei, weißer Bauer; David zwei, weißer Bauer; Eva vier, weißer Bauer. 5 Felder leer.")
    assert lookups.around(board, chess.E3, "de") == (
        "Um Eva drei: Eva vier, weißer Bauer; David zwei, weißer Bauer; Felix zwei, weißer Bauer. 5 Felder leer.")
