"""What the blind player says besides his moves: "j'adoube" before adjusting his pegs (FIDE Laws Art. 4.2.1:
the pegs adjusted are no touch, D.2.2), his intention to castle shown to his opponent, "yes" or "no" when
nothing is asked, and speech at a table without a blind player refused."""

from __future__ import annotations

from blindchess.base import tr
from blindchess.table.commands import BlindSays, Tick
from blindchess.table.events import Refused, Said, Shown, Touched
from tests.support.table import Run


def test_j_adoube_makes_the_pegs_adjusted_no_touch():
    run = Run(time_control="90+30", blind="white", white="Bernd Blind", black="Sabine Sehend")
    run.handle(BlindSays("j'adoube", 1.0), 1.0)
    assert tr("table.adjust", "de", name="Bernd Blind") in [e.text for e in run.of(Shown)]
    run.lift("e2", 2.0)                                  # adjusted: lifted and put back
    run.place("e2", 2.3)
    run.lift("g1", 2.6)
    run.place("g1", 2.9)
    run.handle(Tick(), 5.0)
    assert run.of(Touched) == []


def test_the_intention_to_castle_is_shown_and_noted():
    run = Run(time_control="90+30", blind="white", white="Bernd Blind", black="Sabine Sehend")
    run.handle(BlindSays("ich rochiere", 1.0), 1.0)
    assert tr("table.castle_intent", "de", name="Bernd Blind") in [e.text for e in run.of(Shown)]
    assert [n.text for n in run.table.session.snapshot.notes] == ["ich rochiere"]
    assert not run.of(Refused)


def test_yes_or_no_with_nothing_asked_is_answered_that_there_is_no_question():
    run = Run(time_control="90+30", blind="white")
    run.handle(BlindSays("ja", 1.0), 1.0)
    run.handle(Tick(), 30.0)
    assert [s.text for s in run.of(Said) if s.t >= 1.0] == [tr("table.no_question", "de")]
    assert run.table.game.result is None


def test_speech_at_a_table_without_a_blind_player_is_refused():
    run = Run(time_control="90+30", blind="none", tactile="none")
    run.handle(BlindSays("Bauer Eva vier", 1.0), 1.0)
    assert [(r.what, r.text) for r in run.of(Refused)] == [("speech", tr("table.no_blind_player", "de"))]
    assert run.table.game.plies == 0
