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
import pytest

from blindchess.scenario import HeadlessFront, TableAction, play, read_script
from blindchess.scenario.runner import line_input
from blindchess.storage import InputId, read_journal
from blindchess.table import Claims, ClockPress, SightedMove, Table, TableSetup, TactileMove, Tick
from tests.support.paths import SCENARIOS


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


#: Scripts with every kind of input of the Laws' procedures: the sealer absent at resumption and the reply sealed
#: by his opponent (Guidelines I.9 c), a player too late (I.10), the game annulled (I.12 b), adjourned before the
#: session's end (I.1 b), a clock set by the arbiter (I.13), claims on the clock, the set-up and a touched piece
#: (Appendix A a, A b), an illegal move corrected by agreement (Appendix B), an incorrect claim (Art. 9.5.3).
LAWS_SCRIPTS = ("adjournment_absent_sealer_mates", "adjournment_before_the_session_end", "adjournment_clock_wrongly_set",
                "adjournment_position_cannot_be_re_established", "adjournment_responder_late",
                "adjournment_sealer_absent", "blitz_illegal_move_corrected_by_agreement", "rapid_set_up_claimed",
                "rapid_touch_move_claimed", "claim_threefold_wrong")

#: What the program journals of itself (a restart, the game closed), not an input of the game.
PROGRAM = {"note", "reopened", "journal-length", "session-start-copy"}


class TwiceFront(HeadlessFront):
    """Every input given twice in a row with the same identity, as a device link that repeats itself."""

    def handle(self, command, now, ident=None):
        super().handle(command, now, ident)
        if ident is not None:
            super().handle(command, now, ident)


def journaled(journal) -> list[tuple]:
    return [(e["type"], e["t"], e.get("input")) for e in read_journal(journal).events if e["type"] not in PROGRAM]


@pytest.mark.parametrize("name", LAWS_SCRIPTS)
def test_each_input_of_the_laws_procedures_given_twice_is_applied_once(name, tmp_path):
    script = read_script(SCENARIOS / f"{name}.scn", "de")
    once, twice = tmp_path / "once.jsonl", tmp_path / "twice.jsonl"
    play(script, HeadlessFront(), once)
    play(script, TwiceFront(), twice)
    assert journaled(twice) == journaled(once)
    assert {e[0] for e in journaled(once)} & {"sealed-move", "adjourned", "envelope-opened", "claim", "result",
                                              "correction-agreed", "clock-set"} or table_claims(once)


def table_claims(journal) -> list[str]:
    """The claims the table judged itself (a wrong set-up, touch-move), as noted in the journal."""
    return [e["text"] for e in read_journal(journal).events if e["type"] == "note" and e.get("kind") == "table-claim"]


@pytest.mark.parametrize("name", LAWS_SCRIPTS)
def test_after_the_game_every_line_of_its_script_given_again_changes_nothing(name, tmp_path):
    # the program restarted on the finished (or adjourned) journal, the whole script given again, each line
    # with its identity: the journal holds them all, nothing is applied a second time
    script = read_script(SCENARIOS / f"{name}.scn", "de")
    journal = tmp_path / "g.jsonl"
    play(script, HeadlessFront(), journal)
    before = journaled(journal)
    end = max(a.t for a in script.actions)
    table = Table.resume(journal, end)
    held = table.session.held("script")
    assert held is not None and held == read_journal(journal).inputs["script"]
    for action in script.actions:
        if isinstance(action, TableAction):
            # every line up to the last one that changed the game is held; one after it was refused (a result
            # given after the mate, a clock pointed out too late) and is refused again, changing nothing
            assert table.session.holds(line_input(action)) == (action.line <= held.number)
            table.handle(action.command, end, line_input(action))
    table.close()
    assert journaled(journal) == before
