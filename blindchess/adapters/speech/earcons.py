"""Earcons: short sounds for a move, a capture, a check, a question and an error.

Lichess's blind mode plays a sound for every move; a blind player hears at once,
before any word, whether a move was a capture or gave check, whether the table
asks him something or refused what he did. The sounds are generated here,
deterministically, with the standard library only (``math`` and ``array``; no
numpy, no sound files): the same bytes on every machine, so they can be tested
and written out with :func:`write_wav`.

The earcons are plain sound names (:data:`EARCONS`); the caller decides which
event sounds how (the window: a move, a question, a refusal). A move's sound is
read off its SAN by :func:`move_earcon` — whether it gives check ("+", "#") or
captures ("x"). No rule of the game is applied here.

:class:`EarconPlayer` plays them on the default audio output through
sounddevice (PortAudio; the package the microphone already uses) on its own
thread, so :meth:`EarconPlayer.play` returns at once. Without an audio output
(no sound card, no PortAudio) it falls back to text: ``on_text("♪ Schach")``
— for a caller that shows it — and :attr:`EarconPlayer.problem` says why. ``sink``
receives the PCM instead of the sound card (tests, recordings).
"""

from __future__ import annotations

import math
import queue
import sys
import threading
import wave
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...base import quoted, tr

__all__ = ["EARCONS", "RATE", "synthesize", "write_wav", "move_earcon", "EarconPlayer", "Tone"]

#: The earcons, in the order a move's sound is chosen (check before capture before move).
EARCONS = ("move", "capture", "check", "question", "error")
#: Sample rate of the earcons (16-bit mono).
RATE = 22050

#: Receives raw 16-bit mono PCM and its sample rate instead of a sound card.
Sink = Callable[[bytes, int], None]


@dataclass(frozen=True)
class Tone:
    """One tone: from ``start`` for ``length`` seconds, gliding from ``f0`` to ``f1`` Hz.

    ``harmonics``: (multiple, relative amplitude) added to the fundamental;
    ``level``: peak amplitude, 0..1 of full scale.
    """

    start: float
    length: float
    f0: float
    f1: float
    level: float = 0.35
    harmonics: tuple[tuple[int, float], ...] = ()


#: The notes of each earcon: short (under a quarter second), distinct in pitch and shape.
SHAPES: dict[str, tuple[Tone, ...]] = {
    # one short wooden tick, like a piece set down
    "move": (Tone(0.0, 0.07, 740.0, 740.0, 0.35, ((2, 0.25),)),),
    # two notes falling: something is taken off the board
    "capture": (Tone(0.0, 0.06, 587.0, 587.0, 0.4, ((2, 0.2),)),
                Tone(0.07, 0.08, 392.0, 392.0, 0.4, ((2, 0.2),))),
    # two bright notes rising: attention
    "check": (Tone(0.0, 0.08, 988.0, 988.0, 0.33, ((3, 0.15),)),
              Tone(0.09, 0.10, 1319.0, 1319.0, 0.33, ((3, 0.15),))),
    # a rising glide, like the voice at the end of a question
    "question": (Tone(0.0, 0.22, 440.0, 700.0, 0.35, ((2, 0.15),)),),
    # two low buzzing pulses
    "error": (Tone(0.0, 0.11, 196.0, 196.0, 0.4, ((3, 0.33), (5, 0.2))),
              Tone(0.14, 0.11, 196.0, 196.0, 0.4, ((3, 0.33), (5, 0.2)))),
}

_ATTACK = 0.004   # seconds of linear fade-in (no click)
_RELEASE = 0.006  # seconds of linear fade-out at the end


def _render(notes: tuple[Tone, ...], rate: int) -> list[float]:
    total = max(n.start + n.length for n in notes)
    out = [0.0] * int(math.ceil(total * rate))
    for note in notes:
        first = int(round(note.start * rate))
        count = int(round(note.length * rate))
        norm = 1.0 + sum(a for _, a in note.harmonics)
        phase = 0.0
        for i in range(count):
            t = i / rate
            frac = i / max(1, count - 1)
            freq = note.f0 + (note.f1 - note.f0) * frac
            phase += 2.0 * math.pi * freq / rate
            sample = math.sin(phase) + sum(a * math.sin(k * phase) for k, a in note.harmonics)
            envelope = math.exp(-3.0 * frac)                       # a struck, decaying tone
            envelope *= min(1.0, t / _ATTACK)                       # fade in
            envelope *= min(1.0, (note.length - t) / _RELEASE)      # fade out to silence
            if first + i < len(out):
                out[first + i] += note.level * envelope * sample / norm
    return out


