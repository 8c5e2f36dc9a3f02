"""What a player looks up about the board and the game: captures, around a square, the opponent, the last
capture, the move list in words, the game half-move by half-move (blindchess.table.lookups), through the table."""

from __future__ import annotations

import chess
import pytest

from blindchess.table import lookups
from blindchess.table.commands import BlindSays, Finish, Request, SightedMove
from blindchess.table.events import Said
from blindchess.table.table import Table, TableSetup


@pytest.fixture
def game() -> chess.Board:
    board = chess.Board()
    for san in ("e4", "d5", "exd5", "Qxd5", "Nc3"):
        board.push_san(san)
    return board


def test_captures_only_the_captures_of_the_piece_to_move(game):
    board = game.copy()
    board.push_san("Qe5+")          # 3… De5+: White to move
    assert lookups.captures(board, chess.C3, "de") == "Springer Cäsar drei: kann nichts schlagen."
    board.push_san("Be2")
    assert lookups.captures(board, chess.E5, "de") == (
        "Dame Eva fünf kann schlagen: Cäsar drei, weißer Springer; Eva zwei, weißer Läufer; Hector zwei, weißer Bauer.")
    assert lookups.captures(board, chess.E4, "de") == "Eva vier: hier steht keine Figur."
    assert lookups.captures(board, chess.C3, "en") == "Knight Cesar three: Black is to move."


def test_around_a_square_from_the_listeners_side():
    board = chess.Board()
    assert lookups.around(board, chess.E1, "de") == (
        "Um Eva eins: David zwei, weißer Bauer; Eva zwei, weißer Bauer; Felix zwei, weißer Bauer; "
        "David eins, weiße Dame; Felix eins, weißer Läufer.")
    black = lookups.around(board, chess.E1, "de", white_view=False)
    assert black.startswith("Um Eva eins: Felix eins, weißer Läufer; David eins, weiße Dame; Felix zwei")
    assert lookups.around(board, chess.E4, "en") == "Around Eva four: every square empty."
    assert lookups.around(board, chess.E3, "de").endswith("Bauer. 5 Felder leer.")


def test_the_opponent_with_his_rating_when_known():
    assert lookups.opponent("Bernd", chess.BLACK, "de") == "Ihr Gegner: Bernd, Schwarz."
    assert lookups.opponent("Bernd", chess.BLACK, "de", {"BlackElo": "1850"}) == "Ihr Gegner: Bernd, Schwarz, Elo 1850."
    assert lookups.opponent("Anna", chess.WHITE, "en", {"WhiteElo": "?"}) == "Your opponent: Anna, White."


def test_the_last_capture_and_the_moves_in_words(game):
    assert lookups.last_capture(chess.Board(), "de") == "Es wurde noch nichts geschlagen."
    assert lookups.last_capture(game, "de") == (
        "Zuletzt geschlagen: weißer Bauer auf David fünf, mit Zug 2, Schwarz: Dame schlägt David fünf.")
    assert lookups.move_list(game, "de") == (
        "Die Züge: 1. Eva vier, David fünf. 2. Eva schlägt David fünf, Dame schlägt David fünf. "
        "3. Springer Cäsar drei.")
    assert lookups.move_list(game, "de", "san") == "Die Züge: 1. e4, d5. 2. exd5, Dxd5. 3. Sc3."   # never spelt out
    en_passant = chess.Board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
    en_passant.push_san("exd6")
    assert "schwarzer Bauer auf David fünf" in lookups.last_capture(en_passant, "de")


def test_the_game_half_move_by_half_move_with_what_changed_and_the_position_on_request(game):
    """One half-move at a time: the move and the squares it changed (never the whole position, which takes half a
    minute to hear); the whole position there is a request of its own."""
    assert lookups.step(game, 1, "de") == "Zug 1, Weiß: Eva vier. Eva zwei, leer; Eva vier, weißer Bauer."
    assert lookups.step(game, 0, "de").startswith("Ausgangsstellung; Halbzüge der Partie: 5.")
    assert lookups.step(game, 99, "de").startswith("Zug 3, Weiß: Springer Cäsar drei. Bella eins, leer; Cäsar drei,")
    black = chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    black.push_san("e5")
    assert lookups.step(black, 1, "de") == "Zug 1, Schwarz: Eva fünf. Eva sieben, leer; Eva fünf, schwarzer Bauer."
    whole = lookups.position_at(game, 1, "de")
    assert whole.startswith("Stellung nach Zug 1, Weiß: Weiß: König Eva eins") and whole.endswith("Schwarz am Zug.")
    assert lookups.position_at(game, 0, "de").startswith("Ausgangsstellung: Weiß: König Eva eins")
    castled = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    castled.push_san("O-O")
    assert lookups.step(castled, 1, "de") == ("Zug 1, Weiß: Kurze Rochade. Eva eins, leer; Gustav eins, weißer König; "
                                               "Hector eins, leer; Felix eins, weißer Turm.")


def test_the_move_list_one_move_number_at_a_time(game):
    assert lookups.move_pair(game, 1, "de") == "Zug 1 von 3: Eva vier, David fünf."
    assert lookups.move_pair(game, 3, "de").startswith("Zug 3 von 3: Springer Cäsar drei")
    assert lookups.move_pair(game, 99, "de") == lookups.move_pair(game, 3, "de")
    assert lookups.move_pair(chess.Board(), 1, "de") == "Es wurde noch kein Zug gemacht."
    # a game that begins with Black to move: its first pair has no White move, said as such
    black_first = chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    black_first.push_san("e5")
    black_first.push_san("Nf3")
    assert lookups.move_pair(black_first, 1, "de") == "Zug 1 von 2: … Eva fünf."
    assert lookups.move_pair(black_first, 2, "de") == "Zug 2 von 2: Springer Felix drei."


def test_the_table_answers_the_lookups_to_the_blind_player():
    table = Table.new(TableSetup(white="Anna", black="Bernd", blind="white", tactile="none", lang="de",
                                 headers={"BlackElo": "1850"}), 0.0)
    said: list[str] = []
    table.subscribe(lambda e: said.append(e.text) if isinstance(e, Said) and not e.cut else None)
    table.handle(BlindSays("e4", None), 1.0)
    table.handle(SightedMove("e2e4"), 2.0)
    table.handle(Request("opponent"), 10.0)
    table.handle(Request("around"), 20.0)                       # no square: which one?
    table.handle(Request("step", ply=1), 30.0)
    table.handle(Finish(), 100.0)
    assert "Ihr Gegner: Bernd, Schwarz, Elo 1850." in said
    assert "Welches Feld?" in said
    assert "Zug 1, Weiß: Eva vier. Eva zwei, leer; Eva vier, weißer Bauer." in said
