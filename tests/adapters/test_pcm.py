"""Audio handling on real WAV files made with espeak-ng and converted with sox.

sox is the independent reference: our pure-Python conversion to 16 kHz mono
must match sox's own conversion of the same file closely.
"""

from __future__ import annotations

import math
import shutil
import subprocess
import wave

import pytest

from blindchess.adapters.speech import pcm as audio
from blindchess.adapters.speech.microphone import Listener, MicGate
from blindchess.base.errors import UserError

pytestmark = pytest.mark.skipif(not (shutil.which("espeak-ng") and shutil.which("sox")),
                                reason="espeak-ng and sox are needed")


@pytest.fixture(scope="module")
def speech_wav(tmp_path_factory):
    path = tmp_path_factory.mktemp("audio") / "speech.wav"
    subprocess.run(["espeak-ng", "-v", "de", "-w", str(path), "Springer Gustav eins Felix drei"], check=True)
    return path


def sox(src, dst, *args, effects=()):
    subprocess.run(["sox", str(src), *args, str(dst), *effects], check=True, capture_output=True)
    return dst


def correlation(a: bytes, b: bytes) -> float:
    x, y = audio._samples(a), audio._samples(b)
    n = min(len(x), len(y))
    mx, my = sum(x[:n]) / n, sum(y[:n]) / n
    sxy = sum((x[i] - mx) * (y[i] - my) for i in range(n))
    sxx = sum((x[i] - mx) ** 2 for i in range(n))
    syy = sum((y[i] - my) ** 2 for i in range(n))
    return sxy / math.sqrt(sxx * syy)


@pytest.mark.parametrize("rate, channels", [(48000, 2), (44100, 1), (44100, 2), (22050, 1), (8000, 1)])
def test_conversion_to_16k_mono_matches_sox(speech_wav, tmp_path, rate, channels):
    source = sox(speech_wav, tmp_path / "in.wav", "-r", str(rate), "-c", str(channels))
    reference = sox(source, tmp_path / "ref.wav", "-r", "16000", "-c", "1")
    with wave.open(str(source)) as w:
        assert (w.getframerate(), w.getnchannels()) == (rate, channels)
    ours = audio.load_for_recognition(source)
    theirs = audio.read_wav(reference)
    assert theirs.rate == 16000
    assert abs(len(ours) - len(theirs.pcm)) <= 4 * 2          # same length within a few samples
    assert correlation(ours, theirs.pcm) > 0.9                 # the same signal
    assert audio.rms(ours) == pytest.approx(audio.rms(theirs.pcm), rel=0.2)


def test_stereo_to_mono_averages_the_channels(speech_wav, tmp_path):
    # left: speech, right: silence (sox remix) -> mono is half the speech
    stereo = sox(speech_wav, tmp_path / "lr.wav", effects=("remix", "1", "0"))
    a = audio.read_wav(stereo)
    assert a.channels == 2
    mono = audio.to_mono(a.pcm, 2)
    original = audio.read_wav(speech_wav).pcm
    assert len(mono) == len(original)
    assert audio.rms(mono) == pytest.approx(audio.rms(original) / 2, rel=0.01)


@pytest.mark.parametrize("bits", [8, 24, 32, "float"])
def test_other_sample_widths_are_read(speech_wav, tmp_path, bits):
    args = ("-e", "floating-point", "-b", "32") if bits == "float" else ("-b", str(bits))
    converted = sox(speech_wav, tmp_path / f"b{bits}.wav", *args)
    a = audio.read_wav(converted)
    original = audio.read_wav(speech_wav)
    assert a.rate == original.rate and len(a.pcm) == len(original.pcm)
    assert correlation(a.pcm, original.pcm) > 0.99


def test_chunking_keeps_every_byte(speech_wav):
    pcm = audio.load_for_recognition(speech_wav)
    pieces = list(audio.chunks(pcm, 4000))
    assert b"".join(pieces) == pcm
    assert all(len(p) == 8000 for p in pieces[:-1]) and 0 < len(pieces[-1]) <= 8000


def test_broken_and_missing_files_are_user_errors(tmp_path):
    junk = tmp_path / "junk.wav"
    junk.write_bytes(b"RIFF\x00\x01junk that is no wave file")
    with pytest.raises(UserError, match="junk.wav"):
        audio.read_wav(junk)
    with pytest.raises(UserError, match="nope.wav"):
        audio.read_wav(tmp_path / "nope.wav")


# --------------------------------------------------------------------------- voice activity

@pytest.fixture(scope="module")
def padded_16k(speech_wav, tmp_path_factory):
    """1 s of room noise, the utterance, 1.5 s of room noise — 16 kHz mono."""
    folder = tmp_path_factory.mktemp("vad")
    speech = sox(speech_wav, folder / "s16.wav", "-r", "16000")
    noise = folder / "noise.wav"
    subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", str(noise), "synth", "1", "whitenoise",
                    "vol", "0.003"], check=True)
    out = folder / "padded.wav"
    subprocess.run(["sox", str(noise), str(speech), str(noise), str(noise), str(out), "trim", "0", "4"],
                   check=True)
    return audio.read_wav(out).pcm, audio.read_wav(speech).duration


def test_vad_finds_the_utterance(padded_16k):
    pcm, speech_seconds = padded_16k
    vad = audio.EnergyVAD()
    events = []
    for piece in audio.chunks(pcm, 1600):
        events.extend(vad.feed(piece))
    events.extend(vad.flush())
    assert [e.kind for e in events] == ["start", "end"]
    utterance = events[1].audio
    seconds = len(utterance) / 2 / 16000
    assert speech_seconds - 0.2 < seconds < speech_seconds + 1.2
    assert vad.noise_floor is not None and vad.noise_floor < vad.threshold


