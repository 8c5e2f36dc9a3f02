"""A move typed for a board: read as UCI, as notation or as the spoken phrase; anything else refused with its
reason and nothing made. An empty text given to the voice is not said, and what finished meanwhile is still
reported as said."""

from __future__ import annotations

from blindchess.table.commands import Reading, SightedMove, Tick
from blindchess.table.events import Moved, Refused, Said
from tests.support.table import Run, blind_move


def _black_blind() -> Run:
    return Run(time_control="90+30", blind="black", white="Sabine Sehend", black="Bernd Blind")


def test_a_move_typed_for_the_sighted_board_may_be_the_spoken_phrase():
    run = _black_blind()
    run.handle(SightedMove("Springer Felix drei"), 1.0)
    assert [(m.uci, m.san) for m in run.of(Moved)] == [("g1f3", "Nf3")]
    assert not run.of(Refused)


def test_a_move_typed_that_reads_as_nothing_is_refused_and_nothing_is_made():
    run = _black_blind()
    run.handle(SightedMove("Quatsch mit Soße"), 1.0)
    refused = run.of(Refused)
    assert [r.what for r in refused] == ["move"] and refused[0].text
    run.handle(SightedMove("Springer Bella acht"), 2.0)        # a phrase, but no move of White's
    assert [r.what for r in run.of(Refused)] == ["move", "move"]
    assert run.table.game.plies == 0 and not run.of(Moved)


def test_an_empty_text_is_not_said_and_what_finished_meanwhile_is_still_reported():
    run = Run(time_control="90+30", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)           # "Zug ausgeführt: Eva vier." is said
    before = len(run.of(Said))
    run.handle(Reading("   "), 60.0)                         # long after it finished
    said = run.of(Said)[before:]
    assert [s.text for s in said] == [] or all(s.t < 60.0 for s in said)
    run.handle(Tick(), 90.0)
    assert not [s for s in run.of(Said) if s.t >= 60.0]
    assert [s.text for s in run.of(Said) if s.to == "blind" and "Eva vier" in s.text] == ["Zug ausgeführt: Eva vier."]
