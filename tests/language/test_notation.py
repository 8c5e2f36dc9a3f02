"""Algebraic notation in six languages (FIDE Laws Appendix C).

Reads as a specification of :mod:`blindchess.language.notation`: how moves are written in
each language and style, and how an arbiter reads what a player wrote.
"""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blindchess.base.i18n import NOTATION_LANGS
from blindchess.language import notation as N

START = chess.Board()

# Positions used below (all legal, White or Black to move as stated).
CASTLE_BOTH = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
EN_PASSANT = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"
EN_PASSANT_BLACK = "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 2"
PROMOTION = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1"
PROMOTION_BLACK = "4k3/8/8/8/8/8/7p/4K1N1 b - - 0 1"
TWO_KNIGHTS = "4k3/8/8/8/8/5N2/8/1N2K1N1 w - - 0 1"      # Nb1, Nf3 -> d2; Ng1, Nf3 -> h4? no: Ng1 -> h3
TWO_ROOKS_FILE = "4k3/8/8/8/R7/8/8/R3K3 w - - 0 1"          # Ra1, Ra4 -> a3: rank decides
KNIGHTS_BOTH = "4k3/8/8/8/8/2N3N1/8/2N1K3 w - - 0 1"        # Nc1, Nc3, Ng3 -> e2: file+rank needed
KNIGHT_F6 = "4k3/8/5n2/8/8/8/8/4K3 b - - 0 1"               # Sf4 illegal, Se4 meant
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1"            # Ra8#


def board(fen: str = chess.STARTING_FEN, chess960: bool = False) -> chess.Board:
    return chess.Board(fen, chess960=chess960)


def uci(fen: str, move: str) -> chess.Move:
    return chess.Move.from_uci(move)


# --------------------------------------------------------------------------- writing

LETTER_TABLE = {   # FIDE Laws Appendix C, in the order K Q R B N
    "de": ("K", "D", "T", "L", "S"),
    "en": ("K", "Q", "R", "B", "N"),
    "fr": ("R", "D", "T", "F", "C"),
    "it": ("R", "D", "T", "A", "C"),
    "nl": ("K", "D", "T", "L", "P"),
    "ru": ("Кр", "Ф", "Л", "С", "К"),
}
# One position where a king, queen, rook, bishop and knight of White can each move.
ALL_PIECES = "4k3/8/8/8/8/8/8/RNBQK3 w Q - 0 1"
PIECE_MOVES = {"K": "e1f2", "Q": "d1d4", "R": "a1a5", "B": "c1g5", "N": "b1c3"}


@pytest.mark.parametrize("lang", NOTATION_LANGS)
def test_every_piece_letter_is_written_and_read_in_every_language(lang):
    b = board(ALL_PIECES)
    for en_letter, letter in zip("KQRBN", LETTER_TABLE[lang]):
        move = chess.Move.from_uci(PIECE_MOVES[en_letter])
        written = N.write(b, move, lang)
        assert written.startswith(letter) and written[len(letter)].islower()
        assert N.parse(b, written, lang) == move
        assert N.parse(b, written) == move or N.read(b, written).problem == "ambiguous"