class RecordingRecognizer:
    """Stands in for vosk's recogniser, which needs a model that cannot be downloaded here:
    it records exactly which audio the listener hands over."""

    def __init__(self):
        self.fed = b""
        self.finals = 0

    def accept_pcm(self, pcm):
        self.fed += pcm
        return None

    def final(self):
        self.finals += 1
        return {"text": f"utterance {self.finals}", "audio_bytes": len(self.fed)}

    def reset(self):
        self.fed = b""


def test_push_to_talk_hears_only_while_the_key_is_held(padded_16k):
    pcm, _ = padded_16k
    results = []
    rec = RecordingRecognizer()
    listener = Listener(rec, results.append, mode="push-to-talk")
    pieces = list(audio.chunks(pcm, 1600))
    for piece in pieces[:5]:
        listener.feed(piece)
    listener.key_down()
    for piece in pieces[5:20]:
        listener.feed(piece)
    result = listener.key_up()
    for piece in pieces[20:]:
        listener.feed(piece)
    assert results == [result] and result["audio_bytes"] == sum(len(p) for p in pieces[5:20])
    assert listener.key_up() is None           # nothing held, nothing heard


def test_continuous_listening_delivers_one_result_per_utterance(padded_16k):
    pcm, _ = padded_16k
    results = []
    listener = Listener(RecordingRecognizer(), results.append, mode="continuous")
    for piece in audio.chunks(pcm, 1600):
        listener.feed(piece)
    assert len(results) == 1 and results[0]["audio_bytes"] > 16000


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_microphone_is_muted_while_the_app_speaks(padded_16k):
    """The mute coupling, with a real Speaker (espeak-ng into a sink) driving the gate."""
    from blindchess.adapters.speech import tts

    pcm, _ = padded_16k
    gate = MicGate(tail=0.3)
    states = []
    speaker = tts.Speaker("de", sink=lambda b, r: states.append(gate.is_open()), pace=None)
    gate.attach(speaker)
    assert gate.is_open()
    speaker.say("Springer Felix drei")
    assert speaker.wait_idle(10)
    speaker.close()
    assert states and not any(states)           # closed for every sample the app spoke
    assert not gate.is_open()                   # still closed during the echo tail
    import time
    time.sleep(0.35)
    assert gate.is_open()

    # the listener drops what arrives while the gate is closed, and a cut utterance entirely
    clock = Clock()
    gate = MicGate(tail=0.3, clock=clock)
    results = []
    rec = RecordingRecognizer()
    listener = Listener(rec, results.append, mode="push-to-talk", gate=gate)
    pieces = list(audio.chunks(pcm, 1600))
    listener.key_down()
    listener.feed(pieces[10])
    gate.on_speech_event(tts.SpeechEvent("started", "Schach"))
    listener.feed(pieces[11])
    assert rec.fed == pieces[10]                # the app's own voice was not fed
    gate.on_speech_event(tts.SpeechEvent("finished", "Schach"))
    clock.now = 0.2
    assert not gate.is_open()
    clock.now = 0.31
    assert gate.is_open()
    assert listener.key_up() is None and results == []   # the utterance the app spoke into is dropped
    gate.mute(True)
    assert not gate.is_open()


def test_microphone_reports_a_missing_library_or_device_instead_of_crashing():
    """Real sounddevice/PortAudio: on a machine without a capture device (CI, this
    sandbox) start() fails cleanly with a message in the user's language; where a
    device exists it really opens and closes."""
    import importlib.util

    from blindchess.adapters.speech.microphone import Microphone

    mic = Microphone(lambda pcm: None, ui_lang="de")
    if importlib.util.find_spec("sounddevice") is None:
        assert not mic.available and "sounddevice" in mic.problem
        assert mic.start() is False
        return
    started = mic.start()
    try:
        if started:
            assert mic.problem == ""
        else:
            assert mic.problem.startswith("Kein Mikrofon bereit") and "getippt" in mic.problem
    finally:
        mic.stop()
    mic.stop()  # stopping twice is harmless


def test_push_to_talk_key_silences_the_app_and_hears_the_player(padded_16k):
    """Real Speaker reading aloud (espeak-ng into a paced sink); the player presses the key to speak."""
    import time

    from blindchess.adapters.speech import tts

    pcm, _ = padded_16k
    events = []
    gate = MicGate(tail=0.3)
    with tts.Speaker("de", sink=lambda b, r: None, pace=1.0) as speaker:
        gate.attach(speaker)
        speaker.on_event(lambda e: events.append(e.kind))
        speaker.say("Weiß: König Gustav eins, Dame David eins, Turm Anna eins, Turm Hector eins.")
        while "started" not in events:
            time.sleep(0.005)
        results = []
        rec = RecordingRecognizer()
        listener = Listener(rec, results.append, mode="push-to-talk", gate=gate, speaker=speaker)
        listener.key_down()
        assert speaker.wait_idle(5) and events[-1] == "interrupted"
        pieces = list(audio.chunks(pcm, 1600))
        for piece in pieces[:20]:
            listener.feed(piece)
        assert gate.is_open()                     # no echo wait after the player's barge-in
        result = listener.key_up()
    assert result is not None and result["audio_bytes"] == sum(len(p) for p in pieces[:20])
    assert results == [result]
