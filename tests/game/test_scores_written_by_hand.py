"""Game scores written by hand (FIDE Laws D.2.7, D.2.10 c, Art. 8.1): each entry read in the position its half-move
starts from; an entry that cannot be read, or that differs from the move made, is a deviation (D.2.9 compares the
scores); the entries after one that cannot be read are not read ("after-problem"); an entry amended is read again;
there is no entry before the first or beyond the one after the last."""

from __future__ import annotations

import chess
import pytest

from blindchess.game import Player, Session
from blindchess.game.events import Score, ScoreDeviation

M = chess.Move.from_uci


def written(events) -> list[tuple]:
    return [(type(e).__name__, e.index, e.text, e.uci, e.problem) for e in events if isinstance(e, (Score, ScoreDeviation))]


def test_entries_are_read_in_turn_and_the_first_unreadable_one_stops_the_reading():
    s = Session.new(Player("Anna"), Player("Bert", True), None, now=0.0)
    assert written(s.write("blind", "e4", 1.0)) == [("Score", 0, "e4", "e2e4", None)]
    assert written(s.write("blind", "e5", 2.0)) == [("Score", 1, "e5", "e7e5", None)]
    assert written(s.write("blind", "Xy9", 3.0)) == [("Score", 2, "Xy9", None, "unreadable"),
                                                     ("ScoreDeviation", 2, "Xy9", None, "unreadable")]
    assert written(s.write("blind", "Sf3", 4.0)) == [("Score", 3, "Sf3", None, "after-problem"),
                                                     ("ScoreDeviation", 3, "Sf3", None, "after-problem")]
    assert written(s.write("blind", "d4", 5.0, index=0)) == [("Score", 0, "d4", "d2d4", None)]
    assert list(s.snapshot.score("blind")) == ["d4", "e5", "Xy9", "Sf3"]
    assert s.score_read("blind").moves == [M("d2d4"), M("e7e5")]
    for index in (-1, 5):
        with pytest.raises(ValueError):
            s.write("blind", "a3", 6.0, index=index)
    assert written(s.write("blind", "Sc3", 7.0, index=4))[0] == ("Score", 4, "Sc3", None, "after-problem")


def test_an_entry_amended_is_read_in_the_game_s_position_and_a_deviation_names_the_move_made():
    s = Session.new(Player("Anna"), Player("Bert", True), None, now=0.0)
    s.import_moves([M("e2e4"), M("e7e5"), M("g1f3")], 1.0)
    assert list(s.snapshot.score("sighted")) == ["e4", "e5", "Nf3"]
    amended = s.write("sighted", "Sf6", 2.0, index=1)       # Black's Ng8-f6, not the e7-e5 made
    deviation = [e for e in amended if isinstance(e, ScoreDeviation)]
    assert [(e.index, e.uci, e.game) for e in deviation] == [(1, "g8f6", "e7e5")]
    assert written(s.write("sighted", "e5", 3.0, index=1)) == [("Score", 1, "e5", "e7e5", None)]
    illegal = s.write("sighted", "Sc3", 4.0, index=1)       # a white knight's move on Black's half-move
    assert [(e.index, e.problem, e.game) for e in illegal if isinstance(e, ScoreDeviation)] == [(1, "illegal", "e7e5")]
