"""``blindchess export``: every format from a PGN file and a journal; bad input changes nothing."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import wave

import chess
import chess.pgn
import pytest

from blindchess import braille
from blindchess.cli import main
from test_records_games import as_game, chess960_game, rich_game


@pytest.fixture
def pgn_file(tmp_path):
    start, moves = rich_game()
    path = tmp_path / "game.pgn"
    path.write_text(str(as_game(start, moves, White="Müller, Anna", Black="Smith, John")), encoding="utf-8")
    return path, start, moves


def test_pgn_and_braille_formats(pgn_file, tmp_path, capsys):
    path, start, moves = pgn_file
    assert main(["export", str(path), "--format", "pgn", "-o", str(tmp_path / "out.pgn")]) == 0
    game = chess.pgn.read_game(io.StringIO((tmp_path / "out.pgn").read_text(encoding="utf-8")))
    assert list(game.mainline_moves()) == moves
    assert main(["export", str(path), "--format", "brf", "--lang", "en", "--width", "32",
                 "--page-length", "10", "-o", str(tmp_path / "out.brf")]) == 0
    data = (tmp_path / "out.brf").read_bytes()
    text = data.decode("ascii")
    for page in text.split("\f"):
        lines = page.split("\r\n")[:-1]
        assert len(lines) <= 10 and all(len(line) <= 32 and set(line) <= braille.BRF_CHARS for line in lines)
    assert braille.read_brf(text, lang="en").moves == moves
    assert main(["export", str(path), "--format", "braille", "-o", str(tmp_path / "out.txt")]) == 0
    uni = (tmp_path / "out.txt").read_bytes().decode("utf-8")
    assert braille.unicode_to_brf(uni) == braille.game_to_brf(game, "de")
    assert "geschrieben" in capsys.readouterr().out


def test_chess960_pdf_from_cli(tmp_path):
    start, moves = chess960_game()
    path = tmp_path / "960.pgn"
    path.write_text(str(as_game(start, moves)), encoding="utf-8")
    assert main(["export", str(path), "-f", "pdf", "-o", str(tmp_path / "sheet.pdf")]) == 0
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF-")
    assert main(["export", str(path), "-f", "pgn", "-o", str(tmp_path / "960.out.pgn")]) == 0
    assert '[Variant "Chess960"]' in (tmp_path / "960.out.pgn").read_text(encoding="utf-8")


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_wav_from_a_journal(tmp_path):
    from test_records import _journal_game

    journal = tmp_path / "game.jsonl"
    _journal_game(journal)
    target = tmp_path / "game.wav"
    assert main(["export", str(journal), "--format", "wav", "-o", str(target)]) == 0
    with wave.open(str(target), "rb") as w:
        assert w.getnframes() / w.getframerate() > 2
    assert main(["export", str(journal), "--format", "wav", "--per-move", "-o", str(tmp_path / "moves")]) == 0
    assert sorted(p.name for p in (tmp_path / "moves").iterdir()) == ["001-w.wav", "002-b.wav"]


@pytest.mark.parametrize("content,args,needle", [
    ("1. e4 e5 2. Ke3 *", [], "Ke3"),
    (None, [], "gibt es nicht"),
    ("1. e4 e5 *", ["--format", "docx"], "docx"),
    ("1. e4 e5 *", ["--lang", "xx"], "xx"),
    ("1. e4 e5 *", ["--width", "5"], "12"),
    ("1. e4 e5 *", ["--page-length", "1"], "3"),
])
def test_bad_input_gets_a_german_message_and_writes_nothing(tmp_path, capsys, content, args, needle):
    path = tmp_path / "in.pgn"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    target = tmp_path / "out.brf"
    target.write_text("old", encoding="utf-8")
    fmt = [] if "--format" in args else ["--format", "brf"]
    code = main(["export", str(path), *fmt, *args, "-o", str(target)])
    assert code != 0
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["out.brf"] + (["in.pgn"] if content else []))


def test_broken_journal_message_in_english(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("BLINDCHESS_LANG", "en")
    journal = tmp_path / "broken.jsonl"
    journal.write_bytes(b"\x00\xff garbage\n{not json\n")
    assert main(["export", str(journal), "--format", "pgn", "-o", str(tmp_path / "x.pgn")]) != 0
    err = capsys.readouterr().err
    assert str(journal) in err and "Traceback" not in err
    assert not (tmp_path / "x.pgn").exists()


def test_unwritable_target(pgn_file, tmp_path, capsys):
    path, _, _ = pgn_file
    assert main(["export", str(path), "-f", "pgn", "-o", str(tmp_path / "no" / "such" / "x.pgn")]) == 2
    assert "kann nicht geschrieben werden" in capsys.readouterr().err


def test_subprocess_export(pgn_file, tmp_path):
    path, _, moves = pgn_file
    target = tmp_path / "s.brf"
    done = subprocess.run([sys.executable, "-m", "blindchess", "export", str(path), "--format", "brf",
                           "-o", str(target)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert braille.read_brf(target.read_text(encoding="ascii")).moves == moves
    bad = subprocess.run([sys.executable, "-m", "blindchess", "export", str(tmp_path / "missing.pgn"),
                          "--format", "pgn", "-o", str(tmp_path / "m.pgn")], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2 and "gibt es nicht" in bad.stderr and "Traceback" not in bad.stderr


def test_long_pdf_in_a_subprocess_exits_cleanly(tmp_path):
    """Three pages of drawing: PySide6 6.12 on Python 3.11 used to abort at exit ("deallocating None")."""
    from test_records_games import special_game

    start, moves = special_game(11, plies=260)
    path = tmp_path / "long.pgn"
    path.write_text(str(as_game(start, moves)), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "blindchess", "export", str(path), "-f", "pdf",
                           "-o", str(tmp_path / "long.pdf")], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    assert "deallocating" not in done.stderr
    assert (tmp_path / "long.pdf").read_bytes().startswith(b"%PDF-")
