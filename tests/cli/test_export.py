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

from blindchess.cli import main
from blindchess.records import braille
from tests.support.games import as_game, chess960_game, rich_game


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
    from tests.support.games import journal_game

    journal = tmp_path / "game.jsonl"
    journal_game(journal)
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
    ("1. e4 e5 *", ["--notation-lang", "xx"], "xx"),
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
    from tests.support.games import special_game

    start, moves = special_game(11, plies=260)
    path = tmp_path / "long.pgn"
    path.write_text(str(as_game(start, moves)), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "blindchess", "export", str(path), "-f", "pdf",
                           "-o", str(tmp_path / "long.pdf")], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    assert "deallocating" not in done.stderr
    assert (tmp_path / "long.pdf").read_bytes().startswith(b"%PDF-")


def test_a_scoresheet_in_another_notation_is_exported(tmp_path, capsys):
    # a French (or German ...) scoresheet was refused with python-chess's misreading
    # ("b5 (Weiß, Zug 3) ist nicht möglich" — it had taken "Cf3" for a c-pawn move)
    sheet = tmp_path / "partie.txt"
    sheet.write_text("1. e4 e5 2. Cf3 Cc6 3. Fb5 a6 4. Fa4 Cf6 5. O-O Fe7\n", encoding="utf-8")
    target = tmp_path / "partie.pgn"
    assert main(["export", str(sheet), "--format", "pgn", "-o", str(target)]) == 0
    game = chess.pgn.read_game(io.StringIO(target.read_text(encoding="utf-8")))
    assert [m.uci() for m in game.mainline_moves()][:4] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert len(list(game.mainline_moves())) == 10


def test_several_games_export_the_first_with_a_warning(tmp_path, capsys):
    # only the first game was exported, silently
    path = tmp_path / "round.pgn"
    path.write_text('[White "A"]\n[Black "B"]\n\n1. e4 e5 *\n\n[White "C"]\n[Black "D"]\n\n1. d4 d5 *\n',
                    encoding="utf-8")
    target = tmp_path / "out.pgn"
    assert main(["export", str(path), "--format", "pgn", "-o", str(target)]) == 0
    assert "2 Partien" in capsys.readouterr().err
    assert '[White "A"]' in target.read_text(encoding="utf-8")


def test_output_that_is_a_folder_or_a_file_where_a_folder_is_wanted(pgn_file, tmp_path, capsys):
    # "Is a directory" / "File exists" — the operating system's English in a German message
    path, _, _ = pgn_file
    folder = tmp_path / "ausgabe"
    folder.mkdir()
    assert main(["export", str(path), "--format", "pgn", "-o", str(folder)]) == 2
    assert "Ordner" in capsys.readouterr().err and list(folder.iterdir()) == []
    plain = tmp_path / "datei.wav"
    plain.write_text("old", encoding="utf-8")
    assert main(["export", str(path), "--format", "wav", "--per-move", "-o", str(plain)]) == 2
    assert "Datei" in capsys.readouterr().err and plain.read_text(encoding="utf-8") == "old"


def test_help_names_the_real_default_language(capsys, monkeypatch):
    # "--help" said "default de" in English, where the default is the interface language (en)
    monkeypatch.setenv("BLINDCHESS_LANG", "en")
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "default en" in out and "default de" not in out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_output_into_a_pipe_or_through_a_link_keeps_them(pgn_file, tmp_path):
    # the atomic rename replaced whatever "-o" named: a named pipe (and, run as root,
    # a device such as /dev/full) became a plain file, a symbolic link a plain file
    import threading
    path, _, _ = pgn_file
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    assert main(["export", str(path), "--format", "pgn", "-o", str(fifo)]) == 0
    reader.join(10)
    assert b"[White" in got[0] and fifo.is_fifo()
    real = tmp_path / "real.pgn"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.pgn"
    link.symlink_to(real)
    assert main(["export", str(path), "--format", "pgn", "-o", str(link)]) == 0
    assert link.is_symlink() and "[White" in real.read_text(encoding="utf-8")


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_one_file_and_one_damaged_line_are_singular(tmp_path, capsys):
    # "1 Dateien geschrieben", "beschädigte Zeilen … (Zeilen 65)" for a single line
    from blindchess.adapters.exports.source import load_game
    from tests.support.games import journal_game

    one = tmp_path / "one.pgn"
    one.write_text("1. e4 *\n", encoding="utf-8")
    assert main(["export", str(one), "--format", "wav", "--per-move", "-o", str(tmp_path / "moves")]) == 0
    assert "1 Datei in " in capsys.readouterr().out
    journal = tmp_path / "game.jsonl"
    journal_game(journal)
    with journal.open("ab") as f:
        f.write(b'{"seq": 999, "type": "board-mo')       # cut off by a crash
    warnings: list[str] = []
    load_game(journal, "de", warnings)
    number = len(journal.read_bytes().split(b"\n"))
    assert any("(Probleme: 1)" in w for w in warnings), warnings
    assert f"  Zeile {number}: abgeschnitten (das Programm wurde beim Schreiben beendet)" in warnings, warnings


@pytest.mark.parametrize("text", ["1. e4 (( d5 )) e5 *\n", "1. e4 (( d5 e5 *\n", "1. e4 ) e5 (( *\n"])
def test_unbalanced_variations_are_no_internal_error(tmp_path, capsys, text):
    # python-chess's builder raised IndexError (exit 70) on these
    source = tmp_path / "d.pgn"
    source.write_text(text, encoding="utf-8")
    out = tmp_path / "o.pgn"
    code = main(["export", str(source), "--format", "pgn", "-o", str(out)])
    err = capsys.readouterr().err
    assert code in (0, 2) and "Interner Fehler" not in err
    assert out.exists() == (code == 0)
    if "((" in text and "))" in text:    # python-chess cannot build it: refused in one line, nothing written
        assert code == 2 and len(err.strip().splitlines()) == 1 and "Klammern" in err


def test_a_file_of_brackets_is_no_game_but_a_game_with_only_tags_is(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    junk = tmp_path / "junk.pgn"
    junk.write_text("[[[[[[[[", encoding="utf-8")
    assert main(["export", str(junk), "--format", "pgn", "-o", str(tmp_path / "out.pgn")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "keine Partie" in err
    assert not (tmp_path / "out.pgn").exists()
    tags = tmp_path / "tags.pgn"
    tags.write_text('[Event "Blindenschach-EM"]\n\n*\n', encoding="utf-8")
    assert main(["export", str(tags), "--format", "pgn", "-o", str(tmp_path / "out.pgn")]) == 0
    assert '[Event "Blindenschach-EM"]' in (tmp_path / "out.pgn").read_text(encoding="utf-8")