def test_piece_letters_table_matches_rules():
    assert tuple(NOTATION_LANGS) == tuple(N.LETTERS)
    for lang, letters in LETTER_TABLE.items():
        pieces = (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
        assert tuple(N.piece_letter(pt, lang) for pt in pieces) == letters
    assert N.piece_letter(chess.PAWN, "de") == ""


@pytest.mark.parametrize("fen,move,lang,style,expected", [
    (chess.STARTING_FEN, "e2e4", "de", "fide", "e4"),
    (chess.STARTING_FEN, "g1f3", "de", "fide", "Sf3"),
    (chess.STARTING_FEN, "g1f3", "ru", "fide", "Кf3"),
    (chess.STARTING_FEN, "g1f3", "nl", "pgn", "Pf3"),
    (CASTLE_BOTH, "e1g1", "de", "fide", "0-0"),
    (CASTLE_BOTH, "e1c1", "de", "fide", "0-0-0"),
    (CASTLE_BOTH, "e1g1", "fr", "pgn", "O-O"),
    (CASTLE_BOTH, "e1c1", "en", "pgn", "O-O-O"),
    (EN_PASSANT, "e5d6", "de", "fide", "exd6 e.p."),
    (EN_PASSANT, "e5d6", "en", "pgn", "exd6"),
    (EN_PASSANT_BLACK, "e4d3", "it", "fide", "exd3 e.p."),
    (PROMOTION, "a7a8q", "de", "fide", "a8D"),
    (PROMOTION, "a7b8n", "de", "fide", "axb8S"),
    (PROMOTION, "a7a8r", "de", "pgn", "a8=T"),
    (PROMOTION, "a7a8b", "fr", "fide", "a8F"),
    (PROMOTION, "a7a8q", "ru", "fide", "a8Ф"),
    (PROMOTION, "a7a8q", "en", "pgn", "a8=Q"),
    (PROMOTION_BLACK, "h2g1n", "de", "fide", "hxg1S"),
    (PROMOTION_BLACK, "h2h1r", "it", "fide", "h1T"),
    (MATE_IN_ONE, "a1a8", "de", "fide", "Ta8#"),
    (MATE_IN_ONE, "a1a8", "ru", "pgn", "Лa8#"),
    (TWO_KNIGHTS, "b1d2", "de", "fide", "Sbd2"),
    (TWO_ROOKS_FILE, "a4a3", "de", "fide", "T4a3"),
    (KNIGHTS_BOTH, "c3e2", "de", "fide", "Sc3e2"),
    (KNIGHTS_BOTH, "c1e2", "it", "fide", "C1e2"),
])
def test_write(fen, move, lang, style, expected):
    assert N.write(board(fen), chess.Move.from_uci(move), lang, style=style) == expected


def test_write_pgn_english_is_python_chess_san():
    rng = random.Random(7)
    b = chess.Board()
    for _ in range(120):
        moves = list(b.legal_moves)
        if not moves:
            break
        for m in moves:
            assert N.write(b, m, "en", style="pgn") == b.san(m)
        b.push(rng.choice(moves))


def test_write_refuses_illegal_moves_and_unknown_languages():
    with pytest.raises(ValueError):
        N.write(START, chess.Move.from_uci("e2e5"))
    with pytest.raises(ValueError):
        N.write(START, chess.Move.from_uci("e2e4"), "xx")
    with pytest.raises(ValueError):
        N.write(START, chess.Move.from_uci("e2e4"), "de", style="bad")


def test_write_score():
    moves = [chess.Move.from_uci(u) for u in ("e2e4", "e7e5", "g1f3", "b8c6")]
    assert N.write_score(START, moves) == "1. e4 e5 2. Sf3 Sc6"
    assert N.write_score(START, moves, "en") == "1. e4 e5 2. Nf3 Nc6"
    black = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    assert N.write_score(black, moves[1:], "fr") == "1... e5 2. Cf3 Cc6"


# --------------------------------------------------------------------------- reading: letters


@pytest.mark.parametrize("text,lang,expected", [
    ("Sf3", "de", "g1f3"), ("Nf3", "en", "g1f3"), ("Cf3", "fr", "g1f3"), ("Cf3", "it", "g1f3"),
    ("Pf3", "nl", "g1f3"), ("Кf3", "ru", "g1f3"),
    # another language's letters on a German sheet, where they mean one thing only
    ("Nf3", "de", "g1f3"), ("Cf3", "de", "g1f3"), ("Pf3", "de", "g1f3"), ("Кf3", "de", "g1f3"),
    # no language given: every letter set
    ("Sf3", None, "g1f3"), ("Nf3", None, "g1f3"), ("Кf3", None, "g1f3"),
])
def test_read_knight_in_every_letter_set(text, lang, expected):
    r = N.read(START, text, lang)
    assert r.ok and r.move == chess.Move.from_uci(expected)


# A rook on a1 and a king on e1 both able to reach d1: R is a rook in English, a king
# in French and Italian; the sheet's language decides.
R_CLASH = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"


@pytest.mark.parametrize("lang,expected", [("en", "a1d1"), ("fr", "e1d1"), ("it", "e1d1")])
def test_clashing_letter_r_follows_the_sheets_language(lang, expected):
    assert N.parse(board(R_CLASH), "Rd1", lang) == chess.Move.from_uci(expected)


def test_clashing_letter_without_language_is_ambiguous_and_lists_both():
    r = N.read(board(R_CLASH), "Rd1")
    assert r.problem == "ambiguous"
    assert set(r.candidates) == {chess.Move.from_uci("a1d1"), chess.Move.from_uci("e1d1")}


def test_clashing_letter_on_a_third_language_sheet_is_ambiguous():
    assert N.read(board(R_CLASH), "Rd1", "de").problem == "ambiguous"


def test_clashing_letter_of_the_sheets_language_is_not_reinterpreted():
    b = board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    # On an English sheet "Rf2" is a rook move, well-formed but illegal (a1-f2 is no
    # rook move). Reading R as the French king would be a guess, not a certain
    # meaning: illegal, with the king's move as the first suggestion.
    r = N.read(b, "Rf2", "en")
    assert r.problem == "illegal" and r.move is None
    assert r.suggestions[0] == chess.Move.from_uci("e1f2")
    assert "rook" in r.message("en") and "Kf2" in r.message("en")
    # without a sheet language R is rook and king alike: the king's move is the one that fits
    assert N.parse(b, "Rf2") == chess.Move.from_uci("e1f2")


# Bishop g1, pawn b3, black pawn c4: no bishop reaches c4, the pawn b3 can capture there.
BISHOP_CASE_SLIP = "4k3/8/8/8/2p5/1P6/8/4K1B1 w - - 0 1"


@pytest.mark.parametrize("text,lang", [("Bc4", "en"), ("Bc4", None), ("Bxc4", "en"), ("B:c4", "en"),
                                       ("Bc4+", "en")])
def test_a_piece_letter_of_the_sheets_language_is_never_case_corrected_to_a_file(text, lang):
    # capital B is the bishop in English: "Bc4" is a bishop move that is illegal, not b3xc4
    r = N.read(board(BISHOP_CASE_SLIP), text, lang)
    assert r.problem == "illegal" and r.move is None and not r.ok
    assert r.suggestions[0] == chess.Move.from_uci("b3c4")
    assert "bxc4" in r.message("en")


def test_a_letter_that_is_no_piece_of_the_sheets_language_may_be_a_case_slip():
    b = board(BISHOP_CASE_SLIP)
    # B is no German piece letter: English bishop or file b, only the pawn fits
    r = N.read(b, "Bc4", "de")
    assert r.move == chess.Move.from_uci("b3c4") and r.corrected
    assert N.parse(b, "bc4", "en") == chess.Move.from_uci("b3c4")       # lower-case b is the file
    assert N.read(START, "E4", "en").move == chess.Move.from_uci("e2e4")     # E is no piece letter


def test_transliterated_letter_does_not_replace_the_letter_as_written():
    # "Lh5" without a language: L is the bishop (de, nl); Л (rook) transliterated is a guess
    b = board("4k3/8/8/8/8/8/8/4K2R w - - 0 1")
    r = N.read(b, "Lh5")
    assert r.problem == "illegal" and r.suggestions[0] == chess.Move.from_uci("h1h5")
    assert N.parse(b, "Lh5", "ru") == chess.Move.from_uci("h1h5")        # on a Russian sheet: certain


@pytest.mark.parametrize("text,lang,expected", [
    # L: bishop (de/nl), Л rook (ru)
    ("Lc4", "de", "f1c4"), ("Lc4", "nl", "f1c4"), ("Лh5", "ru", "h1h5"),
    # C: knight (fr/it); Cyrillic С bishop (ru)
    ("Cc3", "fr", "b1c3"), ("Сc4", "ru", "f1c4"),
    # К knight vs Кр king (ru)
    ("Кc3", "ru", "b1c3"), ("Крe2", "ru", "e1e2"), ("Крd2", "ru", "e1d2"),
    # T rook, D queen (de/fr/it/nl), F bishop (fr), A bishop (it), Ф queen (ru)
    ("Th5", "fr", "h1h5"), ("Th5", "de", "h1h5"), ("Rh5", "en", "h1h5"), ("Re2", "fr", "e1e2"),
    ("Dd3", "it", "d1d3"), ("Fc4", "fr", "f1c4"), ("Ac4", "it", "f1c4"),
    ("Фd3", "ru", "d1d3"), ("Qd3", "en", "d1d3"), ("Bc4", "en", "f1c4"),
])
def test_letters_of_every_language(text, lang, expected):
    b = board("4k3/8/8/8/8/8/PPP2PP1/RN1QKB1R w - - 0 1")
    assert N.parse(b, text, lang) == chess.Move.from_uci(expected)


def test_figurines_are_read():
    assert N.parse(START, "♘f3") == chess.Move.from_uci("g1f3")


# --------------------------------------------------------------------------- reading: special moves


@pytest.mark.parametrize("fen,texts,expected", [
    (CASTLE_BOTH, ["0-0", "O-O", "o-o", "00", "0-O", "О-О", "0-0+", "Kg1", "e1g1", "Ke1-g1"], "e1g1"),
    (CASTLE_BOTH, ["0-0-0", "O-O-O", "o-o-o", "000", "Kc1", "e1c1"], "e1c1"),
    (CASTLE_BOTH.replace(" w ", " b "), ["0-0", "O-O", "Kg8"], "e8g8"),
    (CASTLE_BOTH.replace(" w ", " b "), ["0-0-0", "O-O-O", "Kc8"], "e8c8"),
    (EN_PASSANT, ["exd6 e.p.", "exd6", "exd6ep", "ed6", "e5:d6", "e5xd6", "exd6 e. p.", "ed"], "e5d6"),
    (EN_PASSANT_BLACK, ["exd3 e.p.", "ed3", "exd3"], "e4d3"),
    (PROMOTION, ["a8D", "a8=D", "a8/D", "a8(D)", "a8Q", "a8=Q", "a7a8q", "a7-a8D", "a8Ф"], "a7a8q"),
    (PROMOTION, ["a8T", "a8=R", "a8Л"], "a7a8r"),
    (PROMOTION, ["a8L", "a8=B", "a8F", "a8A"], "a7a8b"),
    (PROMOTION, ["axb8S", "axb8=N", "ab8S", "a7xb8C", "axb8P"], "a7b8n"),
    (PROMOTION_BLACK, ["hxg1D", "hg1=Q", "h2xg1D"], "h2g1q"),
    (PROMOTION_BLACK, ["h1S", "h1=N"], "h2h1n"),
    (MATE_IN_ONE, ["Ta8#", "Ta8++", "Ta8+", "Ta8", "Txa8#"], "a1a8"),
])
def test_special_moves(fen, texts, expected):
    b = board(fen)
    for text in texts:
        r = N.read(b, text, "de")
        assert r.move == chess.Move.from_uci(expected), (text, r)


def test_promotion_without_piece_is_ambiguous_between_the_four_pieces():
    r = N.read(board(PROMOTION), "a8", "de")
    assert r.problem == "ambiguous"
    assert sorted(m.promotion for m in r.candidates) == sorted((chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT))
    assert "d8D" in r.message("de")


def test_castling_that_is_not_allowed_is_illegal_with_the_other_side_suggested():
    b = board("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1")   # f2 rook guards f1: no 0-0
    r = N.read(b, "0-0", "de")
    assert r.problem == "illegal"
    assert r.suggestions[0] == chess.Move.from_uci("e1c1")
    assert "0-0" in r.message("de") and "kurze Rochade" in r.message("de")


def test_chess960_castling_both_sides():
    # Rooks b1 and g1, king f1: short castling swaps king and rook, long goes to c1/d1 (FIDE Laws Guidelines II, Chess960).
    b = chess.Board("1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1", chess960=True)
    short = N.parse(b, "0-0", "de")
    long = N.parse(b, "0-0-0", "de")
    assert b.is_kingside_castling(short) and b.is_queenside_castling(long)
    assert N.write(b, short, "de") == "0-0" and N.write(b, long, "en", style="pgn") == "O-O-O"


@pytest.mark.parametrize("fen,text,expected", [
    (TWO_KNIGHTS, "Sbd2", "b1d2"), (TWO_KNIGHTS, "Sfd2", "f3d2"), (TWO_KNIGHTS, "Sb1d2", "b1d2"),
    (TWO_KNIGHTS, "Sbxd2", "b1d2"), (TWO_KNIGHTS, "Sgh3", "g1h3"), (TWO_KNIGHTS, "Sh3", "g1h3"),
    (TWO_ROOKS_FILE, "T1a3", "a1a3"), (TWO_ROOKS_FILE, "T4a3", "a4a3"), (TWO_ROOKS_FILE, "Ta1-a3", "a1a3"),
    (KNIGHTS_BOTH, "Sc3e2", "c3e2"), (KNIGHTS_BOTH, "Sc1e2", "c1e2"), (KNIGHTS_BOTH, "Sge2", "g3e2"),
])
def test_disambiguation_by_file_rank_and_both(fen, text, expected):
    assert N.parse(board(fen), text, "de") == chess.Move.from_uci(expected)


@pytest.mark.parametrize("fen,text,candidates", [
    (TWO_KNIGHTS, "Sd2", {"b1d2", "f3d2"}),
    (TWO_ROOKS_FILE, "Ta3", {"a1a3", "a4a3"}),
    (TWO_ROOKS_FILE, "Taa3", {"a1a3", "a4a3"}),       # the file does not decide
    (KNIGHTS_BOTH, "Sce2", {"c1e2", "c3e2"}),        # neither does the file alone here
])
def test_missing_disambiguation_is_ambiguous_with_every_candidate(fen, text, candidates):
    r = N.read(board(fen), text, "de")
    assert r.problem == "ambiguous" and r.move is None
    assert {m.uci() for m in r.candidates} == candidates
    assert set(r.suggestions) == set(r.candidates)
    msg = r.message("de")
    for san in r.sans(r.candidates):
        assert san in msg
    assert "FIDE-Regeln Anhang C" in msg and "RULES" not in msg


# --------------------------------------------------------------------------- reading: slips


@pytest.mark.parametrize("text,expected,corrected", [
    ("Sf3", "g1f3", False), ("Sxf3", "g1f3", False), ("S:f3", "g1f3", False), ("Sg1-f3", "g1f3", False),
    ("Sg1xf3", "g1f3", False), ("Sg1f3", "g1f3", False), ("g1f3", "g1f3", False), ("g1-f3", "g1f3", False),
    ("e2-e4", "e2e4", False), ("e2e4", "e2e4", False), ("e4", "e2e4", False), ("e4+", "e2e4", False),
    ("e4!?", "e2e4", False), ("e4?!", "e2e4", False), ("e4!!", "e2e4", False), ("e4 $1", "e2e4", False),
    ("  e4  ", "e2e4", False), ("S f3", "g1f3", False), ("S g1 - f3", "g1f3", False), ("1.e4", "e2e4", False),
    ("12. Sf3", "g1f3", False), ("Sf3.", "g1f3", False), ("е4", "e2e4", False),   # Cyrillic е
    ("sf3", "g1f3", True), ("SF3", "g1f3", True), ("E4", "e2e4", True), ("Sgl-f3", "g1f3", True),
    ("Nf3", "g1f3", True), ("Sf3+", "g1f3", False), ("Sf3#", "g1f3", False),
])
def test_slips_that_leave_the_meaning_certain(text, expected, corrected):
    r = N.read(START, text, "de")
    assert r.move == chess.Move.from_uci(expected), (text, r)
    assert r.corrected is corrected


def test_l_for_1_only_where_it_is_certain():
    b = board("4k3/8/8/8/8/8/8/4K1NR w K - 0 1")
    assert N.parse(b, "Sf3", "de") == chess.Move.from_uci("g1f3")
    assert N.parse(b, "Kfl", "de") == chess.Move.from_uci("e1f1")        # l read as 1
    assert N.parse(b, "Ke1-fl", "de") == chess.Move.from_uci("e1f1")
    # "l" could also be the bishop letter (case slip) but "Kfl" only reads one way
    b2 = board("4k3/8/8/8/8/8/5P2/4K1NR w K - 0 1")
    assert N.read(b2, "Kfl", "de").move == chess.Move.from_uci("e1f1")


def test_bare_square_for_a_pawn_capture_only_when_no_pawn_moves_there():
    b = board("4k3/8/8/3p4/4P3/8/3P4/4K3 w - - 0 1")
    assert N.parse(b, "d5", "de") == chess.Move.from_uci("e4d5")      # exd5 is the only move to d5
    b2 = board("4k3/8/8/8/4p3/8/3P1P2/4K3 w - - 0 1")
    assert N.parse(b2, "d4", "de") == chess.Move.from_uci("d2d4")
    assert not N.read(b2, "d4", "de").corrected
    assert N.read(b, "d5", "de").corrected
    b3 = board("4k3/8/8/4p3/3P1P2/8/8/4K3 w - - 0 1")
    assert N.read(b3, "e5", "de").problem == "ambiguous"             # dxe5 or fxe5


def test_draw_offer_mark():
    r = N.read(START, "Sf3 (=)", "de")
    assert r.ok and r.draw_offer
    assert not N.read(START, "Sf3", "de").draw_offer
    assert N.read(START, "e4(=)", "de").draw_offer


# --------------------------------------------------------------------------- problems


def test_issue_example_knight_f6_cannot_reach_f4_but_e4():
    r = N.read(board(KNIGHT_F6), "Sf4", "de")
    assert r.problem == "illegal" and r.move is None
    assert chess.Move.from_uci("f6e4") in r.suggestions[:2]
    assert r.sans(r.suggestions)[:2] == ["Se4", "Sg4"]
    msg = r.message("de")
    assert "Sf4" in msg and "Springer" in msg and "f4" in msg and "Se4" in msg
    assert "knight" in r.message("en")


def test_suggestion_ranking_same_piece_first_then_same_square_other_piece():
    b = board("4k3/8/8/8/8/8/5N2/4K1B1 w - - 0 1")   # Nf2, Bg1; "Sf4"? no knight move to f4
    r = N.read(b, "Sf4", "de")
    assert r.problem == "illegal"
    sans = r.sans(r.suggestions)
    # knight one character away first (Sd3? no: f2 knight reaches d1, d3, e4, g4, h1, h3)
    assert sans[0] in ("Se4", "Sg4")
    b2 = board("4k3/8/8/8/8/8/8/4K1B1 w - - 0 1")
    r2 = N.read(b2, "Sf2", "de")                       # no knight at all; the bishop goes to f2
    assert "Lf2" in r2.sans(r2.suggestions)[:2]          # with Kf2: another piece, same square


def test_wrong_disambiguation_suggests_the_piece_that_can_go():
    r = N.read(board(TWO_KNIGHTS), "Sbh3", "de")
    assert r.problem == "illegal"
    assert r.sans(r.suggestions)[0] == "Sh3"


def test_long_form_from_a_wrong_square():
    r = N.read(board(KNIGHT_F6), "Sf6-f4", "de")
    assert r.problem == "illegal"
    assert "f6" in r.message("de") and "Se4" in r.message("de")
    r2 = N.read(START, "Se3-f5", "de")
    assert r2.problem == "illegal" and "e3" in r2.message("de")


@pytest.mark.parametrize("text", ["", "   ", "xyz", "Z9", "e9", "i4", "S", "0-0-0-0", "??", "Sf", "Hallo Welt",
                                  "\x00\x01", "e4 e5 Sf3", "x" * 1000])
def test_unreadable(text):
    r = N.read(START, text, "de")
    assert r.problem == "unreadable" and r.move is None and not r.ok
    assert r.message("de").startswith("„")


def test_unreadable_text_close_to_a_move_gets_suggestions():
    r = N.read(START, "Sf", "de")
    assert r.problem == "unreadable"
    assert "Sf3" in r.sans(r.suggestions)


def test_parse_raises_notation_error_with_the_reading():
    with pytest.raises(N.NotationError) as info:
        N.parse(START, "Sf4", "de")
    assert info.value.reading.problem == "illegal"
    assert "Sf4" in str(info.value)


def test_messages_in_english_and_german():
    r = N.read(board(TWO_KNIGHTS), "Sd2", "de")
    assert "mehrdeutig" in r.message("de") and "ambiguous" in r.message("en")
    ok = N.read(START, "Sf3", "de")
    assert "Sf3" in ok.message("de") and "Sf3" in ok.message("en")


# --------------------------------------------------------------------------- round trip


def _random_positions(seed: int, games: int, chess960: bool, every: int = 6) -> list[chess.Board]:
    """Positions from seeded random games, favouring castling, en passant and promotion."""
    rng = random.Random(seed)
    out = []
    for _g in range(games):
        b = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        for ply in range(rng.randrange(30, 160)):
            moves = list(b.legal_moves)
            if not moves:
                break
            special = [m for m in moves if m.promotion or b.is_castling(m) or b.is_en_passant(m)]
            if ply % every == 0 or special:
                out.append(b.copy(stack=False))
            b.push(rng.choice(special) if special and rng.random() < 0.8 else rng.choice(moves))
    return out


def _round_trip(positions: list[chess.Board]) -> dict[str, int]:
    seen = {"castle": 0, "ep": 0, "promo": 0, "moves": 0}
    for b in positions:
        for m in b.legal_moves:
            seen["moves"] += 1
            seen["castle"] += b.is_castling(m)
            seen["ep"] += b.is_en_passant(m)
            seen["promo"] += bool(m.promotion)
            for lang in NOTATION_LANGS:
                for style in N.STYLES:
                    written = N.write(b, m, lang, style=style)
                    assert N.parse(b, written, lang) == m, (b.fen(), m, lang, style, written)
    return seen


SPECIAL_POSITIONS = [CASTLE_BOTH, CASTLE_BOTH.replace(" w ", " b "), EN_PASSANT, EN_PASSANT_BLACK, PROMOTION,
                     PROMOTION_BLACK, TWO_KNIGHTS, TWO_ROOKS_FILE, KNIGHTS_BOTH, MATE_IN_ONE,
                     "r3k2r/pP4P1/8/3pP3/8/8/1p4Pp/R3K2R w KQkq d6 0 1"]


def test_round_trip_standard_games_every_language_and_style():
    positions = [board(f) for f in SPECIAL_POSITIONS] + _random_positions(2026, 5, chess960=False)
    seen = _round_trip(positions)
    assert seen["castle"] >= 4 and seen["ep"] >= 2 and seen["promo"] >= 20 and seen["moves"] > 2200


def test_round_trip_chess960_games_every_language_and_style():
    positions = [chess.Board("1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1", chess960=True)]
    positions += _random_positions(960, 3, chess960=True)
    seen = _round_trip(positions)
    assert seen["castle"] >= 4 and seen["moves"] > 1500


# --------------------------------------------------------------------------- any input


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=80), st.sampled_from((None, *NOTATION_LANGS)))
def test_any_text_gives_a_reading(text, lang):
    r = N.read(START, text, lang)
    assert isinstance(r, N.Reading)
    assert r.ok == (r.problem is None)
    assert r.problem in (None, *N.PROBLEMS)
    assert isinstance(r.message("de"), str)


