"""Whole game scores: PGN and transcribed scoresheets (FIDE Laws Appendix C).

What an arbiter gets handed is a scoresheet; the tests use the formats players
and transcribers actually produce and check that every problem is reported with
its move number and colour, and what happens after the first problem.
"""

from __future__ import annotations

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from blindchess.language import notation as N
from tests.support.paths import DATA

DATA = DATA / "scoresheets"
RUY_UCI = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7"]


def ucis(score: N.ScoreReading) -> list[str]:
    return [m.uci() for m in score.moves]


def test_scoresheet_one_line():
    s = N.read_score("1.e4 e5 2.Sf3 Sc6 3.Lb5 a6 4.La4 Sf6 5.0-0 Le7")
    assert s.ok and s.plies == 10 and ucis(s) == RUY_UCI
    assert s.lang == "de"
    assert [e.written for e in s.entries][:3] == ["e4", "e5", "Sf3"]
    assert s.entries[8] == N.ScoreEntry(9, 5, True, "0-0")
    assert s.board().fen() == chess.Board("r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6").fen()


def test_one_move_pair_per_line_and_one_move_per_line():
    pairs = "1. e4 e5\n2. Sf3 Sc6\n3. Lb5 a6\n4. La4 Sf6\n5. 0-0 Le7\n"
    single = "e4\ne5\nSf3\nSc6\nLb5\na6\nLa4\nSf6\n0-0\nLe7\n"
    numbered = "1. e4\n1... e5\n2. Sf3\n2... Sc6\n3. Lb5\n3... a6\n4. La4\n4... Sf6\n5. 0-0\n5... Le7\n"
    repeated = "1 e4\n1 e5\n2 Sf3\n2 Sc6\n3 Lb5\n3 a6\n4 La4\n4 Sf6\n5 0-0\n5 Le7\n"
    tabs = "1\te4\te5\n2\tSf3\tSc6\n3\tLb5\ta6\n4\tLa4\tSf6\n5\t0-0\tLe7\n"
    dots = "1. e4\n1. ... e5\n2. Sf3\n2. ... Sc6\n3. Lb5 a6 4. La4 Sf6 5. 0-0 Le7"
    for text in (pairs, single, numbered, repeated, tabs, dots):
        s = N.read_score(text)
        assert s.ok and ucis(s) == RUY_UCI, text


def test_two_columns_per_line_are_put_in_move_order():
    # a scoresheet has moves 1-3 in the left column and 4-5 in the right one
    text = "1. e4 e5      4. La4 Sf6\n2. Sf3 Sc6    5. 0-0 Le7\n3. Lb5 a6\n"
    s = N.read_score(text)
    assert s.ok and ucis(s) == RUY_UCI


def test_pgn_with_headers_comments_nags_variations_and_result():
    s = N.read_score((DATA / "immortal_en.pgn").read_text(encoding="utf-8"))
    assert s.ok and s.plies == 45 and s.lang == "en" and s.style == "pgn"
    assert s.board().is_checkmate()
    text = ('[Event "?"]\n[Result "*"]\n\n1. e4 {best by test} e5 2. Nf3 $1 Nc6 (2... d6 3. d4 (3. Bc4)) '
            '3. Bb5 a6!? ; a comment\n4. Ba4 Nf6 5. O-O Be7 *\n\n[Event "next game"]\n1. d4 d5 *')
    s = N.read_score(text)
    assert s.ok and ucis(s) == RUY_UCI


def test_pgn_fen_and_variant_headers_set_the_start():
    text = '[FEN "4k3/8/8/8/8/8/8/R3K3 w Q - 0 30"]\n\n30. 0-0-0 Kf7 31. Kb1'
    s = N.read_score(text)
    assert s.ok and s.start.fullmove_number == 30
    assert s.entries[0] == N.ScoreEntry(1, 30, True, "0-0-0")
    chess960 = '[Variant "Chess960"]\n[FEN "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1"]\n\n1. O-O O-O-O'
    s = N.read_score(chess960)
    assert s.ok and s.start.chess960
    assert s.board().fen().startswith("2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1")


