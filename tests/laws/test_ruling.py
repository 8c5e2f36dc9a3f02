"""The arbiter's ruling under FIDE Laws D.2.9: every branch, on real positions."""

from __future__ import annotations

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blindchess.laws.ruling import ClockAt, parse_board, reading_of, rule


def play(sans: list[str], start: chess.Board | None = None) -> chess.Board:
    board = (start or chess.Board()).copy()
    for san in sans:
        board.push_san(san)
    return board


RUY = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"]
RUY_DE = ["e4", "e5", "Sf3", "Sc6", "Lb5", "a6", "La4", "Sf6"]


def test_boards_agree_is_no_ruling():
    board = play(RUY)
    r = rule(RUY, RUY_DE, board, board.copy())
    assert r.kind == "none" and r.boards_agree and r.sheets_agree
    assert r.agreed_plies == 8 and r.fix_boards == []
    assert "D.2.9" in r.explain("de")


@pytest.mark.parametrize("wrong", ["a", "b"])
def test_wrong_mirror_with_agreeing_scores_corrects_that_board(wrong):
    right = play(RUY)
    # The Nf6 mirrored as Ne7 on one board.
    bad = play(RUY[:-1] + ["Nge7"])
    boards = (bad, right) if wrong == "a" else (right, bad)
    r = rule(RUY_DE, RUY, *boards)
    assert r.kind == "correct-board"
    assert r.fix_boards == [wrong]
    assert sorted(r.squares[wrong]) == ["e7", "f6"]
    assert r.position.board_fen() == right.board_fen()
    assert r.sheets_agree and r.agreed_plies == 8
    words = r.explain("en")
    assert "D.2.9" in words and "f6" in words and "e7" in words
    # What to do on the wrong board, square by square.
    changes = {c.square: (c.now, c.target) for c in r.changes[wrong]}
    assert changes == {"e7": ("n", None), "f6": (None, "n")}


def test_scores_compared_by_meaning_across_languages_and_speech():
    board = play(["e4", "e5", "Nf3"])
    spoken = ["Bauer Eva vier", "Bauer Eva fünf", "Springer Felix drei"]
    r = rule(["e4", "e5", "Nf3"], spoken, board, board)
    assert r.sheets_agree and r.agreed_plies == 3
    r = rule("1. e4 e5 2. Sf3", "1.e4 e5 2.Nf3", board, board)
    assert r.sheets_agree and r.agreed_plies == 3


