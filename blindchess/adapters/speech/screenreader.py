"""The user's own screen reader as a speech output: speech-dispatcher, NVDA/JAWS, VoiceOver.

A blind player who runs a screen reader hears it in his own voice, rate and
headphones; text sent there reaches him the way everything else on his desktop
does. :func:`connect` returns a :class:`ScreenReader` for the running screen
reader of this platform or raises :class:`ScreenReaderUnavailable` with the
reason in the user's language; :class:`~blindchess.ui.voice.TableVoice` then
falls back to the program's own voice.

Linux (tested here, for real): **speech-dispatcher**
    Orca speaks through speech-dispatcher, so text sent to speech-dispatcher is
    spoken by the same synthesiser with the user's settings, and is queued with
    Orca's own speech by speech-dispatcher's priority model (SSIP). We use
    speech-dispatcher's own Python binding ``speechd`` (Debian/Ubuntu package
    ``python3-speechd``, installed by ``make``; Fedora/Arch ship it too) — the
    library Orca itself uses. The binding is a pure-Python package of the
    system's Python, which a virtual environment does not see. It is loaded
    *by path, alone*: :func:`load_speechd` first tries a normal ``import speechd``
    (a venv that has it, a system install), then looks for the one package
    ``speechd/`` in the system's ``dist-packages``/``site-packages`` folders and
    loads exactly that package — not the system's whole ``dist-packages``,
    which a ``.pth`` pointing at it would put on ``sys.path`` (other, older
    copies of packages the app depends on). A hand-written SSIP client was the
    alternative; it is not needed while the binding loads, and the binding is
    maintained with the server.
    Connection: the user's session server (``$SPEECHD_ADDRESS`` or
    ``$XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock``), or ``address``. We do
    not start a server ourselves (no autospawn): a screen reader that runs has
    one running; when none answers, the program's voice speaks.
    Every text is sent with SSIP priority ``message``: it is never discarded,
    waits for nothing but ``important`` messages, and interrupts
    ``text``-priority speech (what the screen reader says when the focus moves).
    One text at a time is with speech-dispatcher; the program's own queue (the
    one priority and rule of :mod:`blindchess.base.speaking`) decides which is
    next, and speech-dispatcher's END event lets it go — so a text is cancelled
    only when the one that replaces it comes (:meth:`SpeechDispatcher.cut`).
    The calls go over a local socket and return in about a millisecond; the
    texts that waited are sent from a thread of the connection's own.

Windows: **accessible_output2** (the extra ``[windows]``)
    The maintained library behind many accessible games and clients; it talks
    to NVDA through NVDA's controller client DLL, to JAWS through its COM API,
    and to other Windows screen readers (Dolphin, System Access, PC Talker,
    ZDSR). Only a *screen reader* counts: its "system" outputs (SAPI 5/4) are
    the program's voice's job (:mod:`.sapi`), so with no screen reader running
    the program's voice speaks. In the stand-alone program the library and its
    DLLs are bundled (``_internal/accessible_output2/lib``, where it looks when
    frozen); ``make test-windows`` checks that they load from there.

macOS: **VoiceOver through AppleScript** (``osascript``)
    ``tell application "VoiceOver" to output "…"``: VoiceOver speaks the text in
    its own voice. It works only when the user has allowed it in VoiceOver
    Utility ("Allow VoiceOver to be controlled with AppleScript") and macOS's
    Apple Events consent (the app's ``NSAppleEventsUsageDescription``); otherwise
    :func:`connect` says so. The texts are handed over one at a time, in order
    (:class:`.macos.OsascriptQueue`). There is no documented way to stop VoiceOver's
    output from outside, so :meth:`cancel` only drops our texts still waiting.
    accessible_output2's VoiceOver output needs ``appscript``, which is no longer
    maintained; a subprocess needs nothing.

Which screen reader runs: :func:`running` answers for this desktop session
(Linux: an Orca process of this user in this D-Bus session or on this display;
Windows: a screen reader accessible_output2 finds active; macOS: VoiceOver) —
the speech channel "auto" (the default) speaks through the screen reader when
one runs and through the program's voice otherwise, never both for one text.

Newer replaces older only for the same request: a key pressed ten times is
answered once, with the last answer; nothing else is cut by it.

Braille: NVDA and JAWS show what accessible_output2 ``output`` s on the braille
display; speech-dispatcher speaks only. With Orca, the window presents its texts
through Orca itself (:class:`blindchess.ui.a11y.Notices`), so they reach Orca's
braille display as Orca shows every notification.

Errors: :class:`ScreenReaderUnavailable` from :func:`connect` and the
constructors (nothing to speak to); :class:`ScreenReaderLost` from
:meth:`~ScreenReader.say` / :meth:`~ScreenReader.cancel` when the connection
breaks (the server went away). Both carry a message in the user's language.
"""

