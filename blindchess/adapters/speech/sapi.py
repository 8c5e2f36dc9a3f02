"""The program's own voice on Windows: SAPI 5 (the voices of Windows' speech settings), FIDE Laws D.2.1.

One ``SAPI.SpVoice`` COM object per :class:`~.tts.Speaker`, created on the speaker's worker thread
(COM initialised there, single-threaded apartment) and *only ever called there*: a COM object belongs
to the apartment of the thread that made it, so speaking and stopping both happen on that thread.

A text is spoken asynchronously (``SVSFlagsAsync``) and the worker waits for its end in short steps
(``WaitUntilDone``); between steps it looks at the speaker's cancel flag — when a more urgent text or
:meth:`~.tts.Speaker.stop` sets it from another thread, the worker itself purges the voice
(``Speak("", SVSFPurgeBeforeSpeak)``). :meth:`SapiBackend.interrupt`, called from other threads, never
touches the COM object.

The COM binding is pywin32's dynamic dispatch (``win32com.client.Dispatch``): no generated wrapper
modules, so it works the same in the stand-alone program (PyInstaller), where comtypes' generated
modules cannot be written. pywin32 is a Windows-only dependency, imported by name when the backend is
made.
"""

from __future__ import annotations

import importlib
import math
import threading
from collections.abc import Callable
from typing import Any

from ...base import tr
from . import pronunciation

#: SpeechVoiceSpeakFlags.
SVSF_ASYNC = 1
SVSF_PURGE_BEFORE_SPEAK = 2
SVSF_IS_NOT_XML = 16
#: How long the worker waits for the voice between looks at the cancel flag (milliseconds): the longest
#: a more urgent text waits before the current one is cut.
STEP_MS = 10

#: Windows language identifiers (LANGID's primary language) of the languages blindchess speaks.
PRIMARY_LANGUAGE = {"de": 0x07, "en": 0x09, "nl": 0x13, "ru": 0x19}


def sapi_rate(words_per_minute: float) -> int:
    """SAPI's rate (-10 … 10, 0 = the voice's normal speed, about 200 words a minute; each step ~2.5 times
    slower or faster over ten steps) for a rate in words per minute."""
    return max(-10, min(10, round(10 * math.log(max(1.0, words_per_minute) / 200.0, 2.5))))


def voice_speaks(language_attribute: str, lang: str) -> bool:
    """Whether a voice token's ``Language`` attribute (hex LANGIDs separated by ";", e.g. "407" or
    "409;9") names ``lang``."""
    want = PRIMARY_LANGUAGE.get(lang)
    if want is None:
        return False
    for part in language_attribute.split(";"):
        try:
            if int(part.strip(), 16) & 0x3FF == want:
                return True
        except ValueError:
            continue
    return False


def _com_voice() -> Any:
    """A new SpVoice for this thread (COM initialised for it first)."""
    pythoncom = importlib.import_module("pythoncom")   # pywin32, Windows only
    pythoncom.CoInitialize()
    client = importlib.import_module("win32com.client")
    return client.Dispatch("SAPI.SpVoice")


class SapiBackend:
    """Speaks through SAPI 5; create it on the thread that speaks (the speaker's worker does).

    ``factory`` makes the voice object (tests pass a recording stand-in; default: SpVoice over COM).
    """

    name = "sapi"

    def __init__(self, lang: str, rate: float | None = None, volume: float | None = None, *,
                 voice: str | None = None, factory: Callable[[], Any] | None = None) -> None:
        self.lang = lang
        self.problem = ""
        try:
            self.voice = (factory or _com_voice)()
            chosen = self._find_voice(voice or lang)
            if chosen is not None:
                self.voice.Voice = chosen
            if rate:
                self.voice.Rate = sapi_rate(rate)
            if volume is not None:
                self.voice.Volume = max(0, min(100, round(volume * 100)))
            self.available = True
        except Exception as exc:  # noqa: BLE001 - no pywin32, no COM class, no voice: no speech, one message
            self.voice = None
            self.available = False
            self.problem = tr("speech.no_engine_detail", None, error=f"{type(exc).__name__}: {exc}")

    def _find_voice(self, wanted: str) -> Any:
        """The first installed voice that speaks ``wanted`` (a language code, or part of a voice's name)."""
        tokens = self.voice.GetVoices()
        for index in range(int(tokens.Count)):
            token = tokens.Item(index)
            if voice_speaks(str(token.GetAttribute("Language") or ""), wanted):
                return token
        for index in range(int(tokens.Count)):
            token = tokens.Item(index)
            if wanted.lower() in str(token.GetDescription()).lower():
                return token
        return None

    def speak(self, text: str, cancel: threading.Event) -> bool:
        """Say ``text`` on this (the speaker's) thread; False when cut off by ``cancel``."""
        if not self.available or cancel.is_set():
            return False
        text = pronunciation.load(self.lang).apply(text)   # plain respellings: SAPI reads no espeak phonemes
        self.voice.Speak(text, SVSF_ASYNC | SVSF_IS_NOT_XML)
        while not self.voice.WaitUntilDone(STEP_MS):
            if cancel.is_set():
                self.voice.Speak("", SVSF_ASYNC | SVSF_PURGE_BEFORE_SPEAK)   # stop, here on the voice's thread
                return False
        return not cancel.is_set()

    def interrupt(self) -> None:
        """Nothing to do from another thread: :meth:`speak` sees the speaker's cancel flag and stops the voice."""
