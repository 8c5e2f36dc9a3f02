"""An answer that is none of the choices is refused, and the refusal names the choices as they are said: the
moves of a move question (FIDE Laws D.2.1) by their spoken words, never by the program's move codes; a yes/no
question by its two words."""

from __future__ import annotations

from blindchess.base import tr
from blindchess.table.commands import Answers, BlindSays, Resigns
from blindchess.table.events import Asked, Refused
from tests.support.table import Run


def _refusals(run: Run) -> list[str]:
    return [r.text for r in run.of(Refused) if r.what == "answer"]


def test_a_move_question_answered_out_of_range_names_its_moves_as_they_are_said():
    run = Run(time_control="90+30", blind="white", tactile="none")
    run.handle(BlindSays("Springer Felix drei", 0.3), 1.0)          # heard unsure: asked about (D.2.1)
    [asked] = run.of(Asked)
    assert asked.candidates == ("g1f3",)
    run.handle(Answers("blind", 2), 2.0)                           # there is no second move to choose
    [text] = _refusals(run)
    assert text == tr("table.no_such_answer", "de", choices="1: Springer Felix drei")
    assert "g1f3" not in text


def test_a_yes_no_question_answered_with_a_number_names_yes_and_no():
    run = Run(time_control="90+30", blind="white", tactile="none")
    run.handle(Resigns("blind"), 1.0)                               # asked to confirm his resignation
    assert [a.candidates for a in run.of(Asked)] == [("yes", "no")]
    run.handle(Answers("blind", 3), 2.0)                           # 1 and 2 are yes and no
    assert _refusals(run) == [tr("table.no_such_answer", "de", choices=tr("table.choices_yes_no", "de"))]