from __future__ import annotations

import glob
import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from ...base import SpeechQueue, UserError, Utterance, quoted, tr
from .macos import OsascriptQueue

__all__ = ["ScreenReader", "ScreenReaderUnavailable", "ScreenReaderLost", "SpeechDispatcher", "WindowsScreenReader",
           "VoiceOver", "connect", "load_speechd", "running", "SSIP_PRIORITY"]

#: SSIP priority for each speech priority (``message``: never discarded, not cut by the screen reader's own speech).
SSIP_PRIORITY = {"move": "message", "question": "message", "answer": "message", "status": "message",
                 "notice": "message", "reading": "text"}

#: Where distributions install the system Python's packages (Debian/Ubuntu first).
SYSTEM_PACKAGE_DIRS = ("/usr/lib/python3/dist-packages", "/usr/lib/python3*/site-packages",
                       "/usr/lib64/python3*/site-packages", "/usr/local/lib/python3*/dist-packages")


class ScreenReaderUnavailable(UserError):
    """No screen reader to speak to (the message says why, in the user's language)."""


class ScreenReaderLost(UserError):
    """The screen reader's connection broke while speaking (the message says why); ``unsaid``: the texts it
    had been given and never said (the program's voice says them instead)."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message, exit_code)
        self.unsaid: list[str] = []


class ScreenReader(Protocol):
    """A running screen reader that speaks (and shows on a braille display) texts for us."""

    #: What it is, for the speech status ("speech-dispatcher", "NVDA", "VoiceOver").
    name: str

    def say(self, text: str, priority: str = "answer", about: str | None = None) -> int:
        """Queue ``text`` at ``priority`` (:class:`~blindchess.base.Priority`); ``about``: the request it answers
        (it replaces the texts about the same). Returns its number for :meth:`cut`. Raises ScreenReaderLost."""

    def cut(self, ident: int) -> None:
        """Stop text number ``ident`` (the speech policy cut it). Raises ScreenReaderLost."""

    def cancel(self) -> None:
        """Stop what we asked it to say (nothing of the screen reader's own speech). Raises ScreenReaderLost."""

    def set_language(self, lang: str) -> None:
        """The texts are in ``lang`` from now on."""

    def close(self) -> None:
        """Let go of the connection (never raises)."""


# --------------------------------------------------------------------------- Linux: speech-dispatcher

def load_speechd(ui_lang: str | None = None, *, folders: tuple[str, ...] = SYSTEM_PACKAGE_DIRS) -> ModuleType:
    """speech-dispatcher's Python binding (module ``speechd``); see the module docstring.

    Raises :class:`ScreenReaderUnavailable` when it is nowhere to be found.
    """
    loaded = sys.modules.get("speechd")
    if loaded is not None:
        return loaded
    if importlib.util.find_spec("speechd") is not None:
        return importlib.import_module("speechd")
    for pattern in folders:
        for folder in sorted(glob.glob(pattern)):
            init = Path(folder) / "speechd" / "__init__.py"
            if not init.is_file():
                continue
            spec = importlib.util.spec_from_file_location("speechd", init, submodule_search_locations=[str(init.parent)])
            if spec is None or spec.loader is None:
                continue
            module = importlib.util.module_from_spec(spec)
            sys.modules["speechd"] = module      # its own "from . import paths" needs the package registered
            try:
                spec.loader.exec_module(module)
            except (ImportError, SyntaxError):
                del sys.modules["speechd"]
                continue
            return module
    raise ScreenReaderUnavailable(tr("voice.no_speechd_binding", ui_lang))


class SpeechDispatcher:
    """Speaks through speech-dispatcher (SSIP) with the ``speechd`` binding.

    ``lang``: the language of the texts (speech-dispatcher picks the voice);
    ``address``: "unix_socket:/path" or "inet_socket:host:port" (None: the
    session's server). Raises :class:`ScreenReaderUnavailable` when the binding
    is missing or no server answers.

    One connection, one queue (:class:`~blindchess.base.SpeechQueue`): one text at a time is with
    speech-dispatcher; its end (speech-dispatcher's END or CANCEL event) lets the next one go, the highest
    priority first. A text is cut only by the one that replaces it (the same request), so speech-dispatcher
    is told CANCEL only then. The first text goes out on the caller's thread (a dead server is noticed at
    once); the ones that waited go out from a thread of their own, never the window's.
    """

    name = "speech-dispatcher"
    #: Seconds a text may take per word before its end is taken for granted (an END that never comes).
    SLOWEST = 1.5

    def __init__(self, lang: str, *, address: str | None = None, ui_lang: str | None = None,
                 client_name: str = "blindchess") -> None:
        self.ui_lang = ui_lang or lang
        self._speechd = load_speechd(self.ui_lang)
        self._errors: tuple[type[BaseException], ...] = (self._speechd.SSIPCommunicationError,
                                                         self._speechd.SSIPResponseError, OSError)
        try:
            self._client: Any = self._speechd.SSIPClient(client_name, component="table", address=address,
                                                         autospawn=False)
        except self._errors as exc:
            raise ScreenReaderUnavailable(tr("voice.no_speechd", self.ui_lang, error=quoted("speechd", _reason(exc), self.ui_lang))) from exc
        self._priority = ""
        self._lock = threading.Condition()
        self._io = threading.Lock()                  # one SSIP command at a time, whoever sends it
        self._queue = SpeechQueue()
        self._sent: dict[int, int] = {}              # speech-dispatcher's message id -> our utterance
        self._ended: set[int] = set()                # message ids that ended (their event may come first)
        self._deadline = 0.0
        self._lost: ScreenReaderLost | None = None
        self._unsaid: list[str] = []
        self._closed = False
        self._sender: threading.Thread | None = None
        self._client._conn.set_callback(self._event)     # every END/CANCEL, also one faster than speak() returns
        try:
            self._client.set_language(lang)
        except self._errors as exc:
            self.close()
            raise ScreenReaderUnavailable(tr("voice.speechd_error", self.ui_lang, error=_reason(exc))) from exc

    # ------------------------------------------------------------------ the protocol
    def say(self, text: str, priority: str = "answer", about: str | None = None) -> int:
        """Queue ``text`` (see the class docstring); returns its number for :meth:`cut`. Raises
        ScreenReaderLost (with the texts not said yet) when the connection broke."""
        self._check()
        with self._lock:
            utt, cut, _dropped = self._queue.offer(text, priority, about)
            if cut is not None:
                self._cancel_sent()
            nxt = self._take()
        if cut is not None:
            self._ssip(self._client.cancel)
        if nxt is not None:
            self._send(nxt)
        self._start_sender()
        return utt.ident

    def cut(self, ident: int) -> None:
        """Stop text number ``ident``: cancelled while it is said, dropped while it waits."""
        self._check()
        with self._lock:
            self._queue.cut_waiting(ident)
            saying = self._queue.current is not None and self._queue.current.ident == ident
            if saying:
                self._queue.done(ident)
                self._cancel_sent()
                self._lock.notify_all()
        if saying:
            self._ssip(self._client.cancel)

    def cancel(self) -> None:
        """Stop everything we asked it to say (the listener's "stop"); raises ScreenReaderLost."""
        self._check()
        with self._lock:
            self._queue.clear()
            self._cancel_sent()
        self._ssip(self._client.cancel)

    def set_language(self, lang: str) -> None:
        """Speak ``lang`` from the next text on (speech-dispatcher picks the voice)."""
        self._ssip(self._client.set_language, lang)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        try:
            self._client.close()
        except self._errors:
            pass  # the server is gone already: nothing to let go of
        if self._sender is not None and self._sender is not threading.current_thread():
            self._sender.join(2.0)

    # ------------------------------------------------------------------ sending
    @property
    def connected(self) -> bool:
        """Whether the connection stands (the binding's reader thread ends when speech-dispatcher closes it)."""
        reader = getattr(getattr(self._client, "_conn", None), "_communication_thread", None)
        return reader is None or reader.is_alive()

    def _check(self) -> None:
        if self._lost is None and not self._closed and not self.connected:
            with self._lock:
                unsaid = [u.text for u in self._queue.waiting]
                self._queue.clear()
                self._sent.clear()
            self._lost = ScreenReaderLost(tr("voice.speechd_error", self.ui_lang,
                                             error=tr("voice.speechd_closed", self.ui_lang)))
            self._lost.unsaid = unsaid
        if self._lost is not None:
            lost, self._lost = self._lost, None
            raise lost

    def _ssip(self, command: Any, *args: Any) -> Any:
        try:
            with self._io:
                return command(*args)
        except self._errors as exc:
            raise ScreenReaderLost(tr("voice.speechd_error", self.ui_lang, error=_reason(exc))) from exc

    def _send(self, utt: Utterance) -> None:
        """Hand ``utt`` to speech-dispatcher (it is the queue's current text)."""
        wanted = SSIP_PRIORITY.get(str(utt.priority), "message")
        try:
            with self._io:
                if wanted != self._priority:
                    self._client.set_priority(wanted)
                    self._priority = wanted
                result = self._client.speak(utt.text)
        except self._errors as exc:
            with self._lock:
                self._unsaid = [utt.text, *(u.text for u in self._queue.waiting)]
                self._queue.clear()
            lost = ScreenReaderLost(tr("voice.speechd_error", self.ui_lang, error=_reason(exc)))
            lost.unsaid = list(self._unsaid)
            raise lost from exc
        message = int(result[2][0]) if result and len(result) > 2 and result[2] else 0
        with self._lock:
            if message in self._ended:
                self._queue.done(utt.ident)
            else:
                self._sent[message] = utt.ident
            self._lock.notify_all()

    def _take(self) -> Utterance | None:
        """(Under the lock) the next text to send, made current, with the time its end is taken for granted."""
        nxt = self._queue.next()
        if nxt is not None:
            self._deadline = time.monotonic() + 3.0 + self.SLOWEST * len(nxt.text.split())
        return nxt

    def _cancel_sent(self) -> None:
        """(Under the lock) what was sent is being cancelled: its END/CANCEL no longer counts."""
        self._sent.clear()

    def _event(self, message: int, _client: int, kind: str, **_: Any) -> None:
        """speech-dispatcher's event (its reader thread): a text ended, the next may go."""
        if kind not in ("end", "cancel"):
            return
        with self._lock:
            ident = self._sent.pop(int(message), None)
            if ident is None:
                self._ended.add(int(message))
                if len(self._ended) > 64:
                    self._ended.clear()
            else:
                self._queue.done(ident)
            self._lock.notify_all()

    def _start_sender(self) -> None:
        if self._sender is None:
            self._sender = threading.Thread(target=self._send_waiting, name="blindchess-speechd", daemon=True)
            self._sender.start()

    def _send_waiting(self) -> None:
        """The texts that waited, one after another as speech-dispatcher finishes each (a thread of its own)."""
        while True:
            with self._lock:
                while not self._closed:
                    if self._queue.current is not None and time.monotonic() > self._deadline:
                        self._queue.done()          # its end never came: it is long over
                        self._sent.clear()
                    if self._queue.current is None and self._queue.waiting:
                        break
                    self._lock.wait(0.5 if self._queue.current is not None else None)
                if self._closed:
                    return
                nxt = self._take()
            if nxt is None:
                continue
            try:
                self._send(nxt)
            except ScreenReaderLost as exc:
                self._lost = exc         # said by the next call from the window, with what was not said
                return


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0][:120]


