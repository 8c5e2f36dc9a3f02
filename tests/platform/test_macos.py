"""macOS, as far as it can be tried here: the choice of ``say``'s voice, ``say`` driven as a process that is
ended to cut a text off, VoiceOver's texts handed over one at a time and in order, the Info.plist.

macOS cannot run here: ``say`` and ``osascript`` are stand-in programs (real processes, written by the
tests) that behave as the real ones do for what blindchess uses — ``say -v '?'`` lists voices, ``say -f -``
speaks standard input until it ends, ``osascript`` takes a while per AppleScript. Untested: the real
voices, VoiceOver's answer, and macOS's consent dialog for Apple Events.
"""

from __future__ import annotations

import os
import plistlib
import stat
import sys
import textwrap
import time
from pathlib import Path

import pytest

from blindchess.adapters.speech import macos
from blindchess.adapters.speech.screenreader import VoiceOver
from blindchess.adapters.speech.tts import PRIORITY_MOVE, PRIORITY_READING, Speaker
from tests.support.paths import REPO
from tests.support.waiting import wait_for

#: The stand-in programs are Python scripts started by their #! line: POSIX (macOS, Linux) only.
stand_ins = pytest.mark.skipif(os.name != "posix", reason="stand-in say/osascript are #! scripts: POSIX only")

#: ``say -v '?'`` of a macOS 14 with a few voices (names with spaces and parentheses, several locales).
VOICES = textwrap.dedent("""\
    Albert              en_US    # Hello! My name is Albert.
    Anna                de_DE    # Hallo! Ich heiße Anna.
    Eddy (Deutsch (Deutschland)) de_DE    # Hallo! Ich heiße Eddy.
    Ellen               nl_BE    # Hallo! Mijn naam is Ellen.
    Milena              ru_RU    # Здравствуйте! Меня зовут Милена.
    Xander              nl_NL    # Hallo! Mijn naam is Xander.
""")


def _program(path: Path, body: str) -> Path:
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body), encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


@pytest.fixture
def say(tmp_path: Path) -> Path:
    """A stand-in ``say``: lists VOICES for ``-v ?``; otherwise notes its arguments and text, then "speaks"
    for as long as the text has words (0.2 s each) unless ended."""
    log = tmp_path / "say.log"
    return _program(tmp_path / "say", f"""
        import json, sys, time
        if sys.argv[1:] == ["-v", "?"]:
            sys.stdout.write({VOICES!r})
            sys.exit(0)
        text = sys.stdin.read()
        with open({str(log)!r}, "a", encoding="utf-8") as f:
            f.write(json.dumps({{"args": sys.argv[1:], "text": text, "start": time.monotonic()}}) + "\\n")
        time.sleep(0.2 * len(text.split()))
        with open({str(log)!r}, "a", encoding="utf-8") as f:
            f.write(json.dumps({{"end": text}}) + "\\n")
    """)


def _said(say: Path) -> list[dict]:
    import json

    log = say.with_name("say.log")
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []


def test_the_voice_of_each_language_is_found_in_says_list():
    assert macos.choose_voice(VOICES, "de") == "Anna"
    assert macos.choose_voice(VOICES, "en") == "Albert"
    assert macos.choose_voice(VOICES, "nl") == "Ellen"
    assert macos.choose_voice(VOICES, "ru") == "Milena"
    assert ("Eddy (Deutsch (Deutschland))", "de_DE") in macos.voices(VOICES)
    assert macos.choose_voice("junk\n\n", "de") is None
    assert macos.say_args("/usr/bin/say", "Anna", 180) == ["/usr/bin/say", "-v", "Anna", "-r", "180", "-f", "-"]


