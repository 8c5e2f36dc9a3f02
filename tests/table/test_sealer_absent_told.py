"""The sealer absent at resumption (Guidelines I.9 c): everybody is told who sealed and is not there, and that the
other player may seal her reply in a new envelope."""

from __future__ import annotations

from blindchess.base import tr
from tests.support.scenario_report import run


def test_the_absent_sealer_and_the_player_who_may_seal_her_reply_are_named(capsys, tmp_path):
    r = run("adjournment_sealer_absent.scn", capsys, "--journal", str(tmp_path / "game.jsonl"))
    text = tr("table.sealer_absent", "de", name="Sabine Sehend", absent="Bernd Blind")
    assert [e["t"] for e in r.of("shown") if e["text"] == text] == [86400.0]
