"""The rules a game is played under: named by the organiser ("standard", "rapid", "blitz") whatever the time
control, else the ones its time control gives (FIDE Laws Appendices A, B); kept in the journal."""

from __future__ import annotations

import pytest

from blindchess.game import Player, Session


def _new(tc, **kw) -> Session:
    return Session.new(Player("Anna"), Player("Bert", visually_impaired=True), tc, now=0.0, **kw)


@pytest.mark.parametrize(("tc", "named", "kind"), [("90+30", None, "standard"), ("15+10", None, "rapid"),
                                                   ("3+2", None, "blitz"), ("90+30", "blitz", "blitz"),
                                                   ("3+2", "standard", "standard"), ("15+10", "unknown", "rapid")])
def test_the_rules_named_take_precedence_over_those_of_the_time_control(tmp_path, tc, named, kind):
    journal = tmp_path / "g.jsonl"
    s = _new(tc, rules=named, journal=journal, supervised=False)
    assert s.snapshot.rules.kind == kind
    assert s.snapshot.rules.supervised is False
    s.close()
    assert Session.load(journal).snapshot.rules.kind == kind
