"""Draw offers and the end of the game at the table: the opponent's standing offer accepted by offering a draw
oneself is asked first (Art. 9.1.2), and once the game is over no resignation, offer or claim is taken."""

from __future__ import annotations

from blindchess.base import tr
from blindchess.table.commands import Answers, Claims, OffersDraw, Resigns, Tick
from blindchess.table.events import Asked, GameEnded, Refused
from tests.support.table import Run, blind_move


def test_offering_a_draw_while_the_opponent_s_offer_stands_asks_to_accept_it():
    run = Run(time_control="90+30", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(OffersDraw("blind"), 3.0)
    assert not run.of(Asked)
    run.handle(OffersDraw("sighted"), 5.0)                # "Remis" while his offer stands: accept it?
    asked = run.of(Asked)
    assert [(a.to, a.text, a.candidates) for a in asked] == [
        ("sighted", tr("table.ask_draw_accept", "de"), ("yes", "no"))]
    assert run.table.game.result is None
    run.handle(Answers("sighted", "yes"), 7.0)
    run.handle(Tick(), 8.0)
    assert run.table.game.result == "1/2-1/2"


def test_once_the_game_is_over_no_resignation_offer_or_claim_is_taken():
    run = Run(time_control="90+30", blind="white")
    run.handle(Resigns("sighted"), 1.0)
    run.handle(Answers("sighted", "yes"), 2.0)
    run.handle(Tick(), 3.0)
    assert run.table.game.result == "1-0" and len(run.of(GameEnded)) == 1
    run.handle(Resigns("blind"), 10.0)
    run.handle(OffersDraw("sighted"), 11.0)
    run.handle(Claims("blind", "threefold"), 12.0)
    over = tr("table.game_over", "de")
    assert [(r.t, r.what, r.text) for r in run.of(Refused)] == [
        (10.0, "resign", over), (11.0, "draw", over), (12.0, "claim", over)]
    assert run.table.game.result == "1-0" and not run.of(Asked)[1:]
