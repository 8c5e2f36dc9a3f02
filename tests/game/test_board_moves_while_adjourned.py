"""Moves on the boards while the game is adjourned (FIDE Guidelines I.1): the player to move seals his move, he does
not make it on the board — a move of his on his board is refused and the board unchanged; the mirror of the move
made before the adjournment is still carried out on the other board (D.2.3)."""

from __future__ import annotations

import chess

from blindchess.game import Player, Session
from blindchess.game.events import BoardMove, BoardMoveRejected, Mirrored

M = chess.Move.from_uci


def test_the_sealer_s_move_on_his_board_is_refused_and_the_last_mirror_still_made():
    # Sabine (White, sighted) plays 1.e4; before Bernd (Black, blind) mirrored it on the tactile board, the arbiter
    # adjourns; Bernd is to seal his reply
    s = Session.new(Player("Sabine Sehend"), Player("Bernd Blind", True), "90+30", now=0.0)
    s.start_clock(0.0)
    s.board_move("sighted", M("e2e4"), 1.0)
    s.press_clock(chess.WHITE, 2.0)
    s.adjourn(3.0)
    mirror = s.board_move("tactile", M("e2e4"), 4.0)
    assert [(type(e), e.ply) for e in mirror if isinstance(e, (BoardMove, Mirrored))] == [(BoardMove, 1), (Mirrored, 1)]
    reply = s.board_move("tactile", M("e7e5"), 5.0)
    assert [(type(e), e.board, e.uci, e.reason) for e in reply] == [(BoardMoveRejected, "tactile", "e7e5", "adjourned")]
    assert len(s.snapshot.moves("tactile")) == 1 and s.snapshot.plies == 1
    white = s.board_move("sighted", M("e7e5"), 6.0)             # the mirror of a move not made
    assert [(type(e), e.reason) for e in white] == [(BoardMoveRejected, "not-made")]
