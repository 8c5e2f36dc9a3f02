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
    ``text``-priority speech (what the screen reader says when the focus moves)
    — what may cut what among the table's own texts is decided before, by the
    table's speech policy, and carried out with :meth:`ScreenReader.cancel`.
    The calls go over a local socket and return in about a millisecond; they
    are made on the caller's (GUI) thread.

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

Newer replaces older for the window's own texts: speech-dispatcher gets them on
a second connection of their own (component "window"), cancelled before each
new one, so a key pressed ten times is answered once, with the last answer;
the table's texts are never cut by them.

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
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from ...base import UserError, quoted, tr
from .macos import OsascriptQueue

__all__ = ["ScreenReader", "ScreenReaderUnavailable", "ScreenReaderLost", "SpeechDispatcher", "WindowsScreenReader",
           "VoiceOver", "connect", "load_speechd", "running", "SSIP_PRIORITY"]

#: SSIP priority for each speech priority of the table (and "window" for the window's messages).
SSIP_PRIORITY = {"move": "message", "question": "message", "answer": "message", "status": "message",
                 "reading": "text", "window": "message"}

#: Where distributions install the system Python's packages (Debian/Ubuntu first).
SYSTEM_PACKAGE_DIRS = ("/usr/lib/python3/dist-packages", "/usr/lib/python3*/site-packages",
                       "/usr/lib64/python3*/site-packages", "/usr/local/lib/python3*/dist-packages")


class ScreenReaderUnavailable(UserError):
    """No screen reader to speak to (the message says why, in the user's language)."""


class ScreenReaderLost(UserError):
    """The screen reader's connection broke while speaking (the message says why)."""


class ScreenReader(Protocol):
    """A running screen reader that speaks texts for us."""

    #: What it is, for the speech status ("speech-dispatcher", "NVDA", "VoiceOver").
    name: str

    def say(self, text: str, priority: str = "answer") -> None:
        """Queue ``text``; ``priority`` is one of the table's speech priorities or "window". Raises ScreenReaderLost."""

    def cancel(self) -> None:
        """Stop what we asked it to say (nothing of the screen reader's own speech). Raises ScreenReaderLost."""

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
    """

    name = "speech-dispatcher"

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
        self._lang, self._address, self._client_name = lang, address, client_name
        self._window: Any = None       # the window's own texts: a connection of their own (see the module docstring)
        try:
            self._client.set_language(lang)
        except self._errors as exc:
            self.close()
            raise ScreenReaderUnavailable(tr("voice.speechd_error", self.ui_lang, error=_reason(exc))) from exc

    def say(self, text: str, priority: str = "answer") -> None:
        """Queue ``text``; "window" texts replace the window's text being said (their own connection)."""
        if priority == "window":
            self._say_window(text)
            return
        wanted = SSIP_PRIORITY.get(priority, "message")
        try:
            if wanted != self._priority:
                self._client.set_priority(wanted)
                self._priority = wanted
            self._client.speak(text)
        except self._errors as exc:
            raise ScreenReaderLost(tr("voice.speechd_error", self.ui_lang, error=_reason(exc))) from exc

    def _say_window(self, text: str) -> None:
        try:
            if self._window is None:
                self._window = self._speechd.SSIPClient(self._client_name, component="window",
                                                        address=self._address, autospawn=False)
                self._window.set_language(self._lang)
                self._window.set_priority("message")
            else:
                self._window.cancel()
            self._window.speak(text)
        except self._errors as exc:
            raise ScreenReaderLost(tr("voice.speechd_error", self.ui_lang, error=_reason(exc))) from exc

    def cancel(self) -> None:
        try:
            self._client.cancel()
        except self._errors as exc:
            raise ScreenReaderLost(tr("voice.speechd_error", self.ui_lang, error=_reason(exc))) from exc

    def close(self) -> None:
        for client in (self._client, self._window):
            if client is None:
                continue
            try:
                client.close()
            except self._errors:
                pass  # the server is gone already: nothing to let go of


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

    def say(self, text: str, priority: str = "answer") -> None:
        try:
            self._output.speak(text, interrupt=False)
        except OSError as exc:  # the DLL call failed: the screen reader was closed
            raise ScreenReaderLost(tr("voice.lost", self.ui_lang, reason=_reason(exc))) from exc

    def cancel(self) -> None:
        try:
            self._output.silence()
        except OSError as exc:
            raise ScreenReaderLost(tr("voice.lost", self.ui_lang, reason=_reason(exc))) from exc

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

    def say(self, text: str, priority: str = "answer") -> None:
        """Queue ``text`` for VoiceOver: handed over one at a time, in order (:class:`.macos.OsascriptQueue`);
        a "window" text replaces the window's text still waiting. Raises ScreenReaderLost when osascript
        could not be started for an earlier text."""
        if self._lost is not None:
            raise ScreenReaderLost(tr("voice.lost", self.ui_lang, reason=_reason(self._lost)))
        args = [self.osascript]
        for line in _VOICEOVER_OUTPUT:
            args += ["-e", line]
        self._queue.put([*args, text], replace="window" if priority == "window" else None)

    def cancel(self) -> None:
        """Drop our texts still waiting (what VoiceOver is saying cannot be stopped from outside)."""
        self._queue.clear()

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
