"""One writer per journal: a second window of blindchess (or a second table in one process) cannot write
into a game another one is writing — two writers would interleave their lines. A killed program lets go
of the journal (the system closes its files), so the game reopens after a crash."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import chess
import pytest

from blindchess.base.errors import UserError
from blindchess.game import Player, Session
from blindchess.storage import journal
from blindchess.table.table import Table, TableSetup


def test_a_second_writer_of_the_same_journal_is_refused(tmp_path):
    path = tmp_path / "game.jsonl"
    first = journal.JournalWriter(path)
    with pytest.raises(journal.JournalInUse):
        journal.JournalWriter(path)
    first.close()
    second = journal.JournalWriter(path)        # closed: free again
    second.close()


def test_a_game_open_in_one_window_is_not_reopened_in_another(tmp_path, monkeypatch):
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    path = tmp_path / "game.jsonl"
    s = Session.new(Player("Anna"), Player("Bert", True), "90+30", journal=path, now=0.0)
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 1.0)
    before = path.read_bytes()
    with pytest.raises(UserError) as refused:
        Session.open(path, 5.0)
    assert "schon in einem anderen blindchess-Fenster geöffnet" in refused.value.message
    assert path.read_bytes() == before           # nothing written by the refused window
    assert Session.load(path).snapshot.plies == 1         # reading it (journal show, broadcast) is never refused
    s.abandon()                                  # the first program is killed
    again = Session.open(path, 6.0)
    assert again.snapshot.plies == 1
    again.close()


def test_a_table_in_another_process_holds_the_journal(tmp_path):
    path = tmp_path / "game.jsonl"
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys
            from blindchess.table.table import Table, TableSetup
            table = Table.new(TableSetup(white="Anna", black="Bert", blind="black", tactile="none"), 0.0,
                              journal={str(path)!r})
            print("ready", flush=True)
            sys.stdin.readline()
            table.close()
        """)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        with pytest.raises(UserError):
            Table.resume(path, 10.0)
    finally:
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait()
    resumed = Table.resume(path, 20.0)          # the other program ended: the game goes on here
    assert resumed.session.snapshot.white.name == "Anna"
    resumed.close()


def test_the_command_line_says_so_in_one_line(tmp_path, capsys, monkeypatch):
    from blindchess.cli import main

    monkeypatch.setenv("BLINDCHESS_LANG", "en")
    path = tmp_path / "game.jsonl"
    table = Table.new(TableSetup(white="Anna", black="Bert", blind="black", tactile="none", lang="en"), 0.0,
                      journal=path)
    script = tmp_path / "more.scn"
    script.write_text("@white Anna\n@black Bert\n@blind black\n@tactile none\n@lang en\n1.0 sighted move e2e4\n",
                      encoding="utf-8")
    assert main(["scenario", "run", str(script), "--journal", str(path), "--resume"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "already open in another blindchess window" in err[0]
    table.close()