@settings(deadline=None, max_examples=150)
@given(st.binary(max_size=120))
def test_binary_junk_gives_a_reading(data):
    for text in (data.decode("utf-8", "replace"), data.decode("latin-1")):
        r = N.read(board(KNIGHT_F6), text, "de")
        assert r.problem in (None, *N.PROBLEMS)


@settings(deadline=None, max_examples=200)
@given(st.text(alphabet="KQRBNDTLSCFAPКрФЛСabcdefgh12345678xX:-=/()+#0Oo .!?lI", max_size=14))
def test_move_like_text_gives_a_reading(text):
    b = board("r3k2r/pP6/8/3pP3/8/8/6Pp/R3K2R w KQkq d6 0 1")
    r = N.read(b, text)
    assert r.problem in (None, *N.PROBLEMS)
    if r.ok:
        assert r.move in b.legal_moves
    for m in r.candidates + r.suggestions:
        assert m in b.legal_moves


def test_ten_megabytes_of_text_are_refused_quickly():
    big = "Sf3 " * 2_600_000
    r = N.read(START, big, "de")
    assert r.problem == "unreadable"


# --------------------------------------------------------------------------- helpers


@pytest.mark.parametrize("text,lang", [
    ("1. e4 e5 2. Sf3 Sc6 3. Lb5", "de"), ("1. e4 e5 2. Nf3 Nc6 3. Bb5", "en"), ("1. e4 e5 2. Cf3 Cc6 3. Fb5", "fr"),
    ("1. e4 e5 2. Cf3 Cc6 3. Ab5", "it"), ("1. e4 e5 2. Pf3 Pc6 3. Lb5", "nl"), ("1. e4 e5 2. Кf3 Кc6 3. Сb5", "ru"),
    ("1. e4 e5 2. d4 exd4", None),
])
def test_guess_lang_from_piece_letters(text, lang):
    assert N.guess_lang(text) == lang


