"""The blind player's placement replaced before his move is made (FIDE Laws D.2.3, D.2.8): a peg moved on, or
another move placed, replaces the placement of that half-move on the tactile board — also later in the game; the
move is made when the announcement matches the placement that stands."""

from __future__ import annotations

import chess

from blindchess.game import Player, Session
from blindchess.game.events import BoardMove, MoveMade, Placed

M = chess.Move.from_uci


def opened() -> Session:
    """Bernd (White, blind) against Sabine after 1.e4 e5, both boards showing it."""
    s = Session.new(Player("Bernd Blind", True), Player("Sabine Sehend"), "90+30", now=0.0)
    s.start_clock(0.0)
    s.board_move("tactile", M("e2e4"), 1.0)
    s.announce(M("e2e4"), "e4", 1.5)
    s.press_clock(chess.WHITE, 2.0)
    s.board_move("sighted", M("e2e4"), 2.5)
    s.board_move("sighted", M("e7e5"), 3.0)
    s.press_clock(chess.BLACK, 3.5)
    s.board_move("tactile", M("e7e5"), 4.0)
    return s


def test_a_peg_moved_on_replaces_the_placement_of_its_half_move():
    s = opened()
    s.board_move("tactile", M("d2d3"), 5.0)
    moved_on = s.board_move("tactile", M("d3d4"), 6.0)
    board_moves = [e for e in moved_on if isinstance(e, BoardMove)]
    assert [(e.uci, e.ply, e.replaces, e.role) for e in board_moves] == [("d2d4", 3, True, "own")]
    assert [(e.ply, e.uci) for e in moved_on if isinstance(e, Placed)] == [(3, "d2d4")]
    assert [m.uci() for m in s.snapshot.moves("tactile")] == ["e2e4", "e7e5", "d2d4"]
    made = s.announce(M("d2d4"), "d4", 7.0)
    assert [(e.ply, e.uci) for e in made if isinstance(e, MoveMade)] == [(3, "d2d4")]


def test_another_move_placed_replaces_the_placement():
    s = opened()
    s.board_move("tactile", M("g1f3"), 5.0)
    other = s.board_move("tactile", M("b1c3"), 6.0)
    assert [(e.uci, e.ply, e.replaces) for e in other if isinstance(e, BoardMove)] == [("b1c3", 3, True)]
    assert [m.uci() for m in s.snapshot.moves("tactile")] == ["e2e4", "e7e5", "b1c3"]
    assert s.snapshot.plies == 2
