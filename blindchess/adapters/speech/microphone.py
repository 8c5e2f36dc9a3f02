"""Microphone capture at 16 kHz mono, push-to-talk and continuous listening, no self-hearing.

Capture uses **sounddevice** (PortAudio). QtMultimedia would need
PySide6-Addons (QtMultimedia is *not* part of PySide6-Essentials, which is all
blindchess depends on), a download of several hundred MB for one audio input;
sounddevice is a small pure-Python package whose wheels bundle PortAudio on
Windows and macOS (Linux: the libportaudio2 package), delivers 16-bit mono at
16 kHz directly (PortAudio resamples where the device cannot), and runs its
callback on its own thread without a Qt event loop, so the CLI can use it too.
It is imported only here, lazily: without it :attr:`Microphone.available` is
False and the app falls back to keys.

:class:`MicGate` is the coupling between the :class:`~blindchess.adapters.speech.tts.Speaker`
and the microphone: it closes when the speaker starts a text and opens again
``tail`` seconds after it finished (room echo), so the recogniser never hears
the app's own announcements. :class:`Listener` is the listening logic
(push-to-talk or voice-activity detection) fed with audio; it is independent
of the capture device, so it is tested with real WAV audio.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...base import quoted, tr
from .pcm import RECOGNITION_RATE, EnergyVAD

if TYPE_CHECKING:
    import sounddevice


class MicGate:
    """Mutes the microphone while the app speaks, and ``tail`` seconds after."""

    def __init__(self, tail: float = 0.3, clock: Callable[[], float] = time.monotonic) -> None:
        self.tail = tail
        self._clock = clock
        self._speaking = 0
        self._reopen_at = 0.0
        self._manual = False
        self._skip_tail = False
        self._lock = threading.Lock()

    def attach(self, speaker) -> Callable[[], None]:
        """Follow ``speaker``'s events; returns a function that detaches again."""
        return speaker.on_event(self.on_speech_event)

    def on_speech_event(self, event) -> None:
        if event.kind == "started":
            with self._lock:
                self._speaking += 1
        elif event.kind in ("finished", "interrupted", "error"):
            with self._lock:
                self._speaking = max(0, self._speaking - 1)
                if self._skip_tail and event.kind == "interrupted":
                    self._skip_tail = False  # the player cut the app off to speak: no echo wait
                else:
                    self._reopen_at = self._clock() + self.tail

    def player_barged_in(self) -> None:
        """The player silenced the app to speak (push-to-talk): reopen as soon as the speech stops."""
        with self._lock:
            self._skip_tail = self._speaking > 0
            self._reopen_at = 0.0

    def mute(self, muted: bool = True) -> None:
        """Mute by hand (e.g. a menu is read), independent of the speaker."""
        self._manual = muted

    def is_open(self, now: float | None = None) -> bool:
        now = self._clock() if now is None else now
        return not self._manual and self._speaking == 0 and now >= self._reopen_at


class Listener:
    """Feeds microphone audio to a recogniser, by push-to-talk or continuously.

    ``recognizer``: an :class:`~blindchess.adapters.speech.asr.Recognizer` (``accept_pcm``,
    ``final``, ``reset``). ``on_result(result)`` gets the recogniser's final
    result for each utterance. Audio arriving while ``gate`` is closed is
    always dropped. If the app starts speaking in the middle of an utterance,
    that utterance is thrown away whole (it would mix the player's and the
    app's voices). Pressing the push-to-talk key while the app speaks silences
    the ``speaker`` (the player has the floor) and the gate reopens at once.
    """

    def __init__(self, recognizer, on_result: Callable[[dict], None], *, mode: str = "push-to-talk",
                 gate: MicGate | None = None, vad: EnergyVAD | None = None, speaker=None) -> None:
        if mode not in ("push-to-talk", "continuous"):
            raise ValueError(mode)
        self.recognizer = recognizer
        self.on_result = on_result
        self.mode = mode
        self.gate = gate
        self.speaker = speaker
        self.vad = vad or EnergyVAD()
        self.key_held = False
        self._fed = False
        self._spoiled = False
        self._heard_open = False

    def key_down(self) -> None:
        """Push-to-talk key pressed: silence the app, start an utterance."""
        if self.speaker is not None and self.speaker.speaking:
            if self.gate is not None:
                self.gate.player_barged_in()
            self.speaker.stop()
        self.key_held = True
        self._fed = self._spoiled = self._heard_open = False
        self.recognizer.reset()

    def key_up(self) -> dict | None:
        """Push-to-talk key released: the utterance is complete."""
        self.key_held = False
        return self._finish()

    def _finish(self) -> dict | None:
        if not self._fed or self._spoiled:
            self._fed = self._spoiled = False
            self.recognizer.reset()
            return None
        self._fed = False
        result = self.recognizer.final()
        self.on_result(result)
        return result

    def feed(self, pcm: bytes, now: float | None = None) -> list[dict]:
        """Audio from the microphone (16 kHz mono 16-bit); returns the results completed by it."""
        results: list[dict] = []
        if self.gate is not None and not self.gate.is_open(now):
            if self.mode == "push-to-talk":
                if self.key_held and self._heard_open:
                    self._spoiled = True  # the app began to speak while the player spoke
            elif self.vad.in_speech:
                self.vad.reset()
                self.recognizer.reset()
            return results
        if self.mode == "push-to-talk":
            if self.key_held and not self._spoiled:
                self._heard_open = True
                self._fed = True
                self.recognizer.accept_pcm(pcm)
            return results
        for event in self.vad.feed(pcm):
            if event.kind == "end":
                self.recognizer.reset()
                self.recognizer.accept_pcm(event.audio)
                self._fed = True
                result = self._finish()
                if result is not None:
                    results.append(result)
        return results


class Microphone:
    """16 kHz mono 16-bit capture through sounddevice; ``on_audio(bytes)`` runs on PortAudio's thread."""

    def __init__(self, on_audio: Callable[[bytes], None], *, rate: int = RECOGNITION_RATE,
                 block_ms: int = 100, device=None, gate: MicGate | None = None, ui_lang: str | None = None) -> None:
        self.on_audio = on_audio
        self.rate = rate
        self.block = int(rate * block_ms / 1000)
        self.device = device
        self.gate = gate
        self.ui_lang = ui_lang
        self._stream: sounddevice.RawInputStream | None = None
        self.problem = ""
        try:
            import sounddevice  # noqa: F401 - optional adapter dependency

            self.available = True
        except Exception as exc:  # noqa: BLE001 - ImportError, or OSError when PortAudio is missing
            self.available = False
            self.problem = tr("speech.mic_unavailable", ui_lang, error=quoted(type(exc).__name__, exc, ui_lang))

    def _callback(self, indata, frames, time_info, status) -> None:
        if self.gate is None or self.gate.is_open():
            self.on_audio(bytes(indata))

    def start(self) -> bool:
        if not self.available:
            return False
        import sounddevice

        try:
            self._stream = sounddevice.RawInputStream(samplerate=self.rate, channels=1, dtype="int16",
                                                      blocksize=self.block, device=self.device,
                                                      callback=self._callback)
            self._stream.start()
        except Exception as exc:  # noqa: BLE001 - no device, device busy, ...
            self.problem = tr("speech.mic_no_device", self.ui_lang, error=quoted("PortAudio", exc, self.ui_lang))
            self._stream = None
            return False
        return True

    def stop(self) -> None:
        if self._stream is not None:
            self._stream.stop()
            self._stream.close()
            self._stream = None
