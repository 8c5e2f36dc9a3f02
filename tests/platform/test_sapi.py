"""Windows' own voice (SAPI 5): the voice object is made, driven and stopped on the speaker's thread only.

SAPI cannot run here (Linux has no SAPI; Wine 8.0 has no SAPI voice and no sound card), so a recording
stand-in of ``SAPI.SpVoice`` takes its place — it notes the thread of every call. Under Wine the same
module imports and its COM binding (pywin32) loads: tests/platform/test_windows_wine.py.
"""

from __future__ import annotations

import threading

import pytest

from blindchess.adapters.speech import sapi
from blindchess.adapters.speech.tts import PRIORITY_MOVE, PRIORITY_READING, Speaker
from tests.support.waiting import wait_for


class _Token:
    def __init__(self, description: str, language: str) -> None:
        self.description, self.language = description, language

    def GetAttribute(self, name: str) -> str:  # noqa: N802 - COM's names
        return self.language if name == "Language" else ""

    def GetDescription(self) -> str:  # noqa: N802
        return self.description


class _Tokens:
    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.Count = len(tokens)

    def Item(self, index: int) -> _Token:  # noqa: N802
        return self.tokens[index]


class RecordingVoice:
    """SpVoice as the speaker uses it: Speak (async, purge), WaitUntilDone, Voice, Rate, Volume.

    A long text ("lang", "long" in it) goes on until it is purged; any other ends at the first wait.
    """

    def __init__(self) -> None:
        object.__setattr__(self, "calls", [])
        object.__setattr__(self, "_purged", threading.Event())
        object.__setattr__(self, "current", "")
        object.__setattr__(self, "tokens", _Tokens([_Token("Microsoft Zira Desktop - English (United States)", "409"),
                                                    _Token("Microsoft Hedda Desktop - German", "407"),
                                                    _Token("Microsoft Irina Desktop - Russian", "419")]))

    def _note(self, *call: object) -> None:
        self.calls.append((threading.get_ident(), *call))

    def __setattr__(self, name: str, value: object) -> None:
        self._note("set", name, value)
        object.__setattr__(self, name, value)

    def GetVoices(self) -> _Tokens:  # noqa: N802
        self._note("GetVoices")
        return self.tokens

    def Speak(self, text: str, flags: int) -> None:  # noqa: N802
        self._note("Speak", text, flags)
        if flags & sapi.SVSF_PURGE_BEFORE_SPEAK:
            self._purged.set()
        else:
            self._purged.clear()
            object.__setattr__(self, "current", text)

    def WaitUntilDone(self, ms: int) -> bool:  # noqa: N802
        self._note("WaitUntilDone")
        if "lang" not in self.current and "long" not in self.current:
            return True
        return self._purged.wait(ms / 1000)


@pytest.fixture
def voice(monkeypatch: pytest.MonkeyPatch) -> RecordingVoice:
    made = RecordingVoice()
    monkeypatch.setattr(sapi, "_com_voice", lambda: made)
    return made


def test_speech_and_its_stop_both_happen_on_the_speakers_thread(voice: RecordingVoice):
    events = []
    with Speaker("de", engine="sapi") as speaker:
        speaker.on_event(lambda e: events.append((e.kind, e.text)))
        assert speaker.available and speaker.engine_name == "sapi"
        speaker.say("Eine lange Ansage der Stellung", priority=PRIORITY_READING)
        assert wait_for(lambda: ("started", "Eine lange Ansage der Stellung") in events)
        speaker.say("Bauer Eva vier", priority=PRIORITY_MOVE)     # from this (the window's) thread: a barge-in
        assert speaker.wait_idle(10)
    assert ("interrupted", "Eine lange Ansage der Stellung") in events and ("finished", "Bauer Eva vier") in events
    threads = {call[0] for call in voice.calls}
    assert len(threads) == 1 and threading.get_ident() not in threads     # one thread, not the caller's
    spoken = [call[2:] for call in voice.calls if call[1] == "Speak"]
    purge = sapi.SVSF_ASYNC | sapi.SVSF_PURGE_BEFORE_SPEAK
    assert spoken == [("Eine lange Ansage der Stellung", sapi.SVSF_ASYNC | sapi.SVSF_IS_NOT_XML), ("", purge),
                      ("Bauer Eva vier", sapi.SVSF_ASYNC | sapi.SVSF_IS_NOT_XML)]


def test_stop_from_another_thread_purges_on_the_voices_thread(voice: RecordingVoice):
    with Speaker("en", engine="sapi") as speaker:
        speaker.say("a long reading of the game score")
        assert wait_for(lambda: any(c[1] == "WaitUntilDone" for c in voice.calls))
        speaker.stop()
        assert speaker.wait_idle(10)
        assert wait_for(lambda: any(c[1:3] == ("Speak", "") for c in voice.calls))
    owner = voice.calls[0][0]
    assert all(call[0] == owner for call in voice.calls) and owner != threading.get_ident()


def test_the_voice_of_the_language_is_chosen_and_rate_and_volume_set(voice: RecordingVoice):
    backend = sapi.SapiBackend("de", rate=250, volume=0.5)
    settings = {call[2]: call[3] for call in voice.calls if call[1] == "set"}
    assert settings["Voice"].GetDescription().startswith("Microsoft Hedda")
    assert settings["Rate"] == sapi.sapi_rate(250) and 0 < settings["Rate"] <= 10
    assert settings["Volume"] == 50
    assert backend.available and backend.problem == ""
    sapi.SapiBackend("nl")     # no Dutch voice: the system's default voice is kept
    assert [c for c in voice.calls if c[1] == "set" and c[2] == "Voice"][1:] == []


def test_without_sapi_texts_are_shown_with_one_message(monkeypatch: pytest.MonkeyPatch):
    def no_com():
        raise ModuleNotFoundError("No module named 'pythoncom'")

    monkeypatch.setattr(sapi, "_com_voice", no_com)
    with Speaker("de", engine="sapi") as speaker:
        assert not speaker.available
        assert "pythoncom" in speaker.problem


def test_language_identifiers_and_rates():
    assert sapi.voice_speaks("407", "de") and sapi.voice_speaks("c07", "de")       # German (Austria) too
    assert sapi.voice_speaks("409;9", "en") and sapi.voice_speaks("413", "nl") and sapi.voice_speaks("419", "ru")
    assert not sapi.voice_speaks("409", "de") and not sapi.voice_speaks("junk", "de") and not sapi.voice_speaks("", "de")
    assert sapi.sapi_rate(200) == 0 and sapi.sapi_rate(80) == -10 and sapi.sapi_rate(2000) == 10
    assert sapi.sapi_rate(150) < 0 < sapi.sapi_rate(260)
