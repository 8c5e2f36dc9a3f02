"""A Chess960 game starts from one of the 960 start positions (FIDE Laws Guidelines II.1), numbered 0 to 959; the
position is the numbered one and the game is played as Chess960 (castling as in II.3)."""

from __future__ import annotations

import chess
import pytest

from blindchess.base import UserError
from blindchess.game import Player, Session


@pytest.mark.parametrize("number, rank", [(0, "bbqnnrkr"), (518, "rnbqkbnr"), (959, "rkrnnqbb")])
def test_every_number_from_0_to_959_starts_its_own_position(number, rank):
    s = Session.new(Player("Anna"), Player("Bert"), None, chess960=number, now=0.0)
    board = s.game_board()
    assert board.chess960
    assert "".join(board.piece_at(chess.square(f, 0)).symbol().lower() for f in range(8)) == rank
    assert s.snapshot.chess960_number == number


@pytest.mark.parametrize("number", [-1, 960])
def test_a_number_outside_0_to_959_starts_nothing(number):
    with pytest.raises(UserError):
        Session.new(Player("Anna"), Player("Bert"), None, chess960=number, now=0.0)
