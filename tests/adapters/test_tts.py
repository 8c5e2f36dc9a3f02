"""Text-to-speech for real with espeak-ng: WAV files, the Speaker worker, the no-engine fallback.

There is no sound card on the build machines, so the Speaker tests route
espeak-ng's audio into a sink (the exact PCM that would reach the
loudspeaker), paced like a sound card consuming it (``pace`` times real time).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import threading
import time
import wave

import pytest

from blindchess.adapters.speech import pcm as audio
from blindchess.adapters.speech import tts
from blindchess.base.errors import UserError
from blindchess.cli import main

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")

LONG_READING = ("Weiß: König Gustav eins, Dame David eins, Turm Anna eins, Turm Hector eins, "
                "Läufer Cäsar eins, Läufer Felix eins, Springer Bella eins, Springer Gustav eins. "
                "Schwarz: König Eva acht, Dame David acht, Turm Anna acht, Turm Hector acht.")


def sox_stat(path) -> dict[str, float]:
    """``sox FILE -n stat`` as a dict (an independent measurement of our WAV files)."""
    out = subprocess.run(["sox", str(path), "-n", "stat"], capture_output=True, text=True, check=True).stderr
    stats = {}
    for line in out.splitlines():
        key, _, value = line.partition(":")
        try:
            stats[key.strip()] = float(value.split()[0])
        except (ValueError, IndexError):
            pass
    return stats


@pytest.mark.parametrize("text, lang", [("Springer Felix drei", "de"), ("Knight Felix three", "en"),
                                        ("Lange Rochade", "de")])
def test_render_wav_is_plausible_speech(tmp_path, text, lang):
    path = tts.render_wav(text, tmp_path / "move.wav", lang)
    words = len(text.split())
    with wave.open(str(path)) as w:
        assert (w.getnchannels(), w.getsampwidth()) == (1, 2)
        duration = w.getnframes() / w.getframerate()
    assert 0.15 * words < duration < 1.0 * words + 0.6
    stats = sox_stat(path) if shutil.which("sox") else {}
    if stats:
        assert stats["RMS     amplitude"] > 0.02          # not silence
        assert abs(stats["Length (seconds)"] - duration) < 0.01
    assert audio.rms(audio.read_wav(path).pcm) > 500     # our own measurement agrees


def test_rate_changes_the_length(tmp_path):
    slow = audio.read_wav(tts.render_wav("Springer Felix drei", tmp_path / "s.wav", rate=100)).duration
    fast = audio.read_wav(tts.render_wav("Springer Felix drei", tmp_path / "f.wav", rate=300)).duration
    assert slow > 1.8 * fast


def test_german_and_english_voices_differ(tmp_path):
    de = audio.read_wav(tts.render_wav("David", tmp_path / "de.wav", "de")).pcm
    en = audio.read_wav(tts.render_wav("David", tmp_path / "en.wav", "en")).pcm
    assert de != en


def test_render_phrases_wav_holds_the_whole_game_with_pauses(tmp_path):
    phrases = ["1. Eva vier", "Eva fünf", "2. Springer Felix drei", "Springer Cäsar sechs"]
    single = sum(audio.read_wav(tts.render_wav(p, tmp_path / f"{i}.wav")).duration for i, p in enumerate(phrases))
    game = audio.read_wav(tts.render_phrases_wav(phrases, tmp_path / "game.wav", pause=0.5))
    assert game.duration == pytest.approx(single + 3 * 0.5, abs=0.05)
    # the pauses are real silence: somewhere there are 0.4 s of zero samples
    pcm = game.pcm
    assert b"\x00\x00" * int(0.4 * game.rate) in pcm


def test_empty_text_is_a_user_error(tmp_path):
    with pytest.raises(UserError):
        tts.render_wav("   ", tmp_path / "x.wav")
    with pytest.raises(UserError):
        tts.render_phrases_wav([], tmp_path / "x.wav")
    assert not (tmp_path / "x.wav").exists()


def test_say_cli_in_process_and_subprocess(tmp_path, capsys):
    assert main(["say", "Dame", "David", "eins", "--out", str(tmp_path / "a.wav")]) == 0
    assert "a.wav" in capsys.readouterr().out
    assert audio.read_wav(tmp_path / "a.wav").duration > 0.5
    done = subprocess.run([sys.executable, "-m", "blindchess", "say", "Queen David one", "--lang", "en",
                           "--out", str(tmp_path / "b.wav")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert audio.rms(audio.read_wav(tmp_path / "b.wav").pcm) > 500


# --------------------------------------------------------------------------- Speaker

class Recorder:
    """Collects the speaker's events and the audio it sends to the sink."""

    def __init__(self):
        self.events = []
        self.audio = []
        self.lock = threading.Lock()

    def sink(self, pcm, rate):
        with self.lock:
            self.audio.append((time.monotonic(), pcm, rate))

    def on_event(self, event):
        with self.lock:
            self.events.append((event.kind, event.text))

    def kinds(self, text):
        return [k for k, t in self.events if t == text]

    def wait_for(self, kind, text, timeout=10.0):
        """Wait until the speaker reported ``kind`` for ``text`` (no fixed sleeps: the machine is shared)."""
        end = time.monotonic() + timeout
        while kind not in self.kinds(text):
            assert time.monotonic() < end, f"no {kind!r} for {text!r}: {self.events}"
            time.sleep(0.005)


