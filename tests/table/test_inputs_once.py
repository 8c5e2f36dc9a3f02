"""Every input applied once, across a crash: each input's identity is kept in its unit of the journal.

A front that may give an input again — a script played on after the program was killed, a device link that
repeats itself — names each input (:class:`blindchess.storage.InputId`); the table applies an input whose
identity the game holds (journaled before the crash, or applied since) not a second time. Inputs given without
an identity are numbered by the program's own count (origin ``"app"``), which goes on across a restart.
FIDE Laws Art. 9.5.3: an incorrect claim gives the opponent two minutes — once.
"""

from __future__ import annotations

import json

import chess

from blindchess.storage import InputId, read_journal
from blindchess.table import Claims, ClockPress, SightedMove, Table, TableSetup, TactileMove, Tick


def setup() -> TableSetup:
    return TableSetup(white="Sabine Sehend", black="Bernd Blind", blind="black", time_control="90+30",
                      tactile="none")


def claim_after_two_moves(journal) -> Table:
    table = Table.new(setup(), 0.0, journal)
    table.handle(SightedMove(chess.Move.from_uci("e2e4")), 2.0, InputId("script", 1))
    table.handle(ClockPress(chess.WHITE), 2.5, InputId("script", 2))
    table.handle(TactileMove(chess.Move.from_uci("e2e4")), 3.0, InputId("script", 3))     # the mirror
    return table


def added(journal) -> list[float]:
    return [e["seconds"] for e in read_journal(journal).events if e["type"] == "time-added"]


def test_a_claim_given_again_with_its_identity_is_not_applied_twice(tmp_path):
    journal = tmp_path / "g.jsonl"
    table = claim_after_two_moves(journal)
    claim = Claims("sighted", "threefold")
    table.handle(claim, 4.0, InputId("script", 4))
    white = table.session.clock.remaining(chess.WHITE, 4.0)
    table.handle(claim, 4.0, InputId("script", 4))          # the same input again
    table.handle(claim, 4.5, InputId("script", 3))          # an earlier one of the same origin: applied before
    assert added(journal) == [120.0]
    assert table.session.clock.remaining(chess.WHITE, 4.0) == white
    table.handle(claim, 5.0, InputId("script", 5))          # a new claim is a new input (Art. 9.5.3 again)
    assert added(journal) == [120.0, 120.0]
    table.close()


def test_after_a_crash_the_inputs_the_journal_holds_are_skipped_and_the_next_applied(tmp_path):
    journal = tmp_path / "g.jsonl"
    table = claim_after_two_moves(journal)
    table.handle(Claims("sighted", "threefold"), 4.0, InputId("script", 4))
    table.abandon()                                          # killed: the journal as written
    resumed = Table.resume(journal, 4.0)
    assert resumed.session.holds(InputId("script", 4)) and not resumed.session.holds(InputId("script", 5))
    for n in (1, 2, 3, 4):                                   # the whole script given again
        resumed.handle(Claims("sighted", "threefold"), 4.0, InputId("script", n))
    assert added(journal) == [120.0]
    resumed.handle(Claims("sighted", "threefold"), 6.0, InputId("script", 5))      # the next line: applied
    assert added(journal) == [120.0, 120.0] and read_journal(journal).inputs["script"] == InputId("script", 5)
    resumed.close()


def test_the_program_numbers_its_own_inputs_and_goes_on_after_a_restart(tmp_path):
    journal = tmp_path / "g.jsonl"
    table = Table.new(setup(), 0.0, journal)
    table.handle(SightedMove(chess.Move.from_uci("e2e4")), 2.0)
    table.handle(Tick(), 2.2)                                # time passing records nothing: no unit
    table.handle(ClockPress(chess.WHITE), 2.5)
    table.abandon()
    resumed = Table.resume(journal, 3.0)
    resumed.handle(TactileMove(chess.Move.from_uci("e2e4")), 4.0)
    resumed.close()
    inputs = [json.loads(line).get("input") for line in journal.read_text(encoding="utf-8").splitlines()]
    assert [i for i in inputs if i] == ["app:1", "app:3", "app:4"]
    assert read_journal(journal).inputs == {"app": InputId("app", 4)}