def test_chess960_board_argument():
    board = chess.Board.from_chess960_pos(0)        # BBQNNRKR: king g1, rooks f1 and h1
    s = N.read_score("1. f4 f5 2. Tf3 Tf6 3. 0-0 0-0", board=board)
    assert s.ok and s.plies == 6
    end = s.board()
    assert end.king(chess.WHITE) == chess.G1 and end.piece_at(chess.F1) == chess.Piece(chess.ROOK, chess.WHITE)
    assert end.piece_at(chess.F8) == chess.Piece(chess.ROOK, chess.BLACK) and not end.has_castling_rights(chess.BLACK)


def test_black_to_move_start_and_black_continuation():
    board = chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    s = N.read_score("1... e5 2. Sf3 Sc6", board=board)
    assert s.ok and s.plies == 3
    assert [(e.number, e.white) for e in s.entries] == [(1, False), (2, True), (2, False)]


def test_every_letter_set_and_language_guess():
    for lang, text in {
        "de": "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. La4 Sf6 5. 0-0 Le7",
        "en": "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7",
        "fr": "1. e4 e5 2. Cf3 Cc6 3. Fb5 a6 4. Fa4 Cf6 5. 0-0 Fe7",
        "it": "1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. Aa4 Cf6 5. 0-0 Ae7",
        "nl": "1. e4 e5 2. Pf3 Pc6 3. Lb5 a6 4. La4 Pf6 5. 0-0 Le7",
        "ru": "1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 4. Сa4 Кf6 5. 0-0 Сe7",
    }.items():
        s = N.read_score(text)
        assert s.ok and ucis(s) == RUY_UCI and s.lang == lang, lang
        assert N.read_score(text, lang=lang).ok


def test_problems_are_reported_with_move_number_and_colour():
    s = N.read_score((DATA / "slips_de.txt").read_text(encoding="utf-8"))
    assert not s.ok and s.plies == 7
    first, second = s.problems
    assert (first.ply, first.number, first.white, first.written, first.problem) == (8, 4, False, "Sf4", "illegal")
    assert first.suggestions and all(isinstance(x, str) for x in first.suggestions)
    assert first.line("de").startswith("Zug 4, Schwarz: „Sf4“")
    assert first.line("en").startswith("Move 4, Black:")
    # after the first problem the position is unknown; a later junk entry is still reported
    assert (second.ply, second.number, second.white, second.problem) == (12, 6, False, "unreadable")


def test_after_an_illegal_move_later_move_shaped_entries_are_not_judged():
    s = N.read_score("1. e4 e5 2. Sf4 Sc6 3. Lb5 a6")
    assert s.plies == 2 and len(s.problems) == 1 and s.problems[0].problem == "illegal"
    assert len(s.entries) == 6


def test_ambiguous_move_names_the_candidate_the_next_move_supports():
    # both knights can go to d2; only after Sbd2 can White's next move Sf3-e5 be played
    s = N.read_score("1. d4 d5 2. Sf3 Sf6 3. e3 e6 4. Sd2 c5 5. Se5", lang="de")
    problem = s.problems[0]
    assert problem.problem == "ambiguous" and problem.ply == 7 and problem.white
    assert problem.suggestions == ["Sbd2", "Sfd2"]
    assert "Sbd2" in problem.message and "Se5" in problem.message


def test_draw_offer_and_check_marks_and_en_passant_as_separate_words():
    s = N.read_score("1. e4 d5 2. e5 f5 3. exf6 e.p. Sxf6 4. Sf3 (=) Sc6 5. Lb5 e5 6. Lxc6 + bxc6 !?")
    assert s.ok and s.plies == 12
    assert s.entries[4].written == "exf6 e.p."
    assert s.entries[6].draw_offer and s.entries[6].written == "Sf3 (=)"
    assert s.entries[10].written == "Lxc6 +"


def test_stray_spaces_inside_moves_are_joined():
    s = N.read_score("1. e4 e5 2. S f3 Sc6 3. Lb5 a6 4. L a4 Sf6 5. 0 - 0 Le7")
    assert s.ok and ucis(s) == RUY_UCI
    assert s.entries[2].written == "S f3" and s.entries[8].written == "0 - 0"