# --------------------------------------------------------------------------- Windows: accessible_output2

class WindowsScreenReader:
    """NVDA, JAWS and other Windows screen readers through accessible_output2 (see the module docstring).

    Raises :class:`ScreenReaderUnavailable` without the library or without a running screen reader.
    """

    def __init__(self, ui_lang: str | None = None) -> None:
        self.ui_lang = ui_lang
        try:
            auto = importlib.import_module("accessible_output2.outputs.auto")  # Windows-only dependency
        except ImportError as exc:
            raise ScreenReaderUnavailable(tr("voice.no_ao2", ui_lang)) from exc
        readers = [o for o in auto.Auto().outputs if not o.is_system_output() and o.is_active()]
        if not readers:
            raise ScreenReaderUnavailable(tr("voice.no_windows_reader", ui_lang))
        self._output: Any = readers[0]
        self.name = str(self._output.name)
        self._said = 0

    def say(self, text: str, priority: str = "answer", about: str | None = None) -> int:
        """Speak ``text`` after what the screen reader is saying and show it on the braille display
        (accessible_output2's ``output``: speech and braille; its queue is the screen reader's own)."""
        try:
            self._output.output(text, interrupt=False)
        except OSError as exc:  # the DLL call failed: the screen reader was closed
            raise ScreenReaderLost(tr("voice.lost", self.ui_lang, reason=_reason(exc))) from exc
        self._said += 1
        return self._said

    def cut(self, ident: int) -> None:
        if ident == self._said:
            self.cancel()

    def cancel(self) -> None:
        try:
            self._output.silence()
        except OSError as exc:
            raise ScreenReaderLost(tr("voice.lost", self.ui_lang, reason=_reason(exc))) from exc

    def set_language(self, lang: str) -> None:
        pass  # the screen reader speaks in its own voice and language

    def close(self) -> None:
        pass  # accessible_output2 holds no connection


