"""The game's positions as the arbiter and the rulings read them (FIDE Laws D.2.9: the position after a half-move
of the game): each a copy without the moves that led to it, none for a half-move not made."""

from __future__ import annotations

import chess
import pytest

from blindchess.game import Player, Session

M = chess.Move.from_uci


def test_each_position_of_the_game_is_a_copy_without_its_moves_and_none_exists_past_the_game():
    s = Session.new(Player("Anna"), Player("Bert"), None, now=0.0)
    s.import_moves([M(m) for m in ("e2e4", "e7e5", "g1f3")], 1.0)
    after_two = s.position(2)
    assert after_two.board_fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR"
    assert after_two.turn == chess.WHITE and after_two.move_stack == []
    after_two.push(M("b1c3"))                               # a copy: the game is unchanged
    assert s.position(2).board_fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR"
    assert s.position(0) == chess.Board() and s.position(3).move_stack == []
    assert [m.uci() for m in s.game_board().move_stack] == ["e2e4", "e7e5", "g1f3"]
    for plies in (-1, 4):
        with pytest.raises(IndexError):
            s.position(plies)
