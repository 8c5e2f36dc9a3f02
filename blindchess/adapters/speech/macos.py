"""macOS: the program's own voice through ``say``, and VoiceOver's texts one after another.

The program's voice (FIDE Laws D.2.1) is macOS's ``say`` command, one process per text, as espeak-ng
is on Linux: it speaks with the voices of System Settings › Accessibility › Spoken Content, needs no
run loop, and a text is cut off at once by ending its process. The speaker's worker thread can
therefore never hang in Cocoa — which pyttsx3's NSSpeechSynthesizer driver does on a worker thread
(it needs the main thread's run loop). AVSpeechSynthesizer has the same need and would bring PyObjC
(about a hundred packages) into the program; ``say`` is part of every macOS.

VoiceOver is asked through AppleScript (``osascript``). Each text is handed over only after the one
before was accepted — one ``osascript`` at a time, in order, on a thread of its own — so texts
neither overlap nor change places, and a slow AppleScript never holds up the caller. The window's own
texts ("window") replace the window's text still waiting; :meth:`OsascriptQueue.clear` drops whatever
is still waiting.
"""

from __future__ import annotations

import collections
import contextlib
import re
import shutil
import subprocess
import threading
from collections.abc import Callable, Sequence

from ...base import tr
from . import pronunciation

#: A voice line of ``say -v '?'``: "Anna                de_DE    # Hallo, ich heiße Anna."
_VOICE_LINE = re.compile(r"^(?P<name>\S.*?)\s+(?P<locale>[a-z]{2,3}[_-][A-Za-z0-9]{2,4})\s+#")


def voices(listing: str) -> list[tuple[str, str]]:
    """(name, locale) of each voice in the output of ``say -v '?'``."""
    found = []
    for line in listing.splitlines():
        match = _VOICE_LINE.match(line)
        if match:
            found.append((match["name"].strip(), match["locale"].replace("-", "_")))
    return found


def choose_voice(listing: str, lang: str) -> str | None:
    """The first voice of ``say -v '?'`` that speaks ``lang`` ("de" → a de_DE, de_AT or de_CH voice), or None."""
    want = pronunciation.load(lang).language.lower()
    for name, locale in voices(listing):
        if locale.lower().split("_")[0] == want:
            return name
    return None


def say_args(binary: str, voice: str | None, rate: float | None) -> list[str]:
    """``say``'s arguments; the text comes on standard input (``-f -``), so no text is taken for an option."""
    args = [binary]
    if voice:
        args += ["-v", voice]
    if rate:
        args += ["-r", str(int(rate))]   # words per minute, as espeak-ng's -s
    return [*args, "-f", "-"]


class SayBackend:
    """Speaks through macOS's ``say``, one process per text (see the module docstring)."""

    name = "say"

    def __init__(self, lang: str, rate: float | None = None, volume: float | None = None, *,
                 binary: str | None = None, voice: str | None = None) -> None:
        self.lang = lang
        self.rate = rate
        self.volume = volume
        self.binary = binary or shutil.which("say")
        self.available = self.binary is not None
        self.problem = "" if self.available else tr("speech.no_say", None)
        self.voice = voice
        if self.available and voice is None:
            self.voice = self._voice_for(lang)
        self._proc: subprocess.Popen[bytes] | None = None

    def _voice_for(self, lang: str) -> str | None:
        assert self.binary is not None
        try:
            listing = subprocess.run([self.binary, "-v", "?"], capture_output=True, text=True, timeout=20).stdout
        except (OSError, subprocess.TimeoutExpired):
            return None
        return choose_voice(listing, lang)

    def speak(self, text: str, cancel: threading.Event) -> bool:
        if not self.available or self.binary is None or cancel.is_set():
            return False
        text = pronunciation.load(self.lang).apply(text)
        if self.volume is not None:
            text = f"[[volm {max(0.0, min(1.0, float(self.volume))):.2f}]] {text}"   # say has no volume option
        proc = subprocess.Popen(say_args(self.binary, self.voice, self.rate), stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._proc = proc
        try:
            assert proc.stdin is not None
            with contextlib.suppress(BrokenPipeError):
                proc.stdin.write(text.encode("utf-8"))
                proc.stdin.close()
            while proc.poll() is None:
                if cancel.wait(0.01):
                    return False
            return proc.returncode == 0
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            self._proc = None

    def interrupt(self) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(OSError):
                proc.kill()


class OsascriptQueue:
    """Runs AppleScript commands one at a time, in order, on a thread of its own (see the module docstring).

    ``put(args, replace=key)`` queues a command; a waiting command put with the same ``replace`` key is
    replaced (the newer text wins). ``on_error(exc)`` hears of a command that could not be started.
    """

    def __init__(self, *, on_error: Callable[[OSError], None] | None = None, timeout: float = 10.0) -> None:
        self._waiting: collections.deque[tuple[list[str], str | None]] = collections.deque()
        self._wake = threading.Condition()
        self._closed = False
        self._timeout = timeout
        self._on_error = on_error
        self.running = 0            # commands running now: never more than one
        self._thread = threading.Thread(target=self._run, name="blindchess-voiceover", daemon=True)
        self._thread.start()

    def put(self, args: Sequence[str], *, replace: str | None = None) -> None:
        with self._wake:
            if replace is not None:
                kept = [item for item in self._waiting if item[1] != replace]
                self._waiting = collections.deque(kept)
            self._waiting.append((list(args), replace))
            self._wake.notify()

    def clear(self) -> None:
        """Drop every command still waiting (the one running goes on: VoiceOver cannot be stopped from outside)."""
        with self._wake:
            self._waiting.clear()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing waits and nothing runs (tests, closing)."""
        with self._wake:
            return self._wake.wait_for(lambda: not self._waiting and not self.running, timeout)

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._waiting.clear()
            self._wake.notify_all()
        self._thread.join(self._timeout + 1)

    def _run(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._waiting or self._closed)
                if self._closed:
                    return
                args, _ = self._waiting.popleft()
                self.running += 1
            try:
                subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               timeout=self._timeout)
            except subprocess.TimeoutExpired:
                pass   # a hung AppleScript is ended; the next text goes on
            except OSError as exc:
                if self._on_error is not None:
                    self._on_error(exc)
            finally:
                with self._wake:
                    self.running -= 1
                    self._wake.notify_all()
