"""``blindchess announce GAME.pgn [--lang LANG] [--wav FILE.wav]`` (issue 2 §3)."""

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
    pytest.importorskip("blindchess.speech.tts")
    wav = tmp_path / "game.wav"
    assert main(["announce", str(pgn), "--wav", str(wav)]) == 0
    assert str(wav) in capsys.readouterr().out
    with wave.open(str(wav)) as w:
        assert w.getnframes() / w.getframerate() > 5  # 14 announcements with pauses


def test_wav_without_the_speech_module_is_a_clear_error(pgn, tmp_path, capsys, monkeypatch):
    # simulates an installation without the speech adapter (None in sys.modules makes the import fail)
    monkeypatch.setitem(sys.modules, "blindchess.speech.tts", None)
    assert main(["announce", str(pgn), "--wav", str(tmp_path / "x.wav")]) == 2
    err = capsys.readouterr().err
    assert "WAV" in err and "Traceback" not in err
    assert not (tmp_path / "x.wav").exists()
