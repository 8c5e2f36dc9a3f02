"""What the front ends read off the table between inputs (the window's board and status line): the language it
speaks, the peg in the blind player's hand, the squares where the pegs differ from the game and whether they
agree, whether the pegs are being set right (j'adoube, D.2.2 — no touch counts meanwhile); and a game closed
on purpose: only an unfinished game's journal notes it."""

from __future__ import annotations

from pathlib import Path

import chess

from blindchess.storage import read_journal
from blindchess.table.commands import Answers, BlindSays, Resigns, SetLanguage, Tick
from blindchess.table.events import Touched
from tests.support.table import Run, blind_move


def test_the_window_reads_the_language_the_peg_in_hand_the_pegs_that_differ_and_the_setting_right() -> None:
    run = Run(blind="white", white="Bernd", black="Sabine")
    table = run.table
    assert (table.lang, table.lifted, table.tactile_mismatch, table.adjusting) == ("de", None, [], False)
    run.handle(SetLanguage("en"), 0.5)
    assert table.lang == "en"
    run.lift("e2", 1.0)
    assert table.lifted == chess.E2
    run.place("e5", 1.2)                     # no move: the pawn two squares too far
    run.handle(Tick(), 3.0)
    assert table.lifted is None
    assert sorted(table.tactile_mismatch) == ["e2", "e5"] and table.tactile_in_sync is False
    run.handle(BlindSays("j'adoube"), 4.0)   # he sets it right: no touch counts meanwhile
    assert table.adjusting is True
    run.lift("e5", 5.0)
    run.place("e2", 5.2)
    run.handle(Tick(), 7.0)
    assert table.tactile_mismatch == [] and table.tactile_in_sync is True
    assert [e.square for e in run.of(Touched)] == ["e2"]
    blind_move(run, "e2e4", "Pawn Eva four", 8.0)
    assert table.game.plies == 1 and table.adjusting is False


def _notes_closed(path: Path) -> int:
    return sum(1 for e in read_journal(path).events if e.get("type") == "note" and e.get("kind") == "table-closed")


def test_closing_notes_only_an_unfinished_game_in_its_journal(tmp_path: Path) -> None:
    going = Run(journal=tmp_path / "going.journal", blind="white")
    going.table.close(5.0)
    assert _notes_closed(tmp_path / "going.journal") == 1
    over = Run(journal=tmp_path / "over.journal", blind="white")
    over.handle(Resigns("sighted"), 1.0)
    over.handle(Answers("sighted", "yes"), 2.0)
    assert over.table.game.result == "1-0"
    lines = len(read_journal(tmp_path / "over.journal").events)
    over.table.close(5.0)
    assert _notes_closed(tmp_path / "over.journal") == 0
    assert len(read_journal(tmp_path / "over.journal").events) == lines
