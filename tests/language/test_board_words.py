"""The board commands' texts (blindchess.language.board_words) and the table answering them by key and by voice."""

from __future__ import annotations

import chess
import pytest

from blindchess.language import board_words
from blindchess.table.commands import BlindSays, Request, SightedMove, Tick
from blindchess.table.events import Speak
from tests.support.table import Run


def _game(*ucis: str) -> chess.Board:
    board = chess.Board()
    for uci in ucis:
        board.push_uci(uci)
    return board


def test_squares_and_moves_in_every_wording():
    board = _game("e2e4", "d7d5")
    move = chess.Move.from_uci("g1f3")
    assert [board_words.square_words(chess.E4, "de", w) for w in board_words.WORDINGS] == \
        ["Eva vier", "Echo vier", "e4"]
    assert [board_words.move_words(board, move, "de", w) for w in board_words.WORDINGS] == \
        ["Springer Felix drei", "Springer Foxtrot drei", "Sf3"]
    assert board_words.move_words(board, move, "en", "san") == "Nf3"
    assert board_words.describe_square(board, chess.D5, "en", "nato") == "Delta five, black pawn"
    with pytest.raises(ValueError):
        board_words.square_words(chess.E4, "de", "anna")


def test_last_move_says_side_and_number():
    assert board_words.last_move(_game(), "de") == "Es wurde noch kein Zug gemacht."
    assert board_words.last_move(_game("e2e4"), "de") == "Zug 1, Weiß: Eva vier"
    assert board_words.last_move(_game("e2e4", "d7d5", "e4d5"), "en") == "Move 2, White: Eva takes David five"
    assert board_words.last_move(_game("e2e4", "d7d5", "e4d5", "d8d5"), "de", "san") == "Zug 2, Schwarz: Dxd5"


def test_legal_moves_from_a_square():
    board = _game("e2e4", "e7e5")
    assert board_words.legal_moves(board, chess.G1, "de") == "Springer Gustav eins: Eva zwei, Felix drei, Hector drei."
    assert board_words.legal_moves(board, chess.E4, "de") == "Bauer Eva vier: kein Zug möglich."
    assert board_words.legal_moves(board, chess.G8, "de") == "Springer Gustav acht: Weiß ist am Zug."
    assert board_words.legal_moves(board, chess.D4, "de") == "David vier: hier steht keine Figur."
    mate = _game("f2f3", "e7e5", "g2g4")
    assert "Hector vier matt" in board_words.legal_moves(mate, chess.D8, "de")
    promotion = chess.Board("8/P6k/8/8/8/8/8/K7 w - - 0 1")
    assert board_words.legal_moves(promotion, chess.A7, "en").count("Anna eight promotes to") == 4


def test_scans_of_a_rank_and_a_file_from_either_side():
    board = _game("e2e4", "e7e5")
    assert board_words.scan_rank(board, 3, "de") == "Reihe vier: Eva vier, weißer Bauer. 7 Felder leer."
    assert board_words.scan_file(board, 4, "de") == (
        "Linie Eva: Eva eins, weißer König; Eva vier, weißer Bauer; Eva fünf, schwarzer Bauer; "
        "Eva acht, schwarzer König. 4 Felder leer.")
    assert board_words.scan_file(board, 4, "de", white_view=False).startswith("Linie Eva: Eva acht, schwarzer König")
    assert board_words.scan_rank(chess.Board(None), 0, "en") == "Rank one: every square empty."
    lone = chess.Board("8/8/8/8/8/8/8/K6k w - - 0 1")
    assert board_words.scan_rank(lone, 0, "de", "san") == "Reihe 1: a1, weißer König; h1, schwarzer König. 6 Felder leer."


def test_captured_pieces_replayed_from_the_moves():
    board = _game("e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a2", "a1a2")
    lost = board_words.captured_pieces(board)
    assert lost == {chess.WHITE: [chess.PAWN, chess.PAWN], chess.BLACK: [chess.QUEEN, chess.PAWN]}
    assert board_words.captured(board, "de") == "Geschlagene Figuren. Weiß: 2 Bauern. Schwarz: Dame, Bauer."
    assert board_words.captured(_game(), "en") == "Captured pieces. White: none. Black: none."
    en_passant = _game("e2e4", "a7a6", "e4e5", "d7d5", "e5d6")
    assert board_words.captured_pieces(en_passant)[chess.BLACK] == [chess.PAWN]


