"""A draw offer answered (FIDE Laws Art. 9.1): only the opponent answers it; declined, it is recorded as declined by
him and the game goes on without an offer standing; an answer without an offer, or to one's own offer, changes
nothing; accepted, the game is drawn by agreement and the clock stops (Art. 9.1.2, 5.2.3)."""

from __future__ import annotations

import chess

from blindchess.game import Player, Session
from blindchess.game.events import DrawAnswer, DrawDeclined, GameEnd


def test_only_the_opponent_answers_a_draw_offer():
    s = Session.new(Player("Anna"), Player("Bert"), "90+30", now=0.0)
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 1.0)
    assert [type(e) for e in s.answer_draw(chess.BLACK, True, 2.0)] == [DrawAnswer]     # no offer: nothing
    s.offer_draw(chess.WHITE, 3.0)
    assert [type(e) for e in s.answer_draw(chess.WHITE, True, 4.0)] == [DrawAnswer]     # his own offer: nothing
    assert s.snapshot.draw_offer == chess.WHITE and s.snapshot.result is None
    declined = s.answer_draw(chess.BLACK, False, 5.0)
    assert [(type(e), getattr(e, "color", None)) for e in declined] == [(DrawAnswer, "black"), (DrawDeclined, "black")]
    assert s.snapshot.draw_offer is None
    s.offer_draw(chess.BLACK, 6.0)
    accepted = s.answer_draw(chess.WHITE, True, 7.0)
    assert [(e.result, e.reason) for e in accepted if isinstance(e, GameEnd)] == [("1/2-1/2", "agreement")]
    assert s.snapshot.draw_offer is None and not s.clock.ticking