def test_scores_differ_at_ply_k_boards_part_later_retrace_to_k():
    # Score A: 3. Bb5; score B: 3. Bc4 — the boards part only at move 4.
    a = "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O"
    b = "1. e4 e5 2. Sf3 Sc6 3. Lc4 Sf6 4. d3"
    board_a = play(["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "O-O"])
    board_b = play(["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "d3"])  # same bishop, different 4th move
    history = {0: (5400, 5400), 1: (5390, 5400), 2: (5390, 5377.5), 3: (5371, 5377.5), 4: (5371, 5350.25),
               5: (5300, 5350.25), 6: (5300, 5300), 7: (5250, 5300)}
    r = rule(a, b, board_a, board_b, clock_history=history)
    assert r.kind == "retrace"
    assert not r.sheets_agree and r.agreed_plies == 4
    assert r.disagreement.index == 4 and r.disagreement.number == 3 and r.disagreement.white
    assert (r.disagreement.written_a, r.disagreement.written_b) == ("Bb5", "Lc4")
    assert r.position.board_fen() == play(["e4", "e5", "Nf3", "Nc6"]).board_fen()
    assert r.position.turn == chess.WHITE
    assert r.fix_boards == ["a", "b"]
    # The clocks go back to the exact times recorded right after ply 4.
    assert r.clocks == ClockAt(ply=4, white=5371.0, black=5350.25, restore=True, exact=True)
    text = r.explain("de")
    assert "D.2.9" in text and "Zug 3 von Weiß" in text and "1:29:31" in text


@pytest.mark.parametrize("bad, problem", [("Nf7", "illegal"), ("xyz!!", "unreadable")])
def test_illegal_or_unreadable_written_move_is_a_disagreement_at_that_ply(bad, problem):
    a = ["e4", "e5", bad, "Nc6"]
    b = ["e4", "e5", "Nf3", "Nc6"]
    board_a = play(["e4", "e5", "Nf3", "Nc6"])
    board_b = play(["e4", "e5", "Nc3", "Nc6"])
    r = rule(a, b, board_a, board_b)
    assert r.kind == "retrace" and r.agreed_plies == 2
    assert r.disagreement.problem_a == problem and r.disagreement.problem_b is None
    assert r.position.board_fen() == play(["e4", "e5"]).board_fen()
    assert bad in r.explain("en")


def test_one_score_only_shorter_is_reported_not_a_reason_to_retrace():
    a = RUY
    b = RUY_DE[:-1]  # the last move not yet written
    right = play(RUY)
    wrong = play(RUY[:-1] + ["Nge7"])
    r = rule(a, b, right, wrong)
    assert r.sheets_agree and r.shorter == "b" and r.missing_plies == 1
    assert r.kind == "correct-board" and r.fix_boards == ["b"]
    assert r.position.board_fen() == right.board_fen()
    assert "kürzer" in r.explain("de")
    # Both boards right: nothing to do, the shorter score is still reported.
    r = rule(a, b, right, right.copy())
    assert r.kind == "none" and r.shorter == "b"


def test_both_scores_with_the_same_illegal_move_still_retrace():
    a = ["e4", "e5", "Ke3"]
    b = ["e4", "e5", "Ke3"]
    r = rule(a, b, play(["e4", "e5", "Ke2"]), play(["e4", "e5", "Qe2"]))
    assert r.kind == "retrace" and r.agreed_plies == 2


def test_castling_at_the_point_of_divergence():
    moves = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"]
    right = play(moves)
    # Board B: the king went to g1 but the rook stayed on h1 (Kf1-like mistake shown as placement).
    bad = right.copy()
    bad.remove_piece_at(chess.F1)
    bad.set_piece_at(chess.H1, chess.Piece(chess.ROOK, chess.WHITE))
    r = rule("1. e4 e5 2. Sf3 Sc6 3. Lc4 Lc5 4. 0-0", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O", right, bad)
    assert r.kind == "correct-board" and r.fix_boards == ["b"]
    assert sorted(r.squares["b"]) == ["f1", "h1"]
    # Scores differ at the castling: one wrote 0-0, the other Kf1.
    r = rule(["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"], ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "Kf1"],
             right, play(moves[:-1] + ["Kf1"]))
    assert r.kind == "retrace" and r.agreed_plies == 6
    assert r.position.has_kingside_castling_rights(chess.WHITE)


def test_en_passant_at_the_point_of_divergence():
    moves = ["e4", "a6", "e5", "d5", "exd6"]
    right = play(moves)
    # The captured pawn on d5 was not removed from board A (D.2.3 a).
    bad = right.copy()
    bad.set_piece_at(chess.D5, chess.Piece(chess.PAWN, chess.BLACK))
    r = rule(["e4", "a6", "e5", "d5", "exd6 e.p."], ["e4", "a6", "e5", "d5", "exd6"], bad, right)
    assert r.sheets_agree and r.kind == "correct-board"
    assert r.fix_boards == ["a"] and r.squares["a"] == ["d5"]
    assert r.changes["a"][0].target is None


def test_promotion_at_the_point_of_divergence():
    start = chess.Board("8/4P3/8/8/8/8/k7/7K w - - 0 1")
    queen = play(["e8=Q"], start)
    knight = play(["e8=N"], start)
    # Same meaning in two languages: e8D = e8=Q.
    r = rule(["e8D"], ["e8=Q"], queen, knight, start=start)
    assert r.kind == "correct-board" and r.fix_boards == ["b"] and r.squares["b"] == ["e8"]
    # An occupancy-only tactile board cannot tell queen from knight: nothing it could fix.
    r = rule(["e8D"], ["e8=Q"], queen, knight, start=start, occupancy_only=["b"])
    assert r.kind == "none"
    # The scores name different pieces: retrace to before the promotion.
    r = rule(["e8D"], ["e8S"], queen, knight, start=start)
    assert r.kind == "retrace" and r.agreed_plies == 0
    assert r.position.board_fen() == start.board_fen()


def test_chess960_castling_divergence():
    start = chess.Board.from_chess960_pos(99)  # BQNRNKRB: castling swaps king f1 and rook g1
    moves = ["g3", "g6", "Nf3", "Nf6", "O-O"]
    right = play(moves, start)
    wrong = play(moves[:-1] + ["Kg2"], start)
    r = rule(["g3", "g6", "Sf3", "Sf6", "0-0"], moves, right, wrong, start=start)
    assert r.kind == "correct-board" and r.fix_boards == ["b"]
    assert r.position.board_fen() == right.board_fen()
    assert r.position.chess960
    # And with the scores differing at the castling:
    r = rule(moves, moves[:-1] + ["Kg2"], right, wrong, start=start)
    assert r.kind == "retrace" and r.agreed_plies == 4
    assert r.position.has_castling_rights(chess.WHITE)


def test_boards_as_fen_placement_and_occupancy_masks():
    right = play(RUY)
    wrong = play(RUY[:-1] + ["Nge7"])
    r = rule(RUY, RUY, right.board_fen(), wrong.fen())
    assert r.kind == "correct-board" and r.fix_boards == ["b"]
    r = rule(RUY, RUY, right, wrong.occupied)  # a tactile board sensing occupancy only
    assert r.fix_boards == ["b"] and sorted(r.squares["b"]) == ["e7", "f6"]
    assert {c.now for c in r.changes["b"]} == {"?", None}
    with pytest.raises(ValueError):
        parse_board("not a fen")


def test_boards_agree_but_scores_differ_is_reported():
    board = play(["e4", "e5"])
    r = rule(["e4", "e5"], ["e4", "c5"], board, board)
    assert r.kind == "none" and not r.sheets_agree
    assert r.disagreement.index == 1
    assert "Formular" in r.explain("de")


def test_to_dict_has_the_reconcile_fields():
    right = play(RUY)
    d = rule(RUY, RUY, right, play(RUY[:-1] + ["Nge7"]), clock_history=[(8, 5000, 4000)]).to_dict()
    for key in ("boards_agree", "sheets_agree", "agreed_plies", "ruling", "position_fen", "fix_boards", "clocks"):
        assert key in d
    assert d["position_fen"] == right.fen()
    assert d["clocks"]["restore"] is False


def test_scores_read_once_for_identical_entries():
    a = reading_of(RUY, chess.Board())
    b = reading_of(RUY_DE, chess.Board(), reference=a)
    assert b.moves == a.moves and b.problem is None


# -- property: the ruling always leaves both boards on a position reachable from the common prefix --

@st.composite
def games(draw):
    board = chess.Board()
    moves = []
    for _ in range(draw(st.integers(0, 24))):
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        if not legal:
            break
        m = legal[draw(st.integers(0, len(legal) - 1))]
        moves.append(m)
        board.push(m)
    return moves


@st.composite
def variant(draw, base):
    """A score or board line: a prefix of ``base``, then possibly other legal moves."""
    keep = draw(st.integers(0, len(base)))
    board = chess.Board()
    moves = list(base[:keep])
    for m in moves:
        board.push(m)
    for _ in range(draw(st.integers(0, 3))):
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        if not legal:
            break
        m = legal[draw(st.integers(0, len(legal) - 1))]
        moves.append(m)
        board.push(m)
    return moves


def sans(moves):
    board = chess.Board()
    out = []
    for m in moves:
        out.append(board.san(m))
        board.push(m)
    return out


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_property_ruling_position_reachable_from_common_prefix(data):
    base = data.draw(games())
    score_a = data.draw(variant(base))
    score_b = data.draw(variant(base))
    line_a = data.draw(variant(base))
    line_b = data.draw(variant(base))
    if data.draw(st.booleans()) and score_a:
        written_a = sans(score_a)
        written_a[data.draw(st.integers(0, len(written_a) - 1))] = "Zz9"  # an unreadable entry
    else:
        written_a = sans(score_a)
    board_a, board_b = chess.Board(), chess.Board()
    for m in line_a:
        board_a.push(m)
    for m in line_b:
        board_b.push(m)
    r = rule(written_a, sans(score_b), board_a, board_b)

    ra, rb = reading_of(written_a, chess.Board()), reading_of(sans(score_b), chess.Board())
    common = 0
    while common < min(ra.plies, rb.plies) and ra.moves[common] == rb.moves[common]:
        common += 1
    assert r.agreed_plies == common
    # The position is the common prefix, extended only by moves that one score records.
    assert r.moves[:common] == ra.moves[:common]
    replay = chess.Board()
    for m in r.moves:
        assert replay.is_legal(m)
        replay.push(m)
    assert replay.board_fen() == r.position.board_fen()
    if r.kind == "retrace":
        assert len(r.moves) == common
    elif r.kind == "none" and r.scores_behind and len(r.moves) > max(ra.plies, rb.plies):
        # both scores a move behind boards that agree: the boards' move stands (nothing undone)
        assert r.sheets_agree and r.moves[:-1] in (ra.moves, rb.moves)
        assert r.position.board_fen() == board_a.board_fen()
    elif len(r.moves) > common:
        assert r.sheets_agree and r.moves in (ra.moves, rb.moves)
    # Applying the ruling: every board named is set to the position; then both boards are equal.
    after = {"a": board_a.board_fen(), "b": board_b.board_fen()}
    for which in r.fix_boards:
        after[which] = r.position.board_fen()
    if r.kind != "none":
        assert after["a"] == after["b"] == r.position.board_fen()
    else:
        assert board_a.board_fen() == board_b.board_fen()


def test_scores_a_move_behind_the_boards_are_pointed_out():
    # Neither score has the last move yet; board A shows it, board B mirrored it wrongly.
    right = play(RUY)
    wrong = play(RUY[:-1] + ["Nge7"])
    r = rule(RUY[:-1], RUY_DE[:-1], right, wrong)
    assert r.kind == "correct-board" and r.fix_boards == ["a", "b"] and r.scores_behind
    assert "notiert" in r.explain("de")
    assert not rule(RUY, RUY, right, wrong).scores_behind


# -- every written entry is read by blindchess.language.notation (no second reader) ------------------

CASTLE_READY = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]


@pytest.mark.parametrize("text, hint", [("Rf1", None), ("Rf1", "de"), ("Rf1", "nl"), ("Rf1", "fr"),
                                        ("Rf1", "en"), ("Tf1", "de"), ("Kf1", "de"), ("Df1", "fr"), ("O-O", None)])
def test_an_entry_means_what_notation_read_says(text, hint):
    """"R" is a rook in English and a king in French: only notation.read decides, with the sheet's language."""
    from blindchess.language import notation

    board = play(CASTLE_READY)
    reading = notation.read(board, text, hint)
    move, problem, _ = notation.read_entry(board, text, "en", hint=hint)
    assert (move, problem) == (reading.move, reading.problem)


def test_a_letter_the_sheets_language_does_not_have_is_not_guessed_as_english():
    # A German sheet ("S", "L") with "Rf1": a rook (English) or a king (French)? notation says ambiguous,
    # so it is a disagreement at that ply, not silently the rook move of the English sheet.
    german = ["e4", "e5", "Sf3", "Sc6", "Lc4", "Lc5", "Rf1"]
    english = CASTLE_READY + ["Rf1"]
    board = play(english)
    sheet = reading_of(german, chess.Board())
    assert sheet.plies == 6 and sheet.problem is not None and sheet.problem.problem == "ambiguous"
    r = rule(english, german, board, board.copy())
    assert not r.sheets_agree and r.disagreement.index == 6 and r.disagreement.problem_b == "ambiguous"


def test_every_entry_goes_through_notation_read(monkeypatch):
    from blindchess.language import notation

    calls = []
    real = notation.read

    def counting(board, text, lang=None):  # the real reader, counted
        calls.append(text)
        return real(board, text, lang)

    monkeypatch.setattr(notation, "read", counting)
    a = reading_of(RUY, chess.Board())
    assert calls == RUY and a.plies == 8
    calls.clear()
    reading_of(RUY_DE, chess.Board(), reference=a)  # another language: every entry read again
    assert calls == RUY_DE
    calls.clear()
    same = reading_of(list(RUY), chess.Board(), reference=a)  # identical entries, same position: cached
    assert calls == [] and same.moves == a.moves
    calls.clear()
    rule("1. e4 e5 2. Nf3 Nc6", "1. e4 e5 2. Sf3 Sc6", play(RUY[:4]), play(RUY[:4]))
    assert calls == ["e4", "e5", "Nf3", "Nc6", "e4", "e5", "Sf3", "Sc6"]


# -- both scores a move behind boards that agree ------------------------------------------------

@pytest.mark.parametrize("tactile", ["full", "occupancy"])
def test_scores_behind_boards_that_agree_is_no_ruling_and_undoes_nothing(tactile):
    # Both boards show 4... Nf6 correctly; neither score has it yet.
    board = play(RUY)
    other = board.copy() if tactile == "full" else board.occupied
    r = rule(RUY[:-1], RUY_DE[:-1], board, other, occupancy_only=() if tactile == "full" else ("b",))
    assert r.kind == "none" and r.boards_agree and r.fix_boards == [] and r.squares == {}
    assert r.scores_behind and r.sheets_agree and r.agreed_plies == 7
    # the position that stands is the boards' one: the correct move is not taken back
    assert r.position.board_fen() == board.board_fen() and r.moves[-1] == chess.Move.from_uci("g8f6")
    assert "complete the scores" in r.explain("en") and "Nf6" in r.explain("en")
    assert "ergänzen" in r.explain("de")
    d = r.to_dict()
    assert d["ruling"] == "none" and d["scores_behind"] is True and d["position_fen"] == board.fen()
    # scores up to date: no such remark
    assert not rule(RUY, RUY_DE, board, board.copy()).scores_behind


def test_one_agreed_half_move_is_singular_in_the_explanation():
    # "(1 Halbzüge)" / "(1 half-moves)"
    board = play(["e4"])
    r = rule(["e4"], ["e4"], board, board.copy())
    assert r.agreed_plies == 1
    assert "(1 Halbzug)" in r.explain("de") and "(1 half-move)" in r.explain("en")
    r = rule(["e4", "e5"], ["e4", "c5"], play(["e4", "e5"]), play(["e4", "c5"]))
    assert r.kind == "retrace" and r.agreed_plies == 1
    assert "(1 Halbzug, " in r.explain("de") and "(1 half-move, " in r.explain("en")
    assert "(8 Halbzüge)" in rule(RUY, RUY_DE, play(RUY), play(RUY)).explain("de")


def test_scores_agree_and_a_wrong_promotion_piece_on_one_board_is_correct_board():
    # Both scores: e8=N; the sighted board shows a queen, the tactile board senses occupancy only.
    start = chess.Board("8/4P3/8/8/8/8/k7/7K w - - 0 1")
    sighted = start.copy()
    sighted.push(chess.Move.from_uci("e7e8q"))
    tactile = start.copy()
    tactile.push(chess.Move.from_uci("e7e8n"))
    r = rule(["e8=N"], ["e8S"], sighted, tactile, start=start, occupancy_only=("b",))
    assert r.sheets_agree and r.kind == "correct-board" and r.fix_boards == ["a"]
    assert r.squares == {"a": ["e8"]}
    assert r.clocks is None     # no clock history given; a correct-board never restores times
    assert r.position.piece_at(chess.E8) == chess.Piece(chess.KNIGHT, chess.WHITE)
    # Both boards show pieces: the same ruling.
    both = rule(["e8=N"], ["e8S"], sighted, tactile, start=start)
    assert both.kind == "correct-board" and both.fix_boards == ["a"]


def test_two_column_score_with_move_numbers_out_of_order():
    # A two-column sheet copied row by row: 1, 4, 2, 5, 3, 6 — read in the order of the numbers.
    text = "1. e4 e5      4. O-O Nf6\n2. Nf3 Nc6    5. d3 d6\n3. Bc4 Bc5    6. c3 O-O"
    r = reading_of(text, chess.Board(), "en")
    game = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1g1", "g8f6", "d2d3", "d7d6", "c2c3", "e8g8"]
    assert [m.uci() for m in r.moves] == game and r.problem is None


@pytest.mark.parametrize("occupancy_only", [(), ("b",)])
def test_scores_behind_when_the_unwritten_move_is_castling(occupancy_only):
    score = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5"
    board = chess.Board()
    for uci in ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1g1"):
        board.push_uci(uci)
    r = rule(score, score, board, board.copy(), occupancy_only=occupancy_only)
    assert r.kind == "none" and r.scores_behind
    assert r.moves[-1] == chess.Move.from_uci("e1g1") and len(r.moves) == 7
    assert "0-0" in r.explain("en")
