"""Event, site, date and round reach the PGN and the scoresheet PDF; the time control is printed
as a person reads it. The PDF is rendered and read back with pdftotext."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from blindchess.adapters.exports.scoresheet_pdf import date_text, time_control_text

HEADERS = {"Event": "IBCA Weltmeisterschaft", "Site": "Rhodos GRE", "Date": "2026.12.01", "Round": "7"}


def _journal(path: Path, time_control: str) -> None:
    """A real journaled game with the headers the new-game dialog / a scenario's @event … fill."""
    from blindchess.game import Player, Session

    s = Session.new(Player("Anna", visually_impaired=True), Player("Bob"), time_control, journal=path,
                    now=0.0, headers=dict(HEADERS))
    s.start_clock(0.0)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 1.0)
    s.announce(chess.Move.from_uci("e2e4"), "Bauer Emil vier", 1.5)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 2.0)
    s.press_clock(chess.WHITE, 2.5)
    s.close()


def _export(source: Path, fmt: str, target: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, BLINDCHESS_LANG="de", QT_QPA_PLATFORM="offscreen")
    return subprocess.run([sys.executable, "-m", "blindchess", "export", str(source), "--format", fmt,
                           "-o", str(target)], capture_output=True, text=True, env=env)


def _pdf_text(path: Path) -> str:
    if shutil.which("pdftotext") is None:   # poppler-utils: see Makefile TEST_DEBS
        pytest.skip("pdftotext not installed")
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def test_the_pgn_carries_event_site_date_and_round_from_the_session(tmp_path):
    journal = tmp_path / "game.jsonl"
    _journal(journal, "90+30")
    done = _export(journal, "pgn", tmp_path / "game.pgn")
    assert done.returncode == 0, done.stderr
    pgn = (tmp_path / "game.pgn").read_text(encoding="utf-8")
    for tag, value in HEADERS.items():
        assert f'[{tag} "{value}"]' in pgn
    # the seven-tag roster comes first and in order (PGN standard 8.1.1)
    tags = [line.split()[0][1:] for line in pgn.splitlines() if line.startswith("[")]
    assert tags[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert '[TimeControl "5400+30"]' in pgn   # the PGN keeps the standard's form


def test_the_scoresheet_pdf_prints_the_headers_and_a_readable_time_control(tmp_path):
    journal = tmp_path / "game.jsonl"
    _journal(journal, "40/5400+30:1800+30")
    target = tmp_path / "sheet.pdf"
    done = _export(journal, "pdf", target)
    assert done.returncode == 0, done.stderr
    text = " ".join(_pdf_text(target).split())
    for value in ("IBCA Weltmeisterschaft", "Rhodos GRE", "01.12.2026", "Anna", "Bob"):
        assert value in text
    assert "Runde 7" in text or "Runde" in text and " 7 " in text
    assert "40 Züge in 90 min + 30 s pro Zug, danach 30 min + 30 s pro Zug für den Rest der Partie" in text
    assert "5400" not in text and "1800" not in text


@pytest.mark.parametrize(("tag", "de", "en"), [
    ("5400+30", "90 min + 30 s pro Zug", "90 min + 30 s per move"),
    ("300+3", "5 min + 3 s pro Zug", "5 min + 3 s per move"),
    ("7200", "2 h", "2 h"),
    ("40/7200:3600", "40 Züge in 2 h, danach 1 h für den Rest der Partie",
     "40 moves in 2 h, then 1 h for the rest of the game"),
    ("40/6000+30:20/3000+30:900+30",
     "40 Züge in 100 min + 30 s pro Zug, danach 20 Züge in 50 min + 30 s pro Zug, "
     "danach 15 min + 30 s pro Zug für den Rest der Partie",
     "40 moves in 100 min + 30 s per move, then 20 moves in 50 min + 30 s per move, "
     "then 15 min + 30 s per move for the rest of the game"),
    ("5400d5", "90 min, 5 s Verzögerung pro Zug", "90 min, 5 s delay per move"),
    ("900", "15 min", "15 min"),
    ("150+5", "150 min + 5 s pro Zug", "150 min + 5 s per move"),   # a single base below 180 is minutes
    ("10830", "3 h 30 s", "3 h 30 s"),
    ("-", "", ""),
    ("?", "", ""),
    ("nonsense", "nonsense", "nonsense"),   # unreadable: kept as written, never dropped
])
def test_time_control_as_a_person_reads_it(tag, de, en):
    assert time_control_text(tag, "de") == de
    assert time_control_text(tag, "en") == en


def test_dates_as_a_person_writes_them():
    assert date_text("2026.12.01", "de") == "01.12.2026"
    assert date_text("2026.12.01", "en") == "2026-12-01"
    assert date_text("2026.??.??", "de") == "2026"
    assert date_text("", "de") == ""