def test_long_algebraic_and_cyrillic_and_slips_in_one_score():
    s = N.read_score("1. e2-e4 е7-е5 2. Sg1-f3 Sb8xc6 3. Lfl-b5 a6 4. lb5-a4 g8f6 5. o-o Sf8-e7")
    # 5... Sf8-e7 is wrong: the bishop stands on f8
    assert s.plies == 9 and s.problems[0].ply == 10 and s.problems[0].problem == "illegal"
    assert "Le7" in s.problems[0].suggestions


def test_empty_and_whitespace_scores():
    for text in ("", "   \n\t", "[Event \"x\"]\n", "1-0", "*"):
        s = N.read_score(text)
        assert s.ok and s.plies == 0 and s.moves == [] and s.entries == []


def test_write_score_then_read_score_round_trip_in_every_language():
    moves = [chess.Move.from_uci(u) for u in RUY_UCI]
    for lang in N.LETTERS:
        for style in N.STYLES:
            text = N.write_score(chess.Board(), moves, lang, style=style)
            s = N.read_score(text, lang=lang)
            assert s.ok and s.moves == moves, (lang, style, text)


def test_as_dict_has_the_cli_keys():
    d = N.read_score("1. e4 e5 2. Sf4").as_dict()
    assert {"plies", "moves", "problems"} <= set(d)
    assert d["plies"] == 2 and d["moves"] == ["e2e4", "e7e5"]
    assert {"ply", "written", "problem", "suggestions"} <= set(d["problems"][0])


@settings(deadline=None, max_examples=120)
@given(st.text(max_size=400))
def test_any_text_gives_a_score_reading(text):
    s = N.read_score(text)
    assert isinstance(s, N.ScoreReading)
    assert s.plies == len(s.moves)
    assert all(p.problem in N.PROBLEMS for p in s.problems)


@settings(deadline=None, max_examples=60)
@given(st.binary(max_size=600))
def test_binary_junk_gives_a_score_reading(data):
    s = N.read_score(data.decode("utf-8", "replace"), lang="de")
    assert s.plies == len(s.moves)


@settings(deadline=None, max_examples=60)
@given(st.lists(st.sampled_from(["1.", "e4", "e5", "Sf3", "(", ")", "{", "}", "[Event \"x\"]", "0-0", "1-0", "x",
                                 "S", "f3", "-", "e.p.", "(=)", "$1", ";", "\n", "2...", "Кf3", "½-½", "O-O-O"]),
                max_size=40))
def test_score_shaped_junk_gives_a_score_reading(words):
    s = N.read_score(" ".join(words))
    assert s.plies == len(s.moves) and s.board().is_valid()


def test_ten_megabytes_of_text_are_read_in_bounded_time():
    mixed = ("1. e4 e5 2. Sf3 Кc6 {κείμενο} 漢字 ☃ " * 300_000)[:10_000_000]
    s = N.read_score(mixed)
    assert s.plies == 4 and s.truncated and len(s.problems) <= N.MAX_LATER_PROBLEMS + 1
    legal_forever = "Sf3 Sf6 Sg1 Sg8 " * 700_000          # legal shuffling: capped at MAX_PLIES
    s = N.read_score(legal_forever)
    assert s.plies == N.MAX_PLIES and s.truncated and not s.ok


def test_a_left_out_half_move_is_pointed_out():
    # Black's 2... Sc6 is missing: "Lb5" is then read as Black's move, which is illegal for Black
    s = N.read_score("1. e4 e5 2. Sf3 3. Lb5 a6")
    problem = s.problems[0]
    assert (problem.ply, problem.white, problem.problem) == (4, False, "illegal")
    assert "fehlt davor ein Halbzug" in problem.message and "Weiß" in problem.message