def synthesize(name: str, rate: int = RATE) -> bytes:
    """The earcon ``name`` (one of :data:`EARCONS`) as 16-bit mono little-endian PCM at ``rate``.

    Deterministic: the same bytes for the same arguments. Raises KeyError for an unknown name.
    """
    samples = array("h", (max(-32767, min(32767, int(round(x * 32767)))) for x in _render(SHAPES[name], rate)))
    if sys.byteorder == "big":
        samples.byteswap()
    return samples.tobytes()


def write_wav(name: str, path: Path, rate: int = RATE) -> Path:
    """Write the earcon ``name`` as a WAV file (16-bit mono). Raises OSError when ``path`` cannot be written."""
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(synthesize(name, rate))
    return Path(path)


def move_earcon(san: str) -> str:
    """The earcon of a move from its SAN: "check" when it gives check or mate ("+", "#"), else "capture"
    when it takes ("x"), else "move". Always one of :data:`EARCONS`."""
    if san.endswith(("+", "#")):
        return "check"
    return "capture" if "x" in san else "move"


class EarconPlayer:
    """Plays earcons on a worker thread (see the module docstring); never raises from :meth:`play`.

    ``sink``: gets ``(pcm, rate)`` instead of the sound card. ``on_text``: gets
    the earcon's word ("♪ Schach") when no sound can be played (on the caller's
    thread). ``lang``: the language of those words and of :attr:`problem`.
    """

    def __init__(self, *, sink: Sink | None = None, on_text: Callable[[str], None] | None = None,
                 lang: str | None = None) -> None:
        self.sink = sink
        self.on_text = on_text
        self.lang = lang
        self.problem = ""
        self.played: list[str] = []        # earcons given to the output, in order (also in the text fallback)
        self._pcm = {name: synthesize(name) for name in EARCONS}
        self._sounddevice: Any = None
        if sink is None:
            self._open_device()
        self._queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        if self.available:
            self._thread = threading.Thread(target=self._run, name="blindchess-earcons", daemon=True)
            self._thread.start()

    @property
    def available(self) -> bool:
        """True when earcons are heard (a sink or a sound card); False: text only."""
        return self.sink is not None or self._sounddevice is not None

    def _open_device(self) -> None:
        try:
            import sounddevice  # the audio adapter (as for the microphone); PortAudio may be missing
        except (ImportError, OSError) as exc:
            self.problem = tr("voice.no_sound_device", self.lang, error=quoted(type(exc).__name__, exc, self.lang))
            return
        try:
            sounddevice.query_devices(kind="output")
        except sounddevice.PortAudioError as exc:
            self.problem = tr("voice.no_sound_device", self.lang, error=quoted("PortAudio", exc, self.lang))
            return
        self._sounddevice = sounddevice

    def text(self, name: str) -> str:
        """The earcon's word in the player's language ("♪ Schach")."""
        return tr("voice.earcon_text", self.lang, name=tr(f"voice.earcon_{name}", self.lang))

    def play(self, name: str) -> None:
        """Play earcon ``name`` (one of :data:`EARCONS`) now, or give its word to ``on_text``. Raises KeyError
        for an unknown name."""
        if name not in self._pcm:
            raise KeyError(name)
        self.played.append(name)
        if self.available:
            self._queue.put(name)
        elif self.on_text is not None:
            self.on_text(self.text(name))

    def _run(self) -> None:
        while True:
            name = self._queue.get()
            if name is None:
                return
            pcm = self._pcm[name]
            if self.sink is not None:
                self.sink(pcm, RATE)
                continue
            self._play_on_device(pcm)

    def _play_on_device(self, pcm: bytes) -> None:
        sd = self._sounddevice
        if sd is None:
            return
        try:
            with sd.RawOutputStream(samplerate=RATE, channels=1, dtype="int16") as stream:
                stream.write(pcm)
        except sd.PortAudioError as exc:  # the device went away: the next earcons are given as text
            self.problem = tr("voice.no_sound_device", self.lang, error=quoted("PortAudio", exc, self.lang))
            self._sounddevice = None

    def close(self) -> None:
        """End the worker thread (what is playing finishes)."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(5.0)
            self._thread = None