# --------------------------------------------------------------------------- macOS: VoiceOver

_VOICEOVER_RUNNING = 'tell application "System Events" to (exists process "VoiceOver")'
_VOICEOVER_OUTPUT = ("on run argv", 'tell application "VoiceOver" to output (item 1 of argv)', "end run")


class VoiceOver:
    """VoiceOver through ``osascript`` (see the module docstring). Raises :class:`ScreenReaderUnavailable`."""

    name = "VoiceOver"

    def __init__(self, ui_lang: str | None = None, *, osascript: str | None = None) -> None:
        self.ui_lang = ui_lang
        found = osascript or shutil.which("osascript")
        if found is None:
            raise ScreenReaderUnavailable(tr("voice.no_osascript", ui_lang))
        self.osascript = found
        try:
            done = subprocess.run([found, "-e", _VOICEOVER_RUNNING], capture_output=True, text=True, timeout=5)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ScreenReaderUnavailable(tr("voice.no_voiceover", ui_lang)) from exc
        if done.returncode != 0 or done.stdout.strip() != "true":
            raise ScreenReaderUnavailable(tr("voice.no_voiceover", ui_lang))
        self._lost: OSError | None = None
        self._queue = OsascriptQueue(on_error=self._on_error)
        self._said = 0

    def say(self, text: str, priority: str = "answer", about: str | None = None) -> int:
        """Queue ``text`` for VoiceOver: handed over one at a time, in order (:class:`.macos.OsascriptQueue`);
        a text ``about`` a request replaces the text about the same request still waiting. Raises
        ScreenReaderLost when osascript could not be started for an earlier text."""
        if self._lost is not None:
            raise ScreenReaderLost(tr("voice.lost", self.ui_lang, reason=_reason(self._lost)))
        args = [self.osascript]
        for line in _VOICEOVER_OUTPUT:
            args += ["-e", line]
        self._queue.put([*args, text], replace=about if about is not None else ("window" if priority == "window" else None))
        self._said += 1
        return self._said

    def cut(self, ident: int) -> None:
        pass  # what VoiceOver is saying cannot be stopped from outside; a waiting text is replaced by ``about``

    def cancel(self) -> None:
        """Drop our texts still waiting (what VoiceOver is saying cannot be stopped from outside)."""
        self._queue.clear()

    def set_language(self, lang: str) -> None:
        pass  # VoiceOver speaks in its own voice

    def close(self) -> None:
        self._queue.close()

    def _on_error(self, exc: OSError) -> None:
        self._lost = exc


