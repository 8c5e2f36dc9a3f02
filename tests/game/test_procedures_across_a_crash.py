"""The new procedures replayed from the journal: a crash at any of their steps leaves the game as it would
have been (the reply sealed while the sealer was absent, Guidelines I.9 c; the sealing before the session's
end, I.1 b; a clock corrected at resumption, I.13; an illegal move corrected by agreement, Appendix B, or by
the arbiter, A c)."""

from __future__ import annotations

import json

import pytest

from blindchess.cli import main
from blindchess.game import Session
from blindchess.storage.journal import read_journal
from tests.support.scenario_report import SCENARIOS, Report


def _final(capsys, script) -> dict:
    assert main(["scenario", "run", str(script), "--json"]) == 0
    return Report([json.loads(line) for line in capsys.readouterr().out.splitlines()]).final


@pytest.mark.parametrize(("name", "crash_at"), [
    ("adjournment_sealer_absent.scn", 86401.0),          # the sealer absent: the responder is to seal
    ("adjournment_sealer_absent.scn", 86461.0),          # the reply sealed, the absent player's clock running
    ("adjournment_before_the_session_end.scn", 3005.0),  # adjourned before the session's end, not yet sealed
    ("adjournment_clock_wrongly_set.scn", 90025.0),      # the clocks corrected
    ("blitz_illegal_move_corrected_by_agreement.scn", 12.5),    # one player agreed
    ("blitz_illegal_move_corrected_by_agreement.scn", 14.0),    # corrected
    ("rapid_both_kings_in_check.scn", 4.0),              # the arbiter acted
])
def test_a_crash_changes_nothing_of_the_procedure(name, crash_at, capsys, tmp_path):
    text = (SCENARIOS / name).read_text(encoding="utf-8")
    whole = _final(capsys, SCENARIOS / name)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line[:1].isdigit() and float(line.split()[0]) > crash_at)
    crashed = tmp_path / "crashed.scn"
    crashed.write_text("\n".join(lines[:at] + [f"{crash_at} app crash"] + lines[at:]) + "\n", encoding="utf-8")
    final = _final(capsys, crashed)
    for key in ("boards", "game", "plies", "scores", "result"):
        assert final[key] == whole[key], key


def test_the_journal_of_a_reply_sealed_while_the_sealer_was_absent_reads_back(capsys, tmp_path):
    journal = tmp_path / "game.jsonl"
    assert main(["scenario", "run", str(SCENARIOS / "adjournment_sealer_absent.scn"), "--journal", str(journal)]) == 0
    capsys.readouterr()
    lines = read_journal(journal).events
    opened = [ev for ev in lines if ev.get("type") == "envelope-opened"]
    assert [ev.get("sealer_absent") for ev in opened] == [True, False]
    assert all(ev.get("valid") is None for ev in lines if ev.get("type") == "sealed-move")
    game = Session.load(journal)
    assert [m.uci() for m in game.snapshot.game_moves][4:6] == ["f1b5", "a7a6"]
    assert not game.snapshot.adjourned and not game.snapshot.reply_sealing
