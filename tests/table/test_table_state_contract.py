"""The table's shared state keeps its promises to the parts and to the front ends: what a board reported is
handled one item at a time, each settled with the game before the next; an unsubscribed front end gets no
more events; a move given as UCI is said in the game's notation where it is legal and left as given
where it is not; a player or piece that is not there is named as such."""

from __future__ import annotations

import chess

from blindchess.base import tr
from blindchess.table.commands import SightedMove
from blindchess.table.events import TableEvent
from tests.support.table import Run


def test_items_reported_together_are_handled_in_order_each_after_what_the_one_before_caused():
    state = Run(time_control="90+30", blind="white", tactile="none").table.state
    handled: list[str] = []

    def handle(item: str) -> None:
        handled.append(item)
        if item in ("a", "c"):                       # this one gives the game something to do first
            state.then(lambda: handled.append(f"after {item}"))

    state.queue.clear()
    state.each(["a", "b", "c", "d"], handle)
    while state.queue:
        step = state.queue.popleft()
        assert callable(step)
        step()
    assert handled == ["a", "after a", "b", "c", "after c", "d"]


def test_items_that_cause_nothing_are_handled_at_once_not_behind_what_was_queued_before():
    state = Run(time_control="90+30", blind="white", tactile="none").table.state
    handled: list[str] = []
    state.queue.clear()
    state.then(lambda: handled.append("queued before"))
    state.each(["a", "b"], handled.append)
    assert handled == ["a", "b"]
    step = state.queue.popleft()
    assert callable(step)
    step()
    assert handled == ["a", "b", "queued before"]


def test_an_unsubscribed_front_end_gets_no_more_events_and_may_unsubscribe_twice():
    run = Run(time_control="90+30", blind="white", tactile="none")
    seen: list[TableEvent] = []
    unsubscribe = run.table.subscribe(seen.append)
    run.handle(SightedMove("e2e4"), 1.0)
    assert seen
    count = len(seen)
    unsubscribe()
    unsubscribe()
    run.handle(SightedMove("e7e5"), 2.0)
    assert len(seen) == count and len(run.events) > count


def test_a_move_given_as_uci_is_said_in_notation_where_legal_and_left_as_given_elsewhere():
    state = Run(time_control="90+30", blind="white", tactile="none").table.state
    assert state.uci_words("sighted", "g1f3") == "Sf3"
    assert state.uci_words("sighted", "e2e5") == "e2e5"          # legal nowhere
    assert state.uci_words("sighted", "zz99") == "zz99"          # no move at all


def test_nobody_and_no_piece_are_named_as_such():
    state = Run(time_control="90+30", blind="white", tactile="none").table.state
    assert state.name(None) == ""
    assert state.name(chess.WHITE) == state.game.player(chess.WHITE).name
    assert state.piece_words(None) == tr("session.piece_unknown", "de")
    assert state.piece_words(chess.Piece(chess.KNIGHT, chess.WHITE)) == tr("session.piece_wn", "de")
