"""An announcement not understood is asked back with the moves it may have meant (D.2.1); the blind player may
hear the question again, and answers by naming the square alone when that picks one of them."""

from __future__ import annotations

from blindchess.table.commands import BlindSays, Tick
from blindchess.table.events import Asked, Moved, Said
from tests.support.table import Run


def test_the_question_is_said_again_and_answered_by_the_square_alone():
    run = Run(time_control="90+30", blind="white", tactile="none")
    run.handle(BlindSays("Bauer Dora vier", 1.0), 1.0)     # no such square: which move?
    run.handle(Tick(), 5.0)
    question = "Meinten Sie Hector drei, Felix drei, Cäsar drei oder Anna drei?"
    assert [(a.text, a.candidates) for a in run.of(Asked)] == [(question, ("h2h3", "f2f3", "c2c3", "a2a3"))]
    run.handle(BlindSays("wiederholen", 1.0), 10.0)
    run.handle(Tick(), 20.0)
    assert [s.text for s in run.of(Said) if s.t >= 10.0] == [question]
    run.handle(BlindSays("Felix drei", 1.0), 30.0)          # a pawn or a knight move alone; the question's pawn
    run.handle(Tick(), 40.0)
    assert len(run.of(Asked)) == 1
    assert [m.uci for m in run.of(Moved)] == ["f2f3"]