def make_speaker(rec, pace=8.0, **kw):
    speaker = tts.Speaker("de", sink=rec.sink, pace=pace, **kw)
    speaker.on_event(rec.on_event)
    return speaker


def test_say_never_waits_and_texts_are_spoken_in_order():
    rec = Recorder()
    with make_speaker(rec) as speaker:
        assert speaker.available and speaker.engine_name == "espeak-ng"
        start = time.perf_counter()
        for text in ("Eva vier", "Eva fünf", "Springer Felix drei"):
            speaker.say(text)
        assert time.perf_counter() - start < 0.05       # the caller never waits for speech
        assert speaker.wait_idle(20)
    started = [t for k, t in rec.events if k == "started"]
    assert started == ["Eva vier", "Eva fünf", "Springer Felix drei"]
    assert all(rec.kinds(t)[-1] == "finished" for t in started)
    assert sum(len(p) for _, p, _ in rec.audio) > 22050  # more than half a second of audio


def test_a_chosen_voice_replaces_the_languages_voice():
    """The voice setting (e.g. espeak-ng's "de+f3", a female German voice) changes what is heard."""
    def audio(**kw):
        rec = Recorder()
        with make_speaker(rec, pace=None, **kw) as speaker:
            speaker.say("Springer Felix drei")
            assert speaker.wait_idle(20)
        return b"".join(p for _, p, _ in rec.audio)

    default, chosen = audio(), audio(voice="de+f3")
    assert len(default) > 22050 and len(chosen) > 22050
    assert default != chosen


def test_a_move_interrupts_a_long_reading():
    rec = Recorder()
    with make_speaker(rec, pace=2.0) as speaker:
        speaker.say(LONG_READING, priority=tts.PRIORITY_READING)
        rec.wait_for("started", LONG_READING)
        time.sleep(0.3)
        cut_at = time.monotonic()
        speaker.say("Springer Felix drei", priority=tts.PRIORITY_MOVE)
        assert speaker.wait_idle(20)
    assert rec.kinds(LONG_READING) == ["text", "started", "interrupted"]
    assert rec.kinds("Springer Felix drei") == ["text", "started", "finished"]
    reading_audio = sum(len(p) for t, p, _ in rec.audio if t < cut_at)
    full = audio.read_wav(tts.render_wav(LONG_READING, _tmp_wav())).pcm
    assert reading_audio < len(full) / 2                  # the reading really was cut short


def _tmp_wav():
    import tempfile
    return tempfile.mkdtemp() + "/full.wav"


def test_interrupt_drops_waiting_texts_and_less_urgent_texts_wait():
    rec = Recorder()
    with make_speaker(rec, pace=2.0) as speaker:
        speaker.say(LONG_READING, priority=tts.PRIORITY_MOVE)
        speaker.say("Zeit: eine Stunde", priority=tts.PRIORITY_READING)   # less urgent: waits, does not cut
        rec.wait_for("started", LONG_READING)
        speaker.say("Matt", interrupt=True)
        assert speaker.wait_idle(20)
    assert rec.kinds(LONG_READING)[-1] == "interrupted"
    assert rec.kinds("Zeit: eine Stunde") == ["text", "dropped"]
    assert rec.kinds("Matt")[-1] == "finished"


def test_repeat_says_the_last_text_again_and_stop_silences():
    rec = Recorder()
    with make_speaker(rec) as speaker:
        speaker.say("Dame David acht")
        speaker.wait_idle(10)
        speaker.repeat()
        speaker.wait_idle(10)
        assert rec.kinds("Dame David acht").count("finished") == 2
        speaker.say(LONG_READING)
        rec.wait_for("started", LONG_READING)
        speaker.stop()
        assert speaker.wait_idle(5)
        assert speaker.last_text == LONG_READING
    assert rec.kinds(LONG_READING)[-1] == "interrupted"


