"""Ruling behaviours a mutation run showed unpinned ("tests that would fail if it broke").

FIDE Laws D.2.9: when the boards differ, the arbiter reads both scores; a score is read
move by move up to its first problem, and that problem is named at its half-move.
"""

from __future__ import annotations

import chess
import pytest

from blindchess.laws.ruling import reading_of, rule

SCORES_WITH_A_SLIP = [
    "1.e4 e5 2.Sf3 Sc6 3.Lb5 a6 4.Lz9 Sf6",        # numbers glued to the moves
    "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. Lz9 Sf6",    # numbers as words of their own
]


@pytest.mark.parametrize("text", SCORES_WITH_A_SLIP)
def test_a_slip_in_a_plain_score_is_named_at_its_half_move_and_the_moves_before_it_stand(text):
    score = reading_of(text, chess.Board(), "de")
    assert score.plies == 6
    assert score.problem is not None
    assert (score.problem.index, score.problem.written, score.problem.problem) == (6, "Lz9", "unreadable")
    assert score.written == ["e4", "e5", "Sf3", "Sc6", "Lb5", "a6", "Lz9", "Sf6"]


@pytest.mark.parametrize("text", ["1. e4 {gut} e5 2. Sf3", "1. e4 e5 (1... c5) 2. Sf3"])
def test_comments_and_variations_in_a_score_are_no_moves(text):
    score = reading_of(text, chess.Board(), "de")
    assert score.problem is None
    assert score.written == ["e4", "e5", "Sf3"]
    assert [m.uci() for m in score.moves] == ["e2e4", "e7e5", "g1f3"]


def _board_after(*ucis: str) -> chess.Board:
    board = chess.Board()
    for uci in ucis:
        board.push_uci(uci)
    return board


def test_scores_given_as_moves_that_agree_set_the_boards_to_their_position():
    # D.2.9 first case: the scores agree, both boards differ from them: both are set to the scores' position
    # (the scores as the session keeps them: moves, not text)
    score = [chess.Move.from_uci("e2e4"), chess.Move.from_uci("e7e5")]
    ruling = rule(score, score, _board_after("d2d4").fen(), int(chess.Board().occupied), occupancy_only=["b"])
    assert ruling.kind == "correct-board"
    assert ruling.position.board_fen() == _board_after("e2e4", "e7e5").board_fen()
    assert ruling.fix_boards == ["a", "b"]


def test_an_occupancy_board_counts_as_one_move_ahead_only_when_it_shows_such_a_move():
    # D.2.9: boards one move ahead of agreeing scores mean the scores lag behind (nothing is undone);
    # a peg-board (occupancy only) showing something else is simply wrong
    two_ahead = _board_after("e2e4", "e7e5", "g1f3", "b8c6")
    one_ahead = _board_after("e2e4", "e7e5", "g1f3")
    start = int(chess.Board().occupied)
    wrong = rule("1. e4 e5", "1. e4 e5", start, two_ahead.fen(), occupancy_only=["a"])
    assert wrong.kind == "correct-board" and not wrong.scores_behind
    behind = rule("1. e4 e5", "1. e4 e5", int(one_ahead.occupied), two_ahead.fen(), occupancy_only=["a"])
    assert behind.kind == "correct-board" and behind.scores_behind