def test_is_move_text_is_about_form_only():
    assert N.is_move_text("Sf3") and N.is_move_text("Sf4") and N.is_move_text("0-0-0") and N.is_move_text("a8=D")
    assert not N.is_move_text("xyz") and not N.is_move_text("e9") and not N.is_move_text("")


def test_ok_reading_message_names_the_move():
    r = N.read(board(TWO_KNIGHTS), "Sb1-d2", "de")
    assert r.ok and r.message("de") == "„Sb1-d2“ ist Sbd2." and r.message("en") == "“Sb1-d2” is Sbd2."


# --------------------------------------------------------------------------- German grammar of the messages

# One black piece of each kind is missing its target: (text, German phrase the reason must contain).
GENDER_CASES = [
    ("Dd5", "keine Dame kann nach d5 ziehen"), ("Dd1-d5", "keine Dame von d1 kann nach d5 ziehen"),
    ("Dd2-d5", "auf d2 steht keine Dame der Partei am Zug"),
    ("Tb3", "kein Turm kann nach b3 ziehen"), ("Ta1-a5", "kein Turm von a1 kann nach a5 ziehen"),
    ("Ta3-a5", "auf a3 steht kein Turm der Partei am Zug"),
    ("Lb5", "kein Läufer kann nach b5 ziehen"), ("Sf4", "kein Springer kann nach f4 ziehen"),
    ("Kf2", "kein König kann nach f2 ziehen"), ("e5", "kein Bauer kann nach e5 ziehen"),
]