def test_first_audio_arrives_quickly():
    rec = Recorder()
    with make_speaker(rec, pace=None) as speaker:
        start = time.monotonic()
        speaker.say("Springer Felix drei")
        assert speaker.wait_idle(10)
    first = rec.audio[0][0] - start
    assert first < 1.0          # the benchmark checks the 100 ms target; generous here, the machine is shared


def test_a_broken_listener_does_not_silence_the_speaker():
    rec = Recorder()
    with make_speaker(rec) as speaker:
        speaker.on_event(lambda e: 1 / 0)
        speaker.say("Bauer")
        assert speaker.wait_idle(10)
    assert rec.kinds("Bauer")[-1] == "finished"


@pytest.mark.parametrize("options", [
    # pyttsx3 loads drivers by name (pyttsx3.drivers.<name>): a name that does not exist
    # fails exactly as a platform without its engine does — no engine to load.
    {"engine": "pyttsx3", "driver": "no_such_driver"},
    # the espeak-ng program missing (a path where there is none)
    {"engine": "espeak-ng", "espeak_binary": "/nonexistent/espeak-ng"},
    {"engine": "text"},
])
def test_without_engine_texts_are_still_shown(options):
    shown = []
    with tts.Speaker("de", **options) as speaker:
        speaker.on_event(lambda e: shown.append((e.kind, e.text, e.spoken)))
        assert not speaker.available
        assert "Texte werden nur angezeigt" in speaker.problem
        speaker.say("Springer Felix drei")
        speaker.repeat()
        assert speaker.wait_idle(5)
    assert shown == [("text", "Springer Felix drei", False)] * 2


def test_pyttsx3_espeak_driver_is_usable_here():
    """pyttsx3 itself works on this machine (the engine Windows and macOS use): a voice for German is found."""
    engine = tts._pyttsx3_engine("espeak")
    voice = tts._choose_voice(engine, "de")
    assert voice is not None and re.search(r"(^|/)de$", voice)


def test_volume_scales_the_audio():
    loud, soft = Recorder(), Recorder()
    for rec, volume in ((loud, 1.0), (soft, 0.4)):
        with make_speaker(rec, pace=None, volume=volume) as speaker:
            speaker.say("Turm Anna acht")
            assert speaker.wait_idle(10)
    level = [audio.rms(b"".join(p for _, p, _ in r.audio)) for r in (loud, soft)]
    assert 0.25 < level[1] / level[0] < 0.6


def test_pyttsx3_renders_a_wav_too(tmp_path):
    """The fallback renderer (pyttsx3's save_to_file: SAPI5/NSSpeechSynthesizer elsewhere, espeak here)."""
    path = tmp_path / "p.wav"
    tts._pyttsx3_save("Springer Felix drei", path, "de", None)
    got = audio.read_wav(path)
    assert 0.45 < got.duration < 3.6 and audio.rms(got.pcm) > 500


def test_say_cli_speaks_aloud_or_shows_the_text(capsys):
    # no sound card here: espeak-ng reports that on its stderr, which the speaker keeps from the user
    assert main(["say", "Eva", "vier"]) == 0
    assert "Eva vier" in capsys.readouterr().out


def test_a_closed_speaker_still_shows_texts():
    rec = Recorder()
    speaker = make_speaker(rec)
    speaker.close()
    speaker.say("Remis")
    assert speaker.wait_idle(1) and rec.kinds("Remis") == ["text"]


def test_a_listener_may_speak_from_its_callback():
    rec = Recorder()
    with make_speaker(rec, pace=None) as speaker:
        def chain(event):
            if event.kind == "dropped":
                speaker.say(f"verworfen: {event.text}")
        speaker.on_event(chain)
        speaker.say(LONG_READING)
        speaker.say("Eva vier")
        speaker.say("Matt", interrupt=True)
        assert speaker.wait_idle(10)
    assert "verworfen: Eva vier" in [t for k, t in rec.events if k == "finished"]


