"""Earcons: five short sounds, generated deterministically, chosen from the table's events,
played through the audio output or given as text without one; switchable in the settings."""

from __future__ import annotations

import math
import sys
from array import array

import pytest

from blindchess.adapters.speech import earcons
from blindchess.adapters.speech import pcm as audio
from blindchess.adapters.speech.earcons import EARCONS, RATE, EarconPlayer, synthesize
from blindchess.adapters.speech.tts import Speaker
from blindchess.scenario import HeadlessFront, play, read_script
from blindchess.table.events import Asked, Moved, Refused, Shown
from blindchess.ui.controller import GameController
from blindchess.ui.scenario_front import AppFront
from blindchess.ui.settings import Settings
from blindchess.ui.voice import earcon_for
from tests.support.paths import SCENARIOS
from tests.support.waiting import wait_for


def _samples(pcm: bytes) -> array:
    a = array("h")
    a.frombytes(pcm)
    if sys.byteorder == "big":
        a.byteswap()
    return a


def _pitch(samples: array, start: float, length: float = 0.03) -> float:
    """The fundamental (Hz) of a stretch of samples, by autocorrelation."""
    first = int(start * RATE)
    x = samples[first:first + int(length * RATE)]
    best, best_lag = -math.inf, 0
    for lag in range(RATE // 2000, RATE // 100):
        corr = sum(x[i] * x[i + lag] for i in range(len(x) - lag)) / (len(x) - lag)
        if corr > best:
            best, best_lag = corr, lag
    return RATE / best_lag


def test_each_earcon_is_short_distinct_clickless_and_always_the_same():
    sounds = {name: synthesize(name) for name in EARCONS}
    assert len(set(sounds.values())) == len(EARCONS)
    for name, pcm in sounds.items():
        assert pcm == synthesize(name)                                # deterministic
        s = _samples(pcm)
        assert 0.05 <= len(s) / RATE <= 0.3, name                     # short: under a third of a second
        peak = max(abs(v) for v in s) / 32767
        assert 0.15 <= peak <= 0.6, (name, peak)                      # audible, well below full scale
        assert abs(s[0]) < 200 and abs(s[-1]) < 200, name             # starts and ends at silence: no click


def test_the_earcons_differ_in_pitch_and_shape():
    pitch = {name: _pitch(_samples(synthesize(name)), 0.005) for name in EARCONS}
    assert pitch["check"] > pitch["move"] > pitch["capture"] > pitch["error"]
    assert pitch["move"] == pytest.approx(740, rel=0.03) and pitch["error"] == pytest.approx(196, rel=0.03)
    capture = _samples(synthesize("capture"))
    assert _pitch(capture, 0.08) < _pitch(capture, 0.005) * 0.8      # capture falls
    check = _samples(synthesize("check"))
    assert _pitch(check, 0.1) > _pitch(check, 0.005) * 1.2           # check rises
    question = _samples(synthesize("question"))
    assert _pitch(question, 0.17) > _pitch(question, 0.005) * 1.3    # a question goes up at the end


def test_an_earcon_written_as_wav_reads_back_unchanged(tmp_path):
    path = earcons.write_wav("check", tmp_path / "check.wav")
    got = audio.read_wav(path)
    assert (got.rate, got.channels, got.pcm) == (RATE, 1, synthesize("check"))


def test_the_tables_events_decide_the_earcon(tmp_path):
    front = HeadlessFront()
    events: list = []
    front.subscribe(events.append)
    script = read_script(SCENARIOS / "game_whole.scn", "de")
    play(script, front, tmp_path / "g.jsonl")
    moves = [e for e in events if isinstance(e, Moved)]
    by_san = {e.san: earcon_for(e) for e in moves}
    assert by_san["e4"] == "move" and by_san["exd6"] == "capture"       # en passant is a capture
    assert [earcon_for(e) for e in moves if e.san.endswith(("+", "#"))] == \
        ["check"] * sum(e.san.endswith(("+", "#")) for e in moves)
    assert any(v == "capture" for v in by_san.values()) and len(set(by_san.values())) >= 2
    assert earcon_for(Moved(1.0, 7, "white", "h5f7", "Qxf7#")) == "check"   # mate is check before capture
    assert earcon_for(Asked(1.0, "Meinten Sie Eva vier?", ("e2e4",), "blind")) == "question"
    assert earcon_for(Refused(1.0, "press", "Erst ziehen.")) == "error"
    assert earcon_for(Shown(1.0, "Weiß: e4")) is None


@pytest.mark.parametrize("name", ["game_whole.scn", "d2_unclear_announcement.scn", "d4_mirror_not_made.scn"])
def test_the_window_plays_the_earcon_of_each_event_in_order(qtbot, tmp_path, name):
    played: list[bytes] = []
    with Speaker("de", engine="text") as speaker:
        front = AppFront(lang="de", speaker=speaker)
        qtbot.addWidget(front.window)
        player = EarconPlayer(sink=lambda pcm, rate: played.append(pcm), lang="de")
        front.controller.voice.use_earcons(True, player)
        events: list = []
        front.controller.tableEvent.connect(events.append)
        script = read_script(SCENARIOS / name, "de")
        play(script, front, tmp_path / "g.jsonl")
        expected = [earcon_for(e) for e in events if earcon_for(e) is not None]
        assert expected, "the game had moves, questions or refusals"
        assert wait_for(lambda: len(played) == len(expected), 10)
        assert played == [synthesize(n) for n in expected if n is not None]
        assert player.played == expected
        front.controller.voice.close()


def _sound_card() -> bool:
    player = EarconPlayer(lang="en")
    player.close()
    return player.available


@pytest.mark.skipif(_sound_card(), reason="this machine has an audio output; the fallback is for machines without")
def test_without_an_audio_output_earcons_are_given_as_text():
    texts: list[str] = []
    player = EarconPlayer(on_text=texts.append, lang="de")    # real PortAudio: no output device here
    assert not player.available and "kein Audioausgang" in player.problem
    player.play("check")
    player.play("capture")
    assert texts == ["♪ Schach", "♪ Schlagen"]
    with pytest.raises(KeyError):
        player.play("fanfare")
    player.close()


def test_earcons_follow_the_setting(qtbot):
    with Speaker("de", engine="text") as speaker:
        controller = GameController(Settings(lang="de", earcons=False), speaker=speaker, clock=lambda: 0.0,
                                    ticking=False)
        status: list[str] = []
        controller.info.connect(status.append)
        controller.start_devices()
        assert controller.voice.earcons is None
        controller.apply_settings(Settings(lang="de", earcons=True))
        assert controller.voice.earcons is not None
        controller.apply_settings(Settings(lang="de", earcons=True))      # applied again: said no second time
        no_sound = [text for text in status if text.startswith("Keine Klangsignale")]
        assert no_sound == ([] if controller.voice.earcons.available else [controller.voice.earcons.problem])
        controller.apply_settings(Settings(lang="de", earcons=False))
        assert controller.voice.earcons is None
        controller.shutdown()