def test_data_scoresheets():
    ru = N.read_score((DATA / "two_columns_ru.txt").read_text(encoding="utf-8"))
    de = N.read_score((DATA / "ruy_lopez_de.txt").read_text(encoding="utf-8"))
    assert ru.ok and ru.lang == "ru" and ru.moves == de.moves and ru.plies == 20
    # every slip of the handwritten sheet is read; only the last move is really ambiguous
    hand = N.read_score((DATA / "handwritten_mixed_de.txt").read_text(encoding="utf-8"))
    assert hand.moves == de.moves[:19] and hand.entries[13].draw_offer
    (problem,) = hand.problems
    assert (problem.ply, problem.number, problem.white, problem.problem) == (20, 10, False, "ambiguous")
    assert problem.suggestions == ["Sbd7", "Sfd7"]


def test_old_style_dash_between_the_two_half_moves():
    # "1. e4 - e5": a dash between White's and Black's move, not long algebraic e4-e5
    s = N.read_score("1. e4 - e5 2. Sf3 - Sc6 3. Lb5 - a6 4. La4 -Sf6 5. 0-0 - Le7")
    assert s.ok and ucis(s) == RUY_UCI
    assert [e.written for e in s.entries][:2] == ["e4", "e5"]
    # long algebraic written with stray spaces is still joined into one move
    s = N.read_score("1. e2 - e4 e7 - e5 2. Sg1 - f3 Sb8 - c6 3. Lf1 x b5 a6")
    assert ucis(s)[:5] == RUY_UCI[:5] and [e.written for e in s.entries][:3] == ["e2 - e4", "e7 - e5", "Sg1 - f3"]
    # a dash pair whose first half is illegal stays one problem entry, reported as written
    s = N.read_score("1. e5 - e6")
    assert s.problems[0].ply == 1 and s.problems[0].written == "e5 - e6"


def test_old_style_dash_keeps_check_marks_and_draw_offers_with_the_second_move():
    s = N.read_score("1. e4 - e5 (=) 2. Dh5 - Sc6 3. Lc4 - Sf6 4. Dxf7 #")
    assert s.ok and s.plies == 7 and s.board().is_checkmate()
    assert s.entries[1].written == "e5 (=)" and s.entries[1].draw_offer


def test_an_invalid_fen_header_is_reported_not_replaced_by_the_standard_start():
    # the FEN lacks a row: the moves cannot be judged; the problem is on ply 0 (the start)
    text = '[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"]\n\n1. e4 e5 2. Sf3 Sc6'
    s = N.read_score(text)
    assert not s.ok and s.plies == 0 and s.moves == []
    (problem,) = s.problems
    assert (problem.ply, problem.problem) == (0, "unreadable")
    assert "FEN" in problem.written and "keine gültige Stellung" in problem.message
    assert problem.line("de").startswith("Ausgangsstellung: ") and problem.line("en").startswith("Start position: ")
    assert len(s.entries) == 4                        # still listed, checked for form only
    # a FEN that parses but is no position (no black king) is reported the same way
    s = N.read_score('[FEN "8/8/8/8/8/8/8/R3K3 w - - 0 1"]\n\n1. Ta2')
    # (the reason was python-chess's English "no black king" inside the German message)
    assert s.problems[0].ply == 0 and "kein schwarzer König" in s.problems[0].message and s.plies == 0
    # a Chess960 FEN without a Variant header is read as Chess960 (FIDE Laws Guidelines II, Chess960)
    s = N.read_score('[FEN "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1"]\n\n1. O-O O-O-O')
    assert s.ok and s.start.chess960
    d = N.read_score(text).as_dict()
    assert d["plies"] == 0 and d["problems"][0]["ply"] == 0


def test_split_games_of_a_pgn_file_with_several_games():
    # announce and export read only the first game of a file with several
    from blindchess.language.notation import split_games
    text = ('[White "A"]\n\n1. e4 {[%clk 0:01:00]} e5 *\n[White "B"]\n[Black "C"]\n\n1. d4 d5\n2. c4 *\n\n'
            '[Event "no moves"]\n')
    parts = split_games(text)
    assert len(parts) == 3
    assert [N.read_score(p).plies for p in parts] == [2, 3, 0]
    assert split_games("1. e4 e5 2. Sf3") == ["1. e4 e5 2. Sf3"] and split_games("  \n") == []