def test_a_wav_path_that_cannot_be_written_is_a_clear_message(tmp_path, capsys, monkeypatch):
    # "say --out FOLDER" and "announce --wav FOLDER" ended in "Interner Fehler: IsADirectoryError"
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    folder = tmp_path / "aufnahmen"
    folder.mkdir()
    with pytest.raises(UserError, match="Ordner"):
        tts.render_wav("Eva vier", folder)
    with pytest.raises(UserError, match="Ordner"):
        tts.render_phrases_wav(["1. Eva vier"], folder)
    assert main(["say", "Eva vier", "--out", str(folder)]) == 2
    assert "Ordner" in capsys.readouterr().err
    assert list(folder.iterdir()) == []             # nothing half-written left behind


def test_a_recording_gets_ordinary_file_permissions(tmp_path):
    # mkstemp's 0600 reached the user's recording (others in the group could not play it)
    import os
    mask = os.umask(0o022)
    try:
        path = tts.render_wav("Eva vier", tmp_path / "zug.wav")
    finally:
        os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o644


def test_an_unknown_voice_language_is_a_plain_message(tmp_path, monkeypatch):
    # espeak-ng's English "Error: The specified espeak-ng voice does not exist." reached the user
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    with pytest.raises(UserError, match="keine Stimme") as info:
        tts.render_wav("Eva vier", tmp_path / "x.wav", "xx")
    assert "espeak-ng voice" not in info.value.message and not (tmp_path / "x.wav").exists()


@pytest.mark.parametrize("rate", ["-5", "0", "abc", "1e9"])
def test_say_refuses_an_impossible_rate(tmp_path, capsys, rate):
    # "--rate -5" wrote a WAV as if nothing were wrong
    with pytest.raises(SystemExit) as info:
        main(["say", "Eva vier", "--rate", rate, "--out", str(tmp_path / "x.wav")])
    assert info.value.code == 2 and "20" in capsys.readouterr().err
    assert not (tmp_path / "x.wav").exists()


def test_a_recording_through_a_link_or_into_a_pipe_keeps_them(tmp_path):
    # the atomic rename replaced a symbolic link (and, as root, even /dev/full) with a plain file
    import os
    import threading
    real = tmp_path / "real.wav"
    real.write_bytes(b"old")
    link = tmp_path / "link.wav"
    link.symlink_to(real)
    tts.render_wav("Eva vier", link)
    assert link.is_symlink() and audio.read_wav(real).duration > 0.2
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    tts.render_wav("Eva vier", fifo)
    reader.join(10)
    assert got[0][:4] == b"RIFF" and fifo.is_fifo()


def test_a_text_is_never_cut_by_another_only_by_the_one_that_replaces_the_same_request():
    """The program's one rule (blindchess.base.speaking): a move does not cut an answer being said, it goes next; the
    same request asked again cuts its older answer; a waiting text of the same request is dropped."""
    rec = Recorder()
    with make_speaker(rec, pace=2.0) as speaker:
        speaker.say(LONG_READING, priority="answer", about="request")
        rec.wait_for("started", LONG_READING)
        speaker.say("Springer Felix drei", priority="move")                  # waits: never cuts the answer
        speaker.say("Zeit: eine Stunde", priority="answer", about="request")  # the same request: cuts it at once
        assert speaker.wait_idle(20)
    assert rec.kinds(LONG_READING) == ["text", "started", "interrupted"]
    assert rec.kinds("Springer Felix drei") == ["text", "started", "finished"]
    assert rec.kinds("Zeit: eine Stunde") == ["text", "started", "finished"]
    started = [text for kind, text in rec.events if kind == "started"]
    assert started == [LONG_READING, "Springer Felix drei", "Zeit: eine Stunde"]   # the move first, as it waited


def test_cut_stops_one_text_and_set_language_changes_the_voice():
    rec = Recorder()
    with make_speaker(rec, pace=2.0) as speaker:
        first = speaker.say(LONG_READING, priority="answer")
        rec.wait_for("started", LONG_READING)
        waiting = speaker.say("Eva fünf", priority="move")
        speaker.say("Dame David acht", priority="move")
        speaker.cut(waiting)                          # the policy cut a waiting one: dropped, the others go on
        speaker.cut(first)                            # and the one being said: interrupted
        assert speaker.wait_idle(20)
        assert rec.kinds("Eva fünf") == ["text", "dropped"]
        assert rec.kinds(LONG_READING)[-1] == "interrupted" and rec.kinds("Dame David acht")[-1] == "finished"
        speaker.set_language("en")
        speaker.say("Knight Felix three")
        assert speaker.wait_idle(20) and speaker.lang == "en"
    assert rec.kinds("Knight Felix three")[-1] == "finished"
