"""The game's event log forgets the events from a number on (a journal line that does not fit the game):
they are gone from the game's events and are not written with the unit they were recorded in."""

from __future__ import annotations

from blindchess.game.events import Mirrored
from blindchess.game.log import EventLog
from blindchess.storage import read_journal


def test_events_forgotten_inside_a_unit_are_neither_kept_nor_journaled(tmp_path):
    log = EventLog(0.0)
    log.open_journal(tmp_path / "game.jsonl")
    with log.unit():
        log.record(Mirrored(t=1.0, board="sighted", ply=1))
        log.record(Mirrored(t=1.0, board="blind", ply=1))
        log.record(Mirrored(t=1.0, board="blind", ply=2))
        log.drop_since(2)
    log.close()
    assert [(e.seq, e.board, e.ply) for e in log.events] == [(1, "sighted", 1)]
    written = read_journal(tmp_path / "game.jsonl").events
    assert [(e["seq"], e["board"], e["ply"]) for e in written if e.get("type") == "mirrored"] == [(1, "sighted", 1)]
