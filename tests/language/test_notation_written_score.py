"""Notation behaviours a mutation run showed unpinned ("tests that would fail if it broke").

FIDE Laws Art. 8.1 and Appendix C: the scoresheet in algebraic notation; Appendix D.2.7:
the blind player's score. A draw offer is written "(=)" (Art. 9.1.2.3).
"""

from __future__ import annotations

import chess

from blindchess.base.i18n import tr
from blindchess.language import notation


def test_an_overlong_move_text_is_unreadable_and_no_draw_offer():
    reading = notation.read(chess.Board(), "e4" + " " * 100 + "x" * 200)
    assert reading.problem == "unreadable"
    assert reading.draw_offer is False


def test_a_move_with_the_draw_sign_is_the_move_and_a_draw_offer():
    reading = notation.read(chess.Board(), "e4 (=)")
    assert reading.move == chess.Move.from_uci("e2e4")
    assert reading.draw_offer is True


def test_a_text_that_is_no_fen_at_all_is_said_so():
    assert notation.fen_error_text(ValueError("something odd"), "en") == tr("notation.fen_not_fen", "en")
    assert notation.fen_error_text(ValueError("something odd"), "de") == tr("notation.fen_not_fen", "de")


def test_a_variant_header_chess960_or_fischerandom_starts_a_chess960_game():
    for variant, is_960 in (("Chess960", True), ("Fischerandom", True), ("Standard", False)):
        score = notation.read_score(f'[Variant "{variant}"]\n\n1. e4 e5 *')
        assert score.ok and score.plies == 2
        assert score.start.chess960 is is_960, variant


def test_a_score_of_exactly_the_maximum_length_is_not_truncated():
    text = "1. e4 e5 2. Sf3 Sc6"
    full = text + " " * (notation.MAX_SCORE_CHARS - len(text))
    score = notation.read_score(full)
    assert not score.truncated and score.plies == 4
    assert notation.read_score(full + " ").truncated


def test_a_game_streamed_line_by_line_keeps_one_line_beyond_the_limit():
    first = "x" * (notation.MAX_SCORE_CHARS - 1) + "\n"
    games = list(notation.iter_games([first, "1. e4\n", "e5\n"]))
    assert games == [first + "1. e4\n"]


def _after_e4_e5() -> chess.Board:
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    return board


def test_the_russian_king_kr_in_cyrillic_is_read_as_written_and_in_latin_letters_as_a_correction():
    # Appendix C: the Russian sheet writes the king "Кр"; "Kp" in Latin letters is the same king,
    # read after a correction (the arbiter is told it was not written as the standard letter)
    board = _after_e4_e5()
    for lang in ("ru", None):
        cyrillic = notation.read(board, "Крe2", lang=lang)
        assert cyrillic.move == chess.Move.from_uci("e1e2") and not cyrillic.corrected
        latin = notation.read(board, "Kpe2", lang=lang)
        assert latin.move == chess.Move.from_uci("e1e2") and latin.corrected


def test_a_king_move_in_latin_kp_to_a_square_one_off_suggests_the_king_move():
    # D.2.9 / Art. 8.1: "Kpe3" (the Russian king in Latin letters, one square off) most likely meant Kp e2
    reading = notation.read(_after_e4_e5(), "Kpe3", lang="ru")
    assert reading.problem == "illegal"
    assert chess.Move.from_uci("e1e2") in reading.suggestions


def test_an_impossible_pawn_capture_is_explained_as_no_pawn_reaching_the_square():
    # the explanation names what is wrong: no pawn can go to d5 (not "the pawn from e cannot")
    reading = notation.read(chess.Board(), "exd5")
    assert reading.problem == "illegal"
    for lang in ("en", "de"):
        assert tr("notation.reason_no_piece_to", lang, piece=tr("notation.piece_pawn", lang),
                  no_piece=tr("notation.no_pawn", lang), square="d5") in reading.message(lang)


def test_a_sheet_mixing_two_languages_letters_equally_is_taken_as_german():
    # Appendix C letters: "S" is German only, "N" English only; one of each is a tie, which goes to German
    # (the first language) — the sheet is still read with a language, not without one
    assert notation.guess_lang("1. e4 e5 2. Sf3 Nc6") == "de"
    assert notation.guess_lang("1. e4 e5 2. Nf3 Sc6") == "de"
    assert notation.guess_lang("1. e4 e5 2. Nf3 Nc6") == "en"
