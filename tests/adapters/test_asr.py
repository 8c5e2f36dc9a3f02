"""The vosk layer: result shapes, model lookup errors, ``blindchess listen`` — and, where a model
is installed, real recognition of espeak-ng speech.

No vosk model can be downloaded on the build machines, so the tests that need
one skip with the command that installs it; the real vosk library is still
exercised (loading a folder that is not a model must fail cleanly).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import chess
import pytest

from blindchess.adapters.speech import asr, models
from blindchess.base.errors import UserError
from blindchess.cli import main

NO_MODEL = "no vosk model installed: run blindchess models install de"


def test_phrases_are_lower_case_and_unique():
    assert asr.normalise_phrases(["Springer Felix drei", "springer  felix drei", "[unk]", "", "Ja"]) == [
        "springer felix drei", "[unk]", "ja"]


def test_result_with_word_confidences():
    # the shape vosk returns with SetWords(True) and no alternatives
    raw = json.dumps({"result": [{"conf": 1.0, "end": 0.9, "start": 0.3, "word": "eva"},
                                 {"conf": 0.5, "end": 1.4, "start": 0.9, "word": "vier"}], "text": "eva vier"})
    result = asr.normalise_result(raw)
    assert result["text"] == "eva vier"
    assert result["confidence"] == pytest.approx(0.75) and result["min_confidence"] == 0.5
    assert result["alternatives"] == [{"text": "eva vier", "confidence": None}]


def test_result_with_alternatives():
    # the shape vosk returns with SetMaxAlternatives(n)
    raw = json.dumps({"alternatives": [
        {"confidence": 212.3, "result": [{"end": 0.9, "start": 0.3, "word": "eva"}], "text": "eva vier"},
        {"confidence": 205.1, "text": "eva fünf"}]})
    result = asr.normalise_result(raw)
    assert result["text"] == "eva vier" and result["confidence"] is None
    assert [a["text"] for a in result["alternatives"]] == ["eva vier", "eva fünf"]
    assert asr.normalise_result('{"text": ""}')["text"] == ""


def test_missing_and_broken_models_are_user_errors(tmp_path):
    with pytest.raises(UserError, match="blindchess models install de"):
        asr.model_for("de")
    with pytest.raises(UserError, match="blindchess models install de"):
        asr.model_for("de", tmp_path / "nowhere")
    (tmp_path / "fake" / "conf").mkdir(parents=True)
    with pytest.raises(UserError, match="blindchess models install de"):   # real vosk refuses it
        asr.Recognizer(tmp_path / "fake", "de")


@pytest.fixture
def wav(tmp_path):
    path = tmp_path / "move.wav"
    subprocess.run(["espeak-ng", "-v", "de", "-w", str(path), "Springer Felix drei"], check=True)
    return path


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_listen_without_model_exits_2_naming_the_install_command(wav, capsys):
    assert main(["listen", "--wav", str(wav)]) == 2
    err = capsys.readouterr().err
    assert "blindchess models install de" in err and "Traceback" not in err
    done = subprocess.run([sys.executable, "-m", "blindchess", "listen", "--wav", str(wav), "--lang", "en",
                           "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "blindchess models install en" in done.stderr and "Traceback" not in done.stderr


def test_listen_rejects_a_bad_fen_and_a_bad_wav(tmp_path, capsys):
    assert main(["listen", "--wav", "x.wav", "--fen", "not a fen"]) == 2
    assert "FEN" in capsys.readouterr().err
    (tmp_path / "m" / "conf").mkdir(parents=True)
    junk = tmp_path / "junk.wav"
    junk.write_bytes(b"junk")
    assert main(["listen", "--wav", str(junk), "--model", str(tmp_path / "m")]) == 2
    assert "junk.wav" in capsys.readouterr().err


# --------------------------------------------------------------------------- with a real model

@pytest.fixture
def model_de():
    path = models.find_model("de")
    if path is None:
        pytest.skip(NO_MODEL)
    return path


@pytest.mark.needs_model
def test_recognises_espeak_moves_with_the_position_grammar(model_de, wav):
    from blindchess.adapters.speech import pcm as audio
    from blindchess.language import phonetic

    rec = asr.Recognizer(model_de, "de")
    rec.set_grammar(phonetic.grammar(chess.Board(), "de"))
    result = rec.recognise(audio.load_for_recognition(wav))
    assert phonetic.understand(chess.Board(), result["text"], "de").move == chess.Move.from_uci("g1f3")


@pytest.mark.needs_model
def test_listen_cli_with_model(model_de, wav, capsys):
    code = main(["listen", "--wav", str(wav), "--model", str(model_de), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code in (0, 1) and out["decision"] in ("play", "ask")
    if out["decision"] == "play":
        assert out["move"] == "g1f3"


def test_segments_of_one_utterance_are_joined():
    # vosk ends a segment at a pause: "springer" ... "felix drei"
    first = asr.normalise_result({"result": [{"conf": 0.9, "word": "springer", "start": 0.1, "end": 0.6}],
                                  "text": "springer"})
    second = asr.normalise_result({"result": [{"conf": 0.7, "word": "felix", "start": 1.5, "end": 1.9},
                                              {"conf": 0.8, "word": "drei", "start": 1.9, "end": 2.2}],
                                   "text": "felix drei"})
    merged = asr.merge_results([first, second])
    assert merged["text"] == "springer felix drei"
    assert merged["confidence"] == pytest.approx(0.8) and merged["min_confidence"] == 0.7
    assert [w["word"] for w in merged["words"]] == ["springer", "felix", "drei"]
    assert asr.merge_results([first]) is first and asr.merge_results([])["text"] == ""


def test_listen_reports_the_users_file_and_position_plainly(tmp_path, capsys, monkeypatch):
    # a missing WAV was reported as "no model installed"; a folder gave "[Errno 21] Is a directory";
    # an impossible position (no kings) was accepted; "--lang xx" advised "blindchess models install xx"
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    assert main(["listen", "--wav", str(tmp_path / "fehlt.wav")]) == 2
    assert "fehlt.wav gibt es nicht" in capsys.readouterr().err
    assert main(["listen", "--wav", str(tmp_path)]) == 2
    assert "das ist ein Ordner" in capsys.readouterr().err
    assert main(["listen", "--wav", "x.wav", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]) == 2
    assert "kein weißer König" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["listen", "--wav", "x.wav", "--lang", "xx"])
    assert "install xx" not in capsys.readouterr().err
