"""Draw offers and the end of the game at the table: the opponent's standing offer accepted by offering a draw
oneself is asked first (Art. 9.1.2), and once the game is over no resignation, offer or claim is taken."""

from __future__ import annotations

from blindchess.base import tr
from blindchess.table.commands import Answers, BlindSays, Claims, OffersDraw, Resigns, SightedSays, Tick
from blindchess.table.events import Asked, GameEnded, Refused, Shown
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


def test_the_sighted_player_declines_by_saying_no_and_accepts_by_saying_yes_twice():
    run = Run(time_control="90+30", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(BlindSays("Remis", 1.0), 3.0)                 # his offer (Art. 9.1.2)
    assert run.table.game.draw_offer is not None
    run.handle(SightedSays("nein"), 4.0)                     # declined
    assert run.table.game.draw_offer is None and run.table.game.result is None
    run.handle(SightedSays("Quatsch"), 5.0)
    assert tr("table.not_understood", "de", text="Quatsch") in [e.text for e in run.of(Shown)]
    run.handle(BlindSays("Remis", 1.0), 6.0)
    run.handle(SightedSays("ja"), 7.0)                       # asked first
    assert run.table.game.result is None
    assert [(a.to, a.text) for a in run.of(Asked)] == [("sighted", tr("table.ask_draw_accept", "de"))]
    run.handle(SightedSays("ja"), 8.0)
    run.handle(Tick(), 9.0)
    assert run.table.game.result == "1/2-1/2"
