"""``blindchess announce GAME.pgn [--lang LANG] [--wav FILE.wav]``."""

from __future__ import annotations

import shutil
import subprocess
import sys
import wave

import pytest

from blindchess.cli import main

GAME = """[Event "Blind simul"]
[White "A"]
[Black "B"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 5. d4 exd4 6. e5 d5 7. exd6 Bxd6 *
"""


@pytest.fixture
def pgn(tmp_path):
    path = tmp_path / "game.pgn"
    path.write_text(GAME, encoding="utf-8")
    return path


def test_one_numbered_phrase_per_move(pgn, capsys):
    assert main(["announce", str(pgn)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:4] == ["1. Eva vier", "1... Eva fünf", "2. Springer Felix drei", "2... Springer Cäsar sechs"]
    assert "4. Kurze Rochade" in lines
    assert "7. Eva schlägt David sechs en passant" in lines
    assert lines[-1] == "7... Läufer schlägt David sechs"
    assert len(lines) == 14


def test_language_option(pgn, capsys):
    assert main(["announce", str(pgn), "--lang", "en"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "1. Eva four" and "4. short castling" in lines


def test_game_from_a_fen_start_numbers_black_moves(tmp_path, capsys):
    path = tmp_path / "promo.pgn"
    path.write_text('[FEN "8/8/8/8/8/k7/4p3/K7 b - - 0 40"]\n[SetUp "1"]\n\n40... e1=Q+ *\n', encoding="utf-8")
    assert main(["announce", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == ["40... Eva eins wird Dame matt"]  # mate, whatever the "+" says


@pytest.mark.parametrize("content", ["hello world", "1. e4 e5 2. Qxh7 *", '[FEN "bad"]\n\n1. e4 *', "\x00\xff\x01"])
def test_bad_pgn_is_a_clear_message_and_exit_2(tmp_path, capsys, content):
    path = tmp_path / "bad.pgn"
    path.write_text(content, encoding="utf-8", errors="replace")
    assert main(["announce", str(path)]) == 2
    captured = capsys.readouterr()
    assert str(path) in captured.err and "Traceback" not in captured.err
    assert captured.out == ""


def test_missing_file(tmp_path, capsys):
    assert main(["announce", str(tmp_path / "none.pgn")]) == 2
    assert "keine lesbare Partie" in capsys.readouterr().err


def test_real_subprocess(pgn):
    out = subprocess.run([sys.executable, "-m", "blindchess", "announce", str(pgn), "--lang", "nl"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[2] == "2. Paard Felix drie"


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_wav_of_the_whole_game(pgn, tmp_path, capsys):
    pytest.importorskip("blindchess.adapters.speech.tts")
    wav = tmp_path / "game.wav"
    assert main(["announce", str(pgn), "--wav", str(wav)]) == 0
    assert str(wav) in capsys.readouterr().out
    with wave.open(str(wav)) as w:
        assert w.getnframes() / w.getframerate() > 5  # 14 announcements with pauses


def test_wav_without_the_speech_module_is_a_clear_error(pgn, tmp_path, capsys, monkeypatch):
    # simulates an installation without the speech adapter (None in sys.modules makes the import fail)
    monkeypatch.setitem(sys.modules, "blindchess.adapters", None)
    assert main(["announce", str(pgn), "--wav", str(tmp_path / "x.wav")]) == 2
    err = capsys.readouterr().err
    assert "WAV" in err and "Traceback" not in err
    assert not (tmp_path / "x.wav").exists()


def test_every_game_of_a_file_is_announced(tmp_path, capsys):
    # only the first game of a PGN file with several games was announced, silently
    path = tmp_path / "round.pgn"
    path.write_text(GAME + '[Event "Blind simul"]\n[White "C"]\n[Black "D"]\n\n1. d4 {a comment} d5 (1... Nf6) 2. c4 *\n'
                    '[White "E"]\n[Black "F"]\n\n1. c4 *\n', encoding="utf-8")
    assert main(["announce", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Partie 1: A – B" and lines[1] == "1. Eva vier" and len(lines) == 3 + 14 + 3 + 1
    assert lines[15:19] == ["Partie 2: C – D", "1. David vier", "1... David fünf", "2. Cäsar vier"]
    assert lines[19:] == ["Partie 3: E – F", "1. Cäsar vier"]


def test_a_bad_move_in_a_later_game_names_that_game(tmp_path, capsys):
    path = tmp_path / "two.pgn"
    path.write_text(GAME + '\n[Event "x"]\n\n1. d4 Kd5 *\n', encoding="utf-8")
    assert main(["announce", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Partie 2" in err and "Kd5" in err and "Schwarz" in err


def test_a_scoresheet_in_another_notation_and_a_chess960_pgn(tmp_path, capsys):
    # a German/French scoresheet gave python-chess's "illegal san: 'b5' in ..." in English
    sheet = tmp_path / "partie.txt"
    sheet.write_text("1. e4 e5\n2. Sf3 Sc6\n3. Lb5 a6\n", encoding="cp1252")
    assert main(["announce", str(sheet)]) == 0
    assert capsys.readouterr().out.splitlines()[2:] == ["2. Springer Felix drei", "2... Springer Cäsar sechs",
                                                         "3. Läufer Bella fünf", "3... Anna sechs"]
    c960 = tmp_path / "960.pgn"
    c960.write_text('[Variant "Chess960"]\n[FEN "qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w KQkq - 0 1"]\n\n'
                    "1. Nfe3 Nde6 2. O-O f6 *\n", encoding="utf-8")
    assert main(["announce", str(c960)]) == 0
    assert capsys.readouterr().out.splitlines() == ["1. Springer Felix Eva drei", "1... Springer David Eva sechs",
                                                     "2. Kurze Rochade", "2... Felix sechs"]


def test_a_folder_is_a_clear_message(tmp_path, capsys):
    assert main(["announce", str(tmp_path)]) == 2
    assert "Ordner" in capsys.readouterr().err