def test_next_piece_and_piece_letters():
    board = chess.Board()
    order = list(chess.SQUARES)
    assert board_words.next_piece(board, chess.A1, chess.KNIGHT, order) == chess.B1
    assert board_words.next_piece(board, chess.G1, chess.KNIGHT, order) == chess.B8
    assert board_words.next_piece(board, chess.G8, chess.KNIGHT, order) == chess.B1   # wraps
    assert board_words.next_piece(chess.Board(None), chess.A1, chess.QUEEN, order) is None
    assert board_words.piece_type_for_letter("S", "de") == chess.KNIGHT
    assert board_words.piece_type_for_letter("B", "de") == chess.PAWN
    assert board_words.piece_type_for_letter("B", "en") == chess.BISHOP
    assert board_words.piece_type_for_letter("P", "en") == chess.PAWN
    assert board_words.piece_type_for_letter("X", "de") is None


def test_answer_refuses_an_unknown_request():
    with pytest.raises(ValueError):
        board_words.answer("weather", chess.Board(), "de")
    assert board_words.answer("rank", chess.Board(), "de") == "Welches Feld?"


def _answers(run: Run, t: float) -> list[str]:
    run.table.handle(Tick(), t)
    return [e.text for e in run.of(Speak) if e.priority == "answer"]


def test_the_table_answers_the_board_commands_to_the_blind_player():
    """By key the window calls table.request(kind, square=cursor); the answers are said to the blind player."""
    run = Run(white="Anna", black="Bernd", blind="black", tactile="none")
    run.table.handle(SightedMove("e2e4"), 1.0)
    run.table.handle(Tick(), 10.0)
    for t, (kind, square) in enumerate((("last_move", None), ("rank", chess.E4), ("file", chess.E1),
                                        ("legal_moves", chess.G8), ("captured", None)), start=20):
        run.table.handle(Request(kind, "blind", square=square), float(t * 10))
        run.table.handle(Tick(), float(t * 10 + 9))
    answers = _answers(run, 300.0)
    assert answers[-5:] == [
        "Zug 1, Weiß: Eva vier",
        "Reihe vier: Eva vier, weißer Bauer. 7 Felder leer.",
        # the blind player is Black: his file is read from his side, rank 8 first
        "Linie Eva: Eva acht, schwarzer König; Eva sieben, schwarzer Bauer; Eva vier, weißer Bauer; "
        "Eva eins, weißer König. 4 Felder leer.",
        "Springer Gustav acht: Felix sechs, Hector sechs.",
        "Geschlagene Figuren. Weiß: keine. Schwarz: keine.",
    ]


@pytest.mark.parametrize("lang, phrase, answer", [
    ("de", "Reihe vier", "Reihe vier: Eva vier, weißer Bauer. 7 Felder leer."),
    ("de", "Züge von Gustav acht", "Springer Gustav acht: Felix sechs, Hector sechs."),
    ("de", "geschlagene Figuren", "Geschlagene Figuren. Weiß: keine. Schwarz: keine."),
    ("de", "letzter Zug", "Zug 1, Weiß: Eva vier"),
    ("en", "file Eva", "File Eva: Eva eight, black king; Eva seven, black pawn; Eva four, white pawn; "
                       "Eva one, white king. 4 squares empty."),
])
def test_the_board_commands_by_voice(lang, phrase, answer):
    """The blind player asks aloud; the table hears the request and answers it (the same answer as by key)."""
    run = Run(white="Anna", black="Bernd", blind="black", tactile="none", lang=lang)
    run.table.handle(SightedMove("e2e4"), 1.0)
    run.table.handle(Tick(), 10.0)
    run.table.handle(BlindSays(phrase, 1.0), 20.0)
    assert _answers(run, 60.0)[-1] == answer


def test_the_recogniser_expects_the_board_commands():
    from blindchess.language import phonetic

    phrases = set(phonetic.grammar(chess.Board(), "de"))
    assert {"reihe vier", "linie eva", "züge von gustav eins", "geschlagene figuren"} <= phrases
    assert "reihe" not in phrases   # a bare scan needs its rank
