"""The squares around a square read from Black's side of the board (the listener plays Black): his nearest row
first — the lower rank —, each row from his left (the higher file), the eight neighbours and no more; at the
board's edge only the squares on the board. The opponent's rating is said when it is a positive number."""

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


def test_around_a_square_at_the_board_s_edge_reads_only_the_squares_on_the_board() -> None:
    board = chess.Board()
    assert lookups.around(board, chess.B8, "de") == (
        "Um Bella acht: Anna acht, schwarzer Turm; Cäsar acht, schwarzer Läufer; Anna sieben, schwarzer Bauer; "
        "Bella sieben, schwarzer Bauer; Cäsar sieben, schwarzer Bauer.")
    assert lookups.around(board, chess.H1, "de") == (
        "Um Hector eins: Gustav zwei, weißer Bauer; Hector zwei, weißer Bauer; Gustav eins, weißer Springer.")
    assert lookups.around(board, chess.E8, "de").startswith("Um Eva acht: David acht, schwarze Dame;")


def test_the_opponent_s_rating_is_said_when_it_is_a_positive_number() -> None:
    assert lookups.opponent("Bernd", chess.BLACK, "de", {"BlackElo": "0"}) == "Ihr Gegner: Bernd, Schwarz."
    assert lookups.opponent("Bernd", chess.BLACK, "de", {"BlackElo": "1"}) == "Ihr Gegner: Bernd, Schwarz, Elo 1."


def test_the_move_list_before_any_move_says_so() -> None:
    assert lookups.move_list(chess.Board(), "de") == "Es wurde noch kein Zug gemacht."
