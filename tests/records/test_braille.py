"""The braille score (D.2.7): valid braille ASCII, layout, conventions, read-back, Unicode 1:1."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blindchess.records import braille
from tests.support.games import as_game, chess960_game, features, rich_game, special_game

LANGS = ("de", "en", "fr", "it", "nl", "ru")


def pages_of(text: str) -> list[list[str]]:
    """Pages as lists of lines (BRF: CR LF line ends, form feed between pages)."""
    assert text.endswith("\r\n")
    return [page.split("\r\n")[:-1] for page in text.split("\f")]


def assert_valid_brf(text: str, width: int, page_length: int) -> None:
    for page in pages_of(text):
        assert 1 <= len(page) <= page_length
        for line in page:
            assert len(line) <= width, line
            assert set(line) <= braille.BRF_CHARS, line
            assert all(0x20 <= ord(ch) <= 0x5F for ch in line)


def test_braille_ascii_table_is_the_64_cells():
    assert len(braille.BRF_TO_MASK) == 64
    assert sorted(braille.BRF_TO_MASK.values()) == list(range(64))
    assert {ord(ch) for ch in braille.BRF_CHARS} == set(range(0x20, 0x60))
    # Well-known cells: a = dot 1, number sign = dots 3456, lower 4 = dots 256.
    assert braille.brf_to_unicode("A#4 ") == "\u2801\u283c\u2832\u2800"


@pytest.mark.parametrize("lang", LANGS)
def test_rich_game_reads_back_in_every_language(lang):
    start, moves = rich_game()
    assert {"castling", "en-passant", "promotion", "check"} <= features(start, moves)
    text = braille.score_to_brf(start, moves, lang, result="1-0")
    assert_valid_brf(text, 40, 25)
    reading = braille.read_brf(text, board=start, lang=lang)
    assert reading.ok, reading.problems
    assert reading.moves == moves
    assert reading.result == "1-0"


def test_chess960_game_with_castling_reads_back():
    start, moves = chess960_game()
    assert start.chess960 and "castling" in features(start, moves)
    text = braille.game_to_brf(as_game(start, moves), "de", use_louis=False)
    assert f"CHESS#IFJ1 STELLUNG {braille.text_to_brf(str(start.chess960_pos()), 'de', use_louis=False)}" in text
    assert braille.read_brf(text, board=start).moves == moves
    for lang in ("de", "en"):
        text = braille.score_to_brf(start, moves, lang)
        assert "0-0" in text
        assert braille.read_brf(text, board=start, lang=lang).moves == moves


@pytest.mark.parametrize("width,page_length", [(12, 3), (20, 7), (40, 25), (32, 28)])
def test_width_and_page_length_are_respected_and_moves_never_split(width, page_length):
    start, moves = rich_game()
    game = as_game(start, moves, White="Müller, Anna", Black="Иванов", Event="IBCA Open", Round="3",
                   Date="2026.11.29")
    text = braille.game_to_brf(game, "de", width=width, page_length=page_length)
    assert_valid_brf(text, width, page_length)
    units = braille.score_units(start, moves, "de", result=game.headers["Result"])
    lines = [line for page in pages_of(text) for line in page]
    score_lines = lines[lines.index("") + 1:]
    # Every line holds whole units: joining the lines gives the units exactly.
    assert " ".join(score_lines) == " ".join(units)
    for line in score_lines:
        rest = line
        while rest:
            unit = next(u for u in units if rest == u or rest.startswith(u + " "))
            rest = rest[len(unit):].lstrip(" ")
    assert braille.read_brf(text, board=start, lang="de").moves == moves


def test_conventions_of_the_cells():
    board = chess.Board()
    line = braille.score_to_brf(board, [chess.Move.from_uci(u) for u in ("e2e4", "e7e5", "g1f3")], "de")
    assert line == "1 E4 E5 2 SF3\r\n"  # lower digits, move number then space, German S
    assert braille.brf_to_unicode("1 E4") == "\u2802\u2800\u2811\u2832"
    en = braille.score_to_brf(board, [chess.Move.from_uci("g1f3")], "en")
    assert en == "1 SF3\r\n"   # the knight is S in English braille (BAUK 2015), not the print N
    signed = braille.score_to_brf(chess.Board(), [chess.Move.from_uci("e2e4")], "de", number_sign=True)
    assert signed == "#A E4\r\n"
    assert braille.read_brf(signed).moves == [chess.Move.from_uci("e2e4")]


def test_castling_promotion_mate_and_en_passant_cells():
    castle = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert braille.move_to_brf(castle, chess.Move.from_uci("e1g1"), "de") == "0-0"
    assert braille.move_to_brf(castle, chess.Move.from_uci("e1c1"), "de") == "0-0-0"
    promo = chess.Board("8/3P1k2/8/8/8/8/8/4K3 w - - 0 1")
    assert braille.move_to_brf(promo, chess.Move.from_uci("d7d8q"), "de") == "D8D"
    assert braille.move_to_brf(promo, chess.Move.from_uci("d7d8n"), "en") == "D8S+"
    mate = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    assert braille.move_to_brf(mate, chess.Move.from_uci("a1a8"), "de") == "TA8++"
    ep = chess.Board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
    assert braille.move_to_brf(ep, chess.Move.from_uci("e5d6"), "de") == "EXD6"


def test_capital_sign_only_where_a_pawn_capture_reads_the_same():
    board = chess.Board("7k/8/2p5/1P1B4/8/8/8/4K3 w - - 0 1")
    bishop, pawn = chess.Move.from_uci("d5c6"), chess.Move.from_uci("b5c6")
    assert braille.move_to_brf(board, bishop, "en") == ",BXC6"
    assert braille.move_to_brf(board, pawn, "en") == "BXC6"
    assert braille.move_to_brf(board, bishop, "de") == "LXC6"  # no collision in German
    for move in (bishop, pawn):
        text = braille.score_to_brf(board, [move], "en")
        assert braille.read_brf(text, board=board, lang="en").moves == [move]


def test_unicode_braille_maps_one_to_one_to_brf():
    start, moves = rich_game()
    brf = braille.score_to_brf(start, moves, "ru", width=30, page_length=10)
    uni = braille.score_to_unicode(start, moves, "ru", width=30, page_length=10)
    assert len(uni) == len(brf)
    for b, u in zip(brf, uni):
        if b in "\r\n\f":
            assert u == b
        else:
            assert 0x2800 <= ord(u) <= 0x283F and u == chr(0x2800 + braille.BRF_TO_MASK[b])
    assert braille.unicode_to_brf(uni) == brf
    assert braille.read_brf(uni, board=start, lang="ru").moves == moves


def test_a_score_starting_with_black():
    board = chess.Board("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30")
    moves = [chess.Move.from_uci("e8d7"), chess.Move.from_uci("e2e4")]
    text = braille.score_to_brf(board, moves, "de")
    assert text == "30 -KD7 31 E4\r\n"  # dots 3-6 before Black's first move
    assert braille.read_brf(text, board=board).moves == moves


def test_header_is_skipped_and_in_literary_braille():
    start, moves = special_game(2, plies=20)
    game = as_game(start, moves, White="Müller", Black="Smith", Event="Open 2026")
    text = braille.game_to_brf(game, "de", use_louis=False)
    lines = pages_of(text)[0]
    assert lines[1] == "M\\LLER - SMITH"  # ü = dots 1256 in German braille
    assert lines[0] == "OPEN #BJBF"  # number sign + upper digits in text
    assert lines[2] == ""
    assert braille.read_brf(text).moves == moves


def test_builtin_text_table():
    assert braille.text_to_brf("Ärger 1a", "de", use_louis=False) == ">RGER #A;A"
    assert braille.text_to_brf("Кр", "ru", use_louis=False) == "KR"


@pytest.mark.skipif(braille.louis_module() is None, reason="liblouis (python3-louis) not installed")
def test_liblouis_header_when_installed():
    assert braille.text_to_brf("Anna", "en") == ",ANNA"  # UEB capital sign
    assert braille.text_to_brf("Müller", "de") == "M\\LLER"


def test_handwritten_braille_is_read_with_the_notation_reader():
    # Lower-case braille ASCII, captures without x, mate sign as check: a braille writer's own score.
    text = "1 e4 d5 2 ed5 dd5 3 sc3 da5 4 d4 sf6 5 sf3 lf5 6 lc4 e6 7 0-0"
    reading = braille.read_brf(text, lang="de")
    assert reading.ok, reading.problems
    board = reading.board()
    assert board.piece_at(chess.G1) == chess.Piece(chess.KING, chess.WHITE)
    assert board.piece_at(chess.A5) == chess.Piece(chess.QUEEN, chess.BLACK)


@pytest.mark.parametrize("text,ply,problem", [
    ("1 E4 E5 2 ZZ9", 2, "unreadable"),
    ("1 E4 E5 2 KE3", 2, "illegal"),
    ("1 E4 D5 2 SC3 SF6 3 SE2 SC6", 4, "ambiguous"),  # Sc3-e2 or Sg1-e2
])
def test_problems_stop_the_reading(text, ply, problem):
    reading = braille.read_brf(text, lang="de")
    assert not reading.ok
    assert reading.problems[0].ply == ply and reading.problems[0].problem == problem
    assert len(reading.moves) == ply


def test_page_numbers_at_the_right_margin():
    start, moves = rich_game()
    game = as_game(start, moves, White="Anna", Black="Bob")
    text = braille.game_to_brf(game, "de", width=30, page_length=6, page_numbers=True)
    assert_valid_brf(text, 30, 6)
    pages = pages_of(text)
    assert len(pages) > 2
    for number, page in enumerate(pages, start=1):
        assert len(page) == 6
        assert page[-1] == braille.text_to_brf(str(number), "de", use_louis=False).rjust(30)
    assert braille.read_brf(text, board=start).moves == moves


def test_too_narrow_layout_is_refused():
    with pytest.raises(ValueError):
        braille.score_to_brf(chess.Board(), [], "de", width=8)
    with pytest.raises(ValueError):
        braille.score_to_brf(chess.Board(), [], "de", page_length=2)


@settings(deadline=None, max_examples=25)
@given(seed=st.integers(0, 10_000), lang=st.sampled_from(LANGS), width=st.integers(12, 60),
       page_length=st.integers(3, 30), number_sign=st.booleans(), chess960=st.booleans(),
       page_numbers=st.booleans())
def test_any_game_round_trips(seed, lang, width, page_length, number_sign, chess960, page_numbers):
    start = chess.Board.from_chess960_pos(seed % 960) if chess960 else chess.Board()
    start, moves = special_game(seed, start=start, plies=90)
    text = braille.score_to_brf(start, moves, lang, width=width, page_length=page_length,
                                number_sign=number_sign, page_numbers=page_numbers)
    assert_valid_brf(text, width, page_length)
    assert braille.read_brf(text, board=start, lang=lang).moves == moves


def test_lower_case_braille_ascii_and_foreign_characters():
    assert braille.brf_to_unicode("e4{") == braille.brf_to_unicode("E4[")
    with pytest.raises(ValueError):
        braille.brf_to_unicode("ä")
    with pytest.raises(ValueError):
        braille.unicode_to_brf("e")
    assert braille.read_brf("1 e4 ä5").problems[0].problem == "unreadable"


def test_english_braille_writes_the_knight_s_as_the_british_braille_chess_code():
    # BAUK 2015 §1.3: "2.♘f3" is brailled ⠆ ⠎⠋⠒ (lower 2, space, s f 3)
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    cells = braille.score_to_unicode(board, [chess.Move.from_uci("g1f3")], "en")
    assert "\u2806\u2800\u280e\u280b\u2812" in cells
    assert braille.BRAILLE_LETTERS["en"] == {"N": "S"}
    knight = chess.Move.from_uci("g1f3")
    for token in ("2 SF3", "2 NF3"):                  # the braille S and the print N both read back
        assert braille.read_brf(token, board=board, lang="en").moves == [knight]
    promo = chess.Board("8/3P1k2/8/8/8/8/8/4K3 w - - 0 1")
    assert braille.read_brf("1 D8S+", board=promo, lang="en").moves == [chess.Move.from_uci("d7d8n")]
    # German keeps its print letters (S is the German knight anyway)
    assert braille.move_to_brf(chess.Board(), knight, "de") == "SF3"
