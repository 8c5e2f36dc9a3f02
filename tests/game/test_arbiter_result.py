"""The arbiter's result: any PGN result ends the game with its reason; "*" reopens a game he had ended (a
result set by mistake), an "annulled" "*" does not; anything else is refused and changes nothing."""

from __future__ import annotations

import chess
import pytest

from blindchess.game import Player, Session
from blindchess.game.events import GameEnd


def _game(journal=None) -> Session:
    s = Session.new(Player("Anna"), Player("Bert", visually_impaired=True), "90+30", now=0.0, journal=journal)
    s.start_clock(0.0)
    return s


def test_the_arbiter_reopens_a_game_he_ended_by_mistake_and_it_goes_on(tmp_path):
    journal = tmp_path / "g.jsonl"
    s = _game(journal)
    events = s.set_result("1-0", 10.0)
    assert [(e.result, e.reason) for e in events if isinstance(e, GameEnd)] == [("1-0", "arbiter")]
    assert s.snapshot.result == "1-0"
    s.set_result("*", 20.0)
    assert s.snapshot.result is None and s.snapshot.result_reason is None
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 30.0)
    assert s.snapshot.plies == 1
    s.close()
    again = Session.load(journal)                       # the journal comes to the same
    assert again.snapshot.result is None and again.snapshot.plies == 1


def test_a_result_that_is_no_pgn_result_is_refused_and_changes_nothing():
    s = _game()
    with pytest.raises(ValueError):
        s.set_result("2-0", 10.0)
    assert s.snapshot.result is None


def test_an_annulled_game_ends_with_no_result_and_is_not_reopened_by_it():
    s = _game()
    s.set_result("*", 10.0, reason="annulled")
    assert s.snapshot.result == "*" and s.snapshot.result_reason == "annulled"
