"""Text-to-speech: the :class:`Speaker` worker and WAV rendering (FIDE Laws D.2.1, D.2.7).

Engines
-------
* **espeak-ng** (Linux default): the ``espeak-ng`` program, one process per
  utterance. It streams audio as it synthesises (first sample in a few tens of
  milliseconds) and an utterance is cut off at once by ending its process —
  this is what makes barge-in reliable.
* **SAPI 5** (Windows, :mod:`.sapi`) and **say** (macOS, :mod:`.macos`): the
  system's own voice, driven and stopped on the speech worker thread.
* **pyttsx3** (Windows when SAPI cannot be reached directly; Linux when the
  espeak-ng program is missing): driven from the speech worker thread with
  ``runAndWait`` and interrupted with ``engine.stop()``. pyttsx3's own espeak
  driver (2.99) is not used for speaking on Linux: it synthesises the whole
  utterance before playing it through a blocking ``aplay`` call inside its
  synthesis callback (not interruptible, and ``aplay`` is often missing), and it
  prints to stdout. Its ``save_to_file`` is used for WAV rendering when the
  espeak-ng program is missing.
* **text**: no engine. :attr:`Speaker.available` is False and every text is
  still reported through :meth:`Speaker.on_event`, so the UI shows it.

The speaker never blocks its caller: :meth:`Speaker.say` puts the text in a
priority queue that a worker thread speaks. A more urgent text (a move) cuts a
less urgent one (a long reading) off; ``interrupt=True`` also drops whatever
was still waiting.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import wave
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from ...base import UserError, atomic_path, quoted, tr
from . import pronunciation

#: Priorities, most urgent first. A move announcement interrupts a reading.
PRIORITY_MOVE = 0
PRIORITY_ANSWER = 1
PRIORITY_READING = 2

#: Receives raw 16-bit mono PCM and its sample rate instead of a loudspeaker.
Sink = Callable[[bytes, int], None]


@dataclass(frozen=True)
class SpeechEvent:
    """What the speaker did with a text.

    ``kind``: "text" (say() was called — show it; ``spoken`` False without an
    engine), "started", "finished", "interrupted" (cut off by a more urgent
    text or stop()), "dropped" (removed from the queue unspoken), "error".
    """

    kind: str
    text: str
    priority: int = PRIORITY_ANSWER
    spoken: bool = True
    detail: str = ""


# --------------------------------------------------------------------------- engines

class _TextOnly:
    """No speech engine: nothing is spoken, texts are only reported."""

    name = "text"
    available = False

    def __init__(self, problem: str = "") -> None:
        self.problem = problem

    def speak(self, text: str, cancel: threading.Event) -> bool:
        return False

    def interrupt(self) -> None:
        pass


def find_espeak(binary: str | None = None) -> str | None:
    """The espeak-ng (or espeak) program, or None."""
    if binary:
        return binary if os.path.isfile(binary) and os.access(binary, os.X_OK) else None
    return shutil.which("espeak-ng") or shutil.which("espeak")


def _espeak_args(binary: str, lang: str, rate: float | None, volume: float | None,
                 voice: str | None = None) -> list[str]:
    """espeak-ng's arguments; ``voice`` (a user's choice, e.g. "de+f3") overrides the language's voice."""
    args = [binary, "-v", voice or pronunciation.load(lang).espeak_voice, "-b", "1"]
    if rate:
        args += ["-s", str(int(rate))]  # words per minute
    if volume is not None:
        args += ["-a", str(max(0, min(200, int(round(volume * 100)))))]
    return args


def _wav_header_rate(header: bytes) -> int:
    """The sample rate of a canonical 44-byte WAV header (espeak-ng --stdout)."""
    if len(header) >= 28 and header[:4] == b"RIFF" and header[8:12] == b"WAVE":
        return int.from_bytes(header[24:28], "little")
    return 22050


