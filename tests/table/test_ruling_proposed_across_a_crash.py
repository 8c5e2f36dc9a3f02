"""The boards parted when the program was killed: reopened, the arbiter's view proposes the same D.2.9 ruling
at once, before anything else happens; once the ruling is applied there is none to propose."""

from __future__ import annotations

from blindchess.table.commands import ArbiterApply, SightedMove, Tick
from tests.support.table import Run, blind_move


def test_the_proposed_ruling_is_there_again_after_a_crash(tmp_path):
    run = Run(journal=tmp_path / "g.jsonl", time_control="90+30", blind="white")
    assert run.table.proposal is None
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(SightedMove("d2d4"), 3.0)                  # the wrong mirror: the boards part
    run.handle(Tick(), 4.0)
    before = run.table.proposal
    assert before is not None and before.kind != "none"
    run.crash_and_resume(10.0)
    after = run.table.proposal
    assert after is not None and (after.kind, after.explain("de")) == (before.kind, before.explain("de"))
    run.handle(ArbiterApply(), 12.0)
    run.handle(Tick(), 13.0)
    assert run.table.proposal is None
    run.crash_and_resume(20.0)
    assert run.table.proposal is None
