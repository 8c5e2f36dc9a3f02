"""Lines of another program's journal followed (a broadcast, a second screen): each input that fits the game is
applied with its outcomes; one that does not fit — edited by hand, or of a game that went otherwise — is named and
leaves nothing behind: neither the input nor anything it caused is in the game's record (FIDE Laws Art. 8.1)."""

from __future__ import annotations

import chess

from blindchess.game import Player, Session
from blindchess.game.events import BoardMove, MoveMade


def test_a_line_that_does_not_fit_leaves_nothing_in_the_record_and_the_next_that_fits_is_applied(tmp_path):
    path = tmp_path / "g.jsonl"
    s = Session.new(Player("Anna"), Player("Bert"), None, journal=path, now=0.0)
    s.close()
    follower = Session.load(path)
    before = len(follower.events)
    problems = follower.follow([
        (2, {"seq": 2, "type": "board-move", "t": 1.0, "board": "sighted", "uci": "e2e5"}),     # no legal move
        (3, {"seq": 3, "type": "board-move", "t": 2.0, "board": "sighted", "uci": "e2e4"}),
    ])
    assert problems == [(2, "inapplicable")]
    added = follower.events[before:]
    assert [(type(e), e.seq) for e in added if isinstance(e, (BoardMove, MoveMade))] == [(BoardMove, 3), (MoveMade, 4)]
    assert not [e for e in follower.events if isinstance(e, BoardMove) and e.uci == "e2e5"]
    assert follower.snapshot.game_moves == (chess.Move.from_uci("e2e4"),)


def test_a_press_line_of_an_earlier_version_without_its_half_move_counts_as_the_next_press(tmp_path):
    # earlier versions wrote no half-move on a press: the press completes the move just made (D.2.4)
    path = tmp_path / "g.jsonl"
    s = Session.new(Player("Anna"), Player("Bert"), "90+30", journal=path, now=0.0)
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 5.0)
    s.close()
    follower = Session.load(path)
    seq = follower.events[-1].seq
    assert follower.follow([(9, {"seq": seq + 1, "type": "press", "t": 6.0, "color": "white"})]) == []
    assert follower.snapshot.plies_pressed == 1
    follower.follow([(10, {"seq": seq + 3, "type": "board-move", "t": 7.0, "board": "sighted", "uci": "e7e5"}),
                     (11, {"seq": seq + 5, "type": "press", "t": 9.0, "color": "black"})])
    assert follower.snapshot.plies_pressed == 2