# --------------------------------------------------------------------------- which screen reader runs

#: Process names of Linux screen readers that speak on the desktop (Orca; others speak on the console only).
LINUX_READERS = {"orca": "Orca"}


def running(*, platform: str | None = None, proc: Path = Path("/proc"),
            environ: dict[str, str] | None = None) -> str | None:
    """The name of the screen reader running for this desktop session ("Orca", "NVDA", "VoiceOver"), or None.

    Linux: a process of this user named like a desktop screen reader whose D-Bus session (else display) is
    ours — another user's or another session's screen reader is not ours. Windows: the screen reader
    accessible_output2 finds active. macOS: VoiceOver (when it may be asked through AppleScript).
    Raises nothing: whatever cannot be read counts as no screen reader.
    """
    platform = platform or sys.platform
    if platform.startswith("win"):
        try:
            return WindowsScreenReader().name
        except ScreenReaderUnavailable:
            return None
    if platform == "darwin":
        try:
            reader = VoiceOver()
        except ScreenReaderUnavailable:
            return None
        reader.close()
        return reader.name
    ours = dict(os.environ if environ is None else environ)
    keys = [k for k in ("DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY", "DISPLAY") if ours.get(k)]
    if not keys:
        return None
    try:
        entries = list(proc.iterdir())
    except OSError:
        return None
    uid = os.getuid() if hasattr(os, "getuid") else None
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            name = (entry / "comm").read_text(encoding="utf-8", errors="replace").strip()
            if name not in LINUX_READERS or (uid is not None and entry.stat().st_uid != uid):
                continue
            raw = (entry / "environ").read_bytes()
        except OSError:
            continue     # gone meanwhile, or not ours to read
        theirs = dict(item.split("=", 1) for item in raw.decode("utf-8", "replace").split("\0") if "=" in item)
        key = keys[0]
        if theirs.get(key) == ours[key]:
            return LINUX_READERS[name]
    return None


# --------------------------------------------------------------------------- choice

def connect(lang: str, *, ui_lang: str | None = None, platform: str | None = None,
            address: str | None = None) -> ScreenReader:
    """The running screen reader of ``platform`` (default: this one), speaking ``lang``.

    Linux and other Unix: speech-dispatcher (``address`` as for :class:`SpeechDispatcher`);
    Windows: accessible_output2; macOS: VoiceOver. Raises :class:`ScreenReaderUnavailable`.
    """
    platform = platform or sys.platform
    ui_lang = ui_lang or lang
    if platform.startswith("win"):
        return WindowsScreenReader(ui_lang)
    if platform == "darwin":
        return VoiceOver(ui_lang)
    if platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return SpeechDispatcher(lang, address=address, ui_lang=ui_lang)
    raise ScreenReaderUnavailable(tr("voice.unsupported_platform", ui_lang, platform=platform))