class EspeakNgBackend:
    """Speaks through the espeak-ng program; ``sink`` receives the audio instead of a loudspeaker.

    ``pace`` (with a sink) feeds the sink at that multiple of real time, like a
    sound card consuming the samples; None feeds it as fast as espeak-ng
    produces them.
    """

    name = "espeak-ng"

    def __init__(self, lang: str, rate: float | None = None, volume: float | None = None, *,
                 binary: str | None = None, sink: Sink | None = None, pace: float | None = None,
                 voice: str | None = None) -> None:
        self.lang = lang
        self.voice = voice
        self.rate = rate
        self.volume = volume
        self.binary = find_espeak(binary)
        self.sink = sink
        self.pace = pace
        self.available = self.binary is not None
        self.problem = "" if self.available else tr("speech.no_espeak", None, binary=binary or "espeak-ng")
        self._proc: subprocess.Popen[bytes] | None = None

    def speak(self, text: str, cancel: threading.Event) -> bool:
        if not self.available or self.binary is None or cancel.is_set():
            return False
        text = pronunciation.load(self.lang).apply(text, espeak=True)
        args = _espeak_args(self.binary, self.lang, self.rate, self.volume, self.voice)
        if self.sink is not None:
            args.append("--stdout")
        proc = subprocess.Popen(args, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE if self.sink else subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        self._proc = proc
        try:
            assert proc.stdin is not None  # stdin=PIPE
            with contextlib.suppress(BrokenPipeError):
                proc.stdin.write(text.encode("utf-8"))
                proc.stdin.close()
            if self.sink is None:
                while proc.poll() is None:
                    if cancel.wait(0.01):
                        return False
                return True
            return self._stream(proc, cancel)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            if proc.stdout:
                proc.stdout.close()
            self._proc = None

    def _stream(self, proc: subprocess.Popen[bytes], cancel: threading.Event) -> bool:
        sink = self.sink
        assert sink is not None  # speak() streams only to a sink
        stdout = cast(io.BufferedReader, proc.stdout)  # stdout=PIPE, buffered: a BufferedReader
        header = b""
        while len(header) < 44:
            more = stdout.read(44 - len(header))
            if not more:
                return not cancel.is_set()
            header += more
        rate = _wav_header_rate(header)
        started = time.monotonic()
        sent = 0
        while not cancel.is_set():
            chunk = stdout.read1(4096)
            if not chunk:
                return True
            sink(chunk, rate)
            sent += len(chunk)
            if self.pace:
                due = started + sent / 2 / rate / self.pace
                if cancel.wait(max(0.0, due - time.monotonic())):
                    return False
        return False

    def interrupt(self) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(OSError):
                proc.kill()


def _pyttsx3_engine(driver: str | None):
    import pyttsx3  # an adapter: only the speech package imports it

    with contextlib.redirect_stdout(io.StringIO()):
        return pyttsx3.init(driver)


def _choose_voice(engine, lang: str) -> str | None:
    """The id of the first voice of the engine that speaks ``lang``."""
    want = pronunciation.load(lang).language.lower()
    try:
        voices = engine.getProperty("voices") or []
    except Exception:  # noqa: BLE001 - drivers differ; no voice list is not fatal
        return None
    for voice in voices:
        langs = [(x.decode(errors="ignore") if isinstance(x, bytes) else str(x)).lower().replace("_", "-")
                 for x in (getattr(voice, "languages", None) or [])]
        if any(x.lstrip("\x05").startswith(want) for x in langs):
            return voice.id
    for voice in voices:
        ident = str(voice.id).lower()
        if f"{want}-" in ident or f"_{want}" in ident or ident.endswith(f"/{want}"):
            return voice.id
    return None


class Pyttsx3Backend:
    """Speaks through pyttsx3 (SAPI5, NSSpeechSynthesizer, espeak). Create it in the thread that speaks."""

    name = "pyttsx3"

    def __init__(self, lang: str, rate: float | None = None, volume: float | None = None, *,
                 driver: str | None = None, voice: str | None = None) -> None:
        self.lang = lang
        self.problem = ""
        try:
            self.engine = _pyttsx3_engine(driver)
            voice = voice or _choose_voice(self.engine, lang)
            if voice:
                self.engine.setProperty("voice", voice)
            if rate:
                self.engine.setProperty("rate", int(rate))
            if volume is not None:
                self.engine.setProperty("volume", max(0.0, min(1.0, float(volume))))
            self.available = True
        except Exception as exc:  # noqa: BLE001 - any missing engine/driver means: no speech
            self.engine = None
            self.available = False
            self.problem = tr("speech.no_engine_detail", None, error=quoted(type(exc).__name__, exc))

    def speak(self, text: str, cancel: threading.Event) -> bool:
        if not self.available or cancel.is_set():
            return False
        # plain respellings only: pyttsx3 calls espeak without phoneme input, so [[...]] would be read out
        text = pronunciation.load(self.lang).apply(text)
        with contextlib.redirect_stdout(io.StringIO()):
            self.engine.say(text)
            self.engine.runAndWait()
        return not cancel.is_set()

    def interrupt(self) -> None:
        if self.engine is not None:
            with contextlib.suppress(Exception):
                self.engine.stop()


def _platform_backend(engine: str, lang: str, rate, volume, voice):
    """The system's own voice where the speaker's thread drives it best: SAPI 5 on Windows (:mod:`.sapi`),
    ``say`` on macOS (:mod:`.macos`); None elsewhere."""
    if engine == "sapi" or (engine == "auto" and sys.platform == "win32"):
        from .sapi import SapiBackend
        return SapiBackend(lang, rate, volume, voice=voice)
    if engine == "say" or (engine == "auto" and sys.platform == "darwin"):
        from .macos import SayBackend
        return SayBackend(lang, rate, volume, voice=voice)
    return None


def _make_backend(engine: str, lang: str, rate, volume, *, driver, sink, pace, espeak_binary, voice=None):
    if engine == "text":
        return _TextOnly(tr("speech.no_engine", None))
    system = _platform_backend(engine, lang, rate, volume, voice) if sink is None else None
    if system is not None and (system.available or engine in ("sapi", "say")):
        return system if system.available else _TextOnly(system.problem)
    if engine in ("auto", "espeak-ng") and (engine == "espeak-ng" or sys.platform.startswith("linux")):
        backend = EspeakNgBackend(lang, rate, volume, binary=espeak_binary, sink=sink, pace=pace, voice=voice)
        if backend.available or engine == "espeak-ng":
            return backend if backend.available else _TextOnly(backend.problem)
    fallback = Pyttsx3Backend(lang, rate, volume, driver=driver, voice=voice)
    return fallback if fallback.available else _TextOnly(fallback.problem)


# --------------------------------------------------------------------------- speaker

@dataclass(order=True)
class _Item:
    priority: int
    seq: int
    text: str = ""


_STOP = _Item(-1, -1, "")


class Speaker:
    """Speaks texts one after another on a worker thread; :meth:`say` returns at once.

    ``engine``: "auto", "espeak-ng", "sapi", "say", "pyttsx3" or "text"; ``driver`` a pyttsx3
    driver name (None: the platform's). ``sink``/``pace`` send espeak-ng's audio
    to a callable instead of the loudspeaker (tests, benchmarks, recordings).
    """

    def __init__(self, lang: str = "de", rate: float | None = None, volume: float | None = None, *,
                 engine: str = "auto", driver: str | None = None, sink: Sink | None = None,
                 pace: float | None = None, espeak_binary: str | None = None, voice: str | None = None) -> None:
        self.lang = lang
        self._listeners: list[Callable[[SpeechEvent], None]] = []
        self._queue: queue.PriorityQueue[_Item] = queue.PriorityQueue()
        self._lock = threading.RLock()
        self._seq = itertools.count()
        self._cancel = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._current: _Item | None = None
        self._pending = 0
        self._last: _Item | None = None
        self._ready = threading.Event()
        self._closed = False
        self._backend = _TextOnly()
        self._thread = threading.Thread(
            target=self._run, name="blindchess-speaker", daemon=True,
            args=(engine, lang, rate, volume,
                  dict(driver=driver, sink=sink, pace=pace, espeak_binary=espeak_binary, voice=voice)),
        )
        self._thread.start()
        self._ready.wait(10.0)  # the engine is created on the worker thread (SAPI5 wants that)

    # -- state
    @property
    def available(self) -> bool:
        """True when an engine really speaks; False means texts are only shown."""
        return bool(self._backend.available)

    @property
    def engine_name(self) -> str:
        return self._backend.name

    @property
    def problem(self) -> str:
        """Why nothing is spoken (in the user's language), or "" when an engine works."""
        return "" if self.available else (self._backend.problem or tr("speech.no_engine", None))

    @property
    def speaking(self) -> bool:
        return self._current is not None

    @property
    def last_text(self) -> str | None:
        return self._last.text if self._last else None

    # -- subscribers
    def on_event(self, callback: Callable[[SpeechEvent], None]) -> Callable[[], None]:
        """Call ``callback(SpeechEvent)`` for everything the speaker does; returns an unsubscribe function."""
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in self._listeners else None

    def _emit(self, kind: str, item: _Item, detail: str = "") -> None:
        event = SpeechEvent(kind, item.text, item.priority, self.available, detail)
        for callback in list(self._listeners):
            try:
                callback(event)
            except Exception:  # noqa: BLE001 - a broken listener must not silence the speaker
                pass

    # -- commands
    def say(self, text: str, *, interrupt: bool = False, priority: int = PRIORITY_ANSWER) -> None:
        """Queue ``text``. More urgent than what is being spoken: cut that off (barge-in).

        ``interrupt=True`` cuts off the current text whatever its priority and
        drops everything still waiting.
        """
        text = str(text).strip()
        if not text:
            return
        item = _Item(int(priority), next(self._seq), text)
        self._emit("text", item)
        if self._closed:
            return
        dropped: list[_Item] = []
        with self._lock:
            self._last = item
            if interrupt:
                dropped = self._drop_pending()
            current = self._current
            if current is not None and (interrupt or item.priority < current.priority):
                self._cut_current()
            self._pending += 1
            self._idle.clear()
            self._queue.put(item)
        for old in dropped:  # outside the lock: a listener may call say() again
            self._emit("dropped", old)

    def repeat(self) -> None:
        """Say the last text again (the player asked "Wiederholen")."""
        last = self._last
        if last is not None:
            self.say(last.text, priority=last.priority)

    def stop(self) -> None:
        """Silence at once: cut off the current text and drop the waiting ones."""
        with self._lock:
            dropped = self._drop_pending()
            self._cut_current()
        for old in dropped:
            self._emit("dropped", old)

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until everything queued has been spoken (CLI and tests; the UI never needs it)."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        """Stop speaking and end the worker thread."""
        self._closed = True
        self.stop()
        self._queue.put(_STOP)
        self._thread.join(5.0)
        self._idle.set()

    def __enter__(self) -> Speaker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- worker
    def _drop_pending(self) -> list[_Item]:
        """Empty the queue (under the lock); the caller reports the dropped items."""
        dropped: list[_Item] = []
        stop = False
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is _STOP:
                stop = True
                continue
            self._pending -= 1
            dropped.append(item)
        if stop:
            self._queue.put(_STOP)
        if self._pending <= 0 and self._current is None:
            self._idle.set()
        return dropped

    def _cut_current(self) -> None:
        if self._current is not None:
            self._cancel.set()
            self._backend.interrupt()

    def _run(self, engine, lang, rate, volume, options) -> None:
        try:
            self._backend = _make_backend(engine, lang, rate, volume, **options)
        except Exception as exc:  # noqa: BLE001 - never let the engine take the app down
            self._backend = _TextOnly(tr("speech.no_engine_detail", None, error=quoted(type(exc).__name__, exc)))
        finally:
            self._ready.set()
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            with self._lock:
                self._pending -= 1
                self._current = item
                self._cancel.clear()
            completed = False
            if self.available:
                self._emit("started", item)
                try:
                    completed = self._backend.speak(item.text, self._cancel)
                except Exception as exc:  # noqa: BLE001
                    self._emit("error", item, f"{type(exc).__name__}: {exc}")
            with self._lock:
                self._current = None
                if self._pending <= 0:
                    self._idle.set()
            if self.available:
                self._emit("finished" if completed else "interrupted", item)


# --------------------------------------------------------------------------- WAV rendering

def _synth_pcm(text: str, lang: str, rate: float | None) -> tuple[bytes, int]:
    """Synthesise ``text`` to 16-bit mono PCM; (pcm, sample_rate)."""
    binary = find_espeak()
    if binary:
        fixed = pronunciation.load(lang).apply(text, espeak=True)
        args = _espeak_args(binary, lang, rate, None) + ["--stdout"]
        done = subprocess.run(args, input=fixed.encode("utf-8"), capture_output=True, timeout=120)
        data = done.stdout
        if done.returncode == 0 and len(data) > 44:
            return data[44:], _wav_header_rate(data)
        error = done.stderr.decode(errors="replace").strip()
        if "voice does not exist" in error:   # espeak-ng knows no voice for this language code
            raise UserError(tr("speech.no_voice", None, lang=lang))
        raise UserError(tr("speech.render_failed", None, error=quoted("espeak-ng", error)))
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "p.wav"
        _pyttsx3_save(text, target, lang, rate)
        from .pcm import read_wav, to_mono
        got = read_wav(target)
        return to_mono(got.pcm, got.channels), got.rate


def _pyttsx3_save(text: str, path: Path, lang: str, rate: float | None) -> None:
    try:
        engine = _pyttsx3_engine(None)
        voice = _choose_voice(engine, lang)
        if voice:
            engine.setProperty("voice", voice)
        if rate:
            engine.setProperty("rate", int(rate))
        fixed = pronunciation.load(lang).apply(text)  # no [[phonemes]] through pyttsx3 (see Pyttsx3Backend)
        with contextlib.redirect_stdout(io.StringIO()):
            engine.save_to_file(fixed, str(path))
            engine.runAndWait()
    except Exception as exc:  # noqa: BLE001
        raise UserError(tr("speech.no_engine_detail", None, error=quoted(type(exc).__name__, exc))) from exc
    if not path.is_file() or path.stat().st_size <= 44:
        raise UserError(tr("speech.render_failed", None, error=str(path)))


def _write_wav(path: Path, pcm: bytes, rate: int) -> Path:
    """Write the WAV whole or not at all, through the one checked writer of exports.

    :func:`blindchess.base.files.atomic_path` checks the target first (a folder, a
    missing folder, a name the system refuses, a symlink loop, a pipe nobody reads
    from: :class:`UserError` naming it, nothing written), writes a temporary file
    beside it and renames it; a device or a pipe with a reader is written into.
    """
    with atomic_path(path, suffix=".wav") as tmp, wave.open(str(tmp), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm)
    return Path(path)


def render_wav(text: str, path, lang: str = "de", rate: float | None = None) -> Path:
    """Render ``text`` to a 16-bit mono WAV file at ``path`` (espeak-ng, else pyttsx3)."""
    text = str(text).strip()
    if not text:
        raise UserError(tr("speech.nothing_to_say", None))
    pcm, sample_rate = _synth_pcm(text, lang, rate)
    return _write_wav(Path(path), pcm, sample_rate)


def render_phrases_wav(phrases: list[str], path, lang: str = "de", pause: float = 0.6,
                       rate: float | None = None) -> Path:
    """Render several phrases into one WAV, ``pause`` seconds of silence between them.

    The recording of a whole game (D.2.7): ``blindchess announce GAME.pgn --wav``
    passes one phrase per move, move numbers included.
    """
    phrases = [str(p).strip() for p in phrases if str(p).strip()]
    if not phrases:
        raise UserError(tr("speech.nothing_to_say", None))
    parts: list[bytes] = []
    sample_rate = 0
    for phrase in phrases:
        pcm, r = _synth_pcm(phrase, lang, rate)
        if sample_rate and r != sample_rate:
            from .pcm import resample
            pcm = resample(pcm, r, sample_rate)
        sample_rate = sample_rate or r
        parts.append(pcm)
    gap = b"\x00\x00" * int(max(0.0, pause) * sample_rate)
    return _write_wav(Path(path), gap.join(parts), sample_rate)