@stand_ins
def test_say_speaks_on_the_worker_and_a_move_cuts_a_reading_off_at_once(say: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(macos.shutil, "which", lambda name: str(say) if name == "say" else None)
    events = []
    with Speaker("de", rate=180, engine="say") as speaker:
        speaker.on_event(lambda e: events.append((e.kind, e.text)))
        assert speaker.available and speaker.engine_name == "say"
        reading = "Weiß: König e1, Dame d1, Türme a1 und h1, Läufer c1 und f1, Springer b1 und g1, acht Bauern"
        speaker.say(reading, priority=PRIORITY_READING)
        assert wait_for(lambda: len(_said(say)) == 1, timeout=20)
        cut = time.monotonic()
        speaker.say("-Bauer Eva vier", priority=PRIORITY_MOVE)       # a text that starts like an option
        assert speaker.wait_idle(20)
    said = _said(say)
    assert said[0]["args"] == ["-v", "Anna", "-r", "180", "-f", "-"] and said[0]["text"] == reading
    assert said[1]["text"] == "-Bauer Eva vier" and said[1]["start"] - cut < 5   # not after the reading's 4 s
    assert {"end": reading} not in said and {"end": "-Bauer Eva vier"} in said
    assert ("interrupted", reading) in events and ("finished", "-Bauer Eva vier") in events


def test_without_say_texts_are_shown_with_one_message(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(macos.shutil, "which", lambda name: None)
    with Speaker("en", engine="say") as speaker:
        assert not speaker.available and "say" in speaker.problem


@pytest.fixture
def osascript(tmp_path: Path) -> Path:
    """A stand-in ``osascript``: says VoiceOver runs; each output notes its start and end around 0.15 s."""
    log = tmp_path / "osascript.log"
    return _program(tmp_path / "osascript", f"""
        import sys, time
        if any("exists process" in a for a in sys.argv):
            print("true")
            sys.exit(0)
        text = sys.argv[-1]
        with open({str(log)!r}, "a", encoding="utf-8") as f:
            f.write("start " + text + "\\n")
        time.sleep(0.15)
        with open({str(log)!r}, "a", encoding="utf-8") as f:
            f.write("end " + text + "\\n")
    """)


def _outputs(osascript: Path) -> list[str]:
    log = osascript.with_name("osascript.log")
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


@stand_ins
def test_voiceover_gets_one_text_at_a_time_in_order(osascript: Path):
    reader = VoiceOver("en", osascript=str(osascript))
    try:
        texts = [f"move {n}" for n in range(1, 6)]
        for text in texts:
            reader.say(text)           # returns at once: the caller never waits for AppleScript
        assert wait_for(lambda: len(_outputs(osascript)) == 10, timeout=30)
    finally:
        reader.close()
    assert _outputs(osascript) == [f"{what} {text}" for text in texts for what in ("start", "end")]


@stand_ins
def test_the_windows_newer_text_replaces_the_one_still_waiting_and_cancel_drops_ours(osascript: Path):
    reader = VoiceOver("en", osascript=str(osascript))
    try:
        reader.say("Bauer Eva vier")
        assert wait_for(lambda: _outputs(osascript)[:1] == ["start Bauer Eva vier"], timeout=20)
        for n in range(1, 8):            # a key pressed seven times while the move is said
            reader.say(f"Feld e{n}", "window")
        reader.say("Weiß am Zug")
        reader.say("eine lange Ansage")
        reader.cancel()                   # drops what still waits, not what runs
        reader.say("Dame Delta eins", "window")
        assert wait_for(lambda: _outputs(osascript)[-1:] == ["end Dame Delta eins"], timeout=20)
        assert reader._queue.wait_idle(20)
    finally:
        reader.close()
    assert _outputs(osascript) == ["start Bauer Eva vier", "end Bauer Eva vier", "start Dame Delta eins",
                                   "end Dame Delta eins"]


@stand_ins
def test_a_missing_osascript_later_is_a_lost_screen_reader(osascript: Path):
    from blindchess.adapters.speech.screenreader import ScreenReaderLost

    reader = VoiceOver("en", osascript=str(osascript))
    try:
        os.unlink(osascript)
        reader.say("Bauer Eva vier")
        assert reader._queue.wait_idle(20)
        with pytest.raises(ScreenReaderLost):
            reader.say("Springer Felix drei")
    finally:
        reader.close()


def test_the_app_asks_for_the_microphone_and_for_apple_events_to_voiceover():
    plist = plistlib.loads((REPO / "packaging" / "Info.plist").read_bytes())
    assert "VoiceOver" in plist["NSAppleEventsUsageDescription"]
    assert plist["NSMicrophoneUsageDescription"] and plist["NSHighResolutionCapable"] is True
    assert tuple(int(p) for p in plist["LSMinimumSystemVersion"].split(".")) >= (11, 0)
    spec = (REPO / "packaging" / "blindchess.spec").read_text(encoding="utf-8")
    assert 'info_plist=plistlib.loads((Path(SPECPATH) / "Info.plist").read_bytes())' in spec