@pytest.mark.parametrize("text,phrase", GENDER_CASES)
def test_german_messages_agree_with_the_gender_of_the_piece(text, phrase):
    # die Dame is feminine ("keine Dame"); König, Turm, Läufer, Springer, Bauer are masculine ("kein")
    msg = N.read(START, text, "de").message("de")
    assert phrase in msg, msg


def test_no_german_message_has_a_wrong_article():
    # every reason for every piece kind, in a position where each piece kind is present
    b = board("4k3/8/8/8/8/8/PPPP4/RNBQK3 w - - 0 1")
    texts = [f"{letter}{how}" for letter in ("", "K", "D", "T", "L", "S")
             for how in ("h6", "a1-h6", "h8-h6", "ah6", "8h6")]
    for text in texts:
        msg = N.read(b, text, "de").message("de")
        assert "kein Dame" not in msg and "keinen" not in msg and "keine König" not in msg, msg
        for masc in ("Turm", "Läufer", "Springer", "Bauer", "König"):
            assert f"keine {masc}" not in msg, msg
    # the forms are data: one per piece in the German and English catalogues
    from blindchess.base.i18n import tr
    for name in ("pawn", "knight", "bishop", "rook", "queen", "king"):
        assert tr(f"notation.no_{name}", "de").split()[-1] == tr(f"notation.piece_{name}", "de")
        assert tr(f"notation.no_{name}", "en") == f"no {name}"
