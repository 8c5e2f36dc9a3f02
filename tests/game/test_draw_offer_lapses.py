"""A draw offer not answered lapses when the opponent plays on (FIDE Laws Art. 9.1.2.3: rejected by his move):
accepted afterwards it draws nothing; a new offer may then be made and accepted."""

from __future__ import annotations

import chess

from blindchess.game import Player, Session


def test_an_offer_not_answered_lapses_once_the_opponent_has_moved_and_pressed():
    s = Session.new(Player("Anna"), Player("Bert", visually_impaired=True), "90+30", now=0.0)
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 5.0)
    s.offer_draw(chess.WHITE, 6.0)
    s.press_clock(chess.WHITE, 7.0)
    assert s.snapshot.draw_offer == chess.WHITE
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 8.0)        # the mirror on the pegs
    s.board_move("tactile", chess.Move.from_uci("e7e5"), 10.0)
    s.announce(chess.Move.from_uci("e7e5"), "Bauer Eva fünf", 10.5)
    s.press_clock(chess.BLACK, 11.0)                                   # he played on: the offer lapses
    assert s.snapshot.draw_offer is None
    s.answer_draw(chess.BLACK, True, 12.0)
    assert s.snapshot.result is None
    s.offer_draw(chess.WHITE, 13.0)
    s.answer_draw(chess.BLACK, True, 14.0)
    assert s.snapshot.result == "1/2-1/2"
